@testable import AudioToolbox
import Foundation
import ProcessSupport
import Testing

/// What a program sets through the HAL is what the device I/O reads back from
/// `HALDeviceSettings`: the buffer size and the stream format of a sink of the test's own.
@Suite("HAL device settings")
struct HALDeviceSettingsTests {
    @Test("A buffer size and a rate set with AudioObjectSetPropertyData are the device's buffer size and stream format for the device I/O",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func settingsReachTheDeviceIO() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "halset\(getpid())"
        let module = try HardwareTests.loadSink(sink, description: "HALSettings\(getpid())", channels: 2, rate: 44100)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }

        // The sink's device, by its UID.
        let device = try #require(HALObjects.refresh().device(uid: "pulse:\(sink)")?.id, "no device pulse:\(sink)")
        var address = AudioObjectPropertyAddress(
            mSelector: kAudioDevicePropertyBufferFrameSize, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)

        #expect(HALDeviceSettings.bufferFrameSize(of: device) == HALDeviceSettings.defaultBufferFrameSize)
        #expect(HALDeviceSettings.streamFormat(of: device, direction: .output)?.mSampleRate == 44100)
        #expect(HALDeviceSettings.streamFormat(of: device, direction: .input) == nil)

        var frames = UInt32(256)
        #expect(AudioObjectSetPropertyData(device, &address, 0, nil, UInt32(MemoryLayout<UInt32>.size), &frames) == noErr)
        var rate = Float64(48000)
        address.mSelector = kAudioDevicePropertyNominalSampleRate
        #expect(AudioObjectSetPropertyData(device, &address, 0, nil, UInt32(MemoryLayout<Float64>.size), &rate) == noErr)

        #expect(HALDeviceSettings.bufferFrameSize(of: device) == 256)
        let format = try #require(HALDeviceSettings.streamFormat(of: device, direction: .output))
        #expect(format.mSampleRate == 48000 && format.mChannelsPerFrame == 2 && format.mFormatID == kAudioFormatLinearPCM)
        #expect(format.mBitsPerChannel == 32 && format.mBytesPerFrame == 8 && format.mFramesPerPacket == 1)
        #expect(format.mFormatFlags & kAudioFormatFlagIsFloat != 0)
    }
}
