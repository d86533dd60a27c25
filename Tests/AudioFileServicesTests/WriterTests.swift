import Foundation
import Testing
import AudioCore
import AudioFileServices

@Suite("AudioFileWriter")
struct WriterTests {
    /// Packets written come back unchanged, with the format and container the writer chose.
    @Test(arguments: [
        (AudioFileType.wave, AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16), AudioFileType.wave),
        (.wave, .linearPCM(sampleRate: 96000, channels: 6, bitsPerChannel: 24), .wave),
        (.wave, .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 8, isSigned: false), .wave),
        (.caf, .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true, isBigEndian: true), .caf),
        (.caf, .linearPCM(sampleRate: 22050, channels: 1, bitsPerChannel: 24), .caf),
        (.aiff, .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isBigEndian: true), .aiff),
        (.aiff, .linearPCM(sampleRate: 11025, channels: 1, bitsPerChannel: 16), .aifc),
        (.aiff, .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 64, isFloat: true, isBigEndian: true), .aifc),
    ])
    func roundTrip(type: AudioFileType, format: AudioStreamBasicDescription, expectedType: AudioFileType) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frames = 1001  // odd, so 8-bit mono data needs a pad byte
        let bytes = (0..<(frames * Int(format.bytesPerFrame))).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let writer = try AudioFileWriter(path: path, type: type, format: format)
        try bytes.withUnsafeBytes { raw in
            try writer.writePackets(UnsafeRawBufferPointer(rebasing: raw[0..<(500 * Int(format.bytesPerFrame))]), count: 500)
            try writer.writePackets(UnsafeRawBufferPointer(rebasing: raw[(500 * Int(format.bytesPerFrame))...]), count: frames - 500)
        }
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.fileType == expectedType)
        #expect(file.packetCount == Int64(frames))
        #expect(file.dataFormat.sampleRate == format.sampleRate)
        #expect(file.dataFormat.channelsPerFrame == format.channelsPerFrame)
        #expect(file.dataFormat.bitsPerChannel == format.bitsPerChannel)
        #expect(file.dataFormat.isFloat == format.isFloat)
        if format.bitsPerChannel > 8 { #expect(file.dataFormat.isBigEndian == format.isBigEndian) }
        #expect(try file.readPackets(from: 0, count: frames).data == bytes)
    }

    @Test func refusesWhatTheContainerCannotHold() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-refuse-\(getpid())").path
        expectError(.unsupportedDataFormat) {
            try AudioFileWriter(path: path, type: .wave, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isBigEndian: true))
        }
        let aac = AudioStreamBasicDescription(sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .wave, format: aac) }
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .aiff, format: aac) }
        expectError(.unsupportedFileType) {
            try AudioFileWriter(path: path, type: .mp3, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16))
        }
        // ADTS and MPEG-4 files are written with AAC packets only.
        expectError(.unsupportedDataFormat) {
            try AudioFileWriter(path: path, type: .adts, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16))
        }
        // What a header field cannot hold, or a container cannot describe, is refused up front.
        var wide = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 9000, bitsPerChannel: 64, isFloat: true)
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .wave, format: wide) }
        wide.channelsPerFrame = 40000
        wide.bytesPerFrame = 40000 * 2
        wide.bytesPerPacket = wide.bytesPerFrame
        wide.bitsPerChannel = 16
        wide.formatFlags = [.isSignedInteger, .isPacked]
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .aiff, format: wide) }
        expectError(.unsupportedDataFormat) {
            try AudioFileWriter(path: path, type: .aiff, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true))
        }
        expectError(.unsupportedDataFormat) {
            try AudioFileWriter(path: path, type: .caf, format: .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 8, isSigned: false))
        }
        let high24 = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: .linearPCM, formatFlags: [.isSignedInteger, .isAlignedHigh, .isBigEndian],
            bytesPerPacket: 8, framesPerPacket: 1, bytesPerFrame: 8, channelsPerFrame: 2, bitsPerChannel: 24)
        expectError(.unsupportedDataFormat) { try AudioFileWriter(path: path, type: .aiff, format: high24) }
        expectError(.fileNotFound) {
            try AudioFileWriter(path: "/nonexistent/dir/x.wav", type: .wave, format: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16))
        }
    }
}
