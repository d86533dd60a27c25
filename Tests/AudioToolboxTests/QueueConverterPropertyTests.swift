import AudioToolbox
import Testing

/// The audio converter properties an output queue answers from its decoder, through Apple's
/// calls from Swift: an AAC queue reads AAC and writes Float32 PCM, and gives back the cookie
/// its program set.
@Suite("Converter properties of an output queue")
struct QueueConverterPropertyTests {
    static func description(_ queue: AudioQueueRef, _ id: AudioConverterPropertyID) -> (OSStatus, AudioStreamBasicDescription) {
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = AudioQueueGetProperty(queue, id, &f, &size)
        return (status, f)
    }

    @Test("AAC: input the AAC description, output interleaved Float32, the decompression cookie the program set, a bound on packets, no prime info")
    func aacOutputQueue() throws {
        var aac = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1024,
            mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var queue: AudioQueueRef?
        #expect(AudioQueueNewOutput(&aac, { _, _, _ in }, nil, nil, nil, 0, &queue) == noErr)
        let q = try #require(queue)
        defer { AudioQueueDispose(q, true) }
        let cookie = AudioFormatTests.lcCookie
        #expect(cookie.withUnsafeBytes { AudioQueueSetProperty(q, kAudioQueueProperty_MagicCookie, $0.baseAddress!, UInt32($0.count)) } == noErr)

        let (s1, input) = Self.description(q, kAudioConverterCurrentInputStreamDescription)
        #expect(s1 == noErr && input.mFormatID == kAudioFormatMPEG4AAC && input.mFramesPerPacket == 1024)
        let (s2, output) = Self.description(q, kAudioConverterCurrentOutputStreamDescription)
        #expect(s2 == noErr && output.mFormatID == kAudioFormatLinearPCM && output.mFormatFlags & kAudioFormatFlagIsFloat != 0)
        #expect(output.mBitsPerChannel == 32 && output.mBytesPerFrame == 8 && output.mChannelsPerFrame == 2 && output.mSampleRate == 44100)

        var size: UInt32 = 0
        #expect(AudioQueueGetPropertySize(q, kAudioConverterDecompressionMagicCookie, &size) == noErr && Int(size) == cookie.count)
        var back = [UInt8](repeating: 0, count: Int(size))
        #expect(AudioQueueGetProperty(q, kAudioConverterDecompressionMagicCookie, &back, &size) == noErr && back == cookie)
        #expect(AudioQueueGetPropertySize(q, kAudioConverterCompressionMagicCookie, &size) == kAudioConverterErr_PropertyNotSupported)

        var packet: UInt32 = 0
        size = 4
        #expect(AudioQueueGetProperty(q, kAudioConverterPropertyMaximumInputPacketSize, &packet, &size) == noErr && packet == 1536)
        var prime = AudioConverterPrimeInfo()
        size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
        #expect(AudioQueueGetProperty(q, kAudioConverterPrimeInfo, &prime, &size) == kAudioConverterErr_PropertyNotSupported)
    }
}
