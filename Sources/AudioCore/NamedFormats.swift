// Formats by name: the descriptions Apple's converters and files fill in, without writing out
// seven fields and their zeros.

extension AudioStreamBasicDescription {
    // MARK: Linear PCM

    /// Linear PCM as Apple's `FillOutASBDForLPCM` describes it: `bits` valid bits in a word of
    /// whole bytes, signed integer or float, interleaved or one buffer per channel, little- or
    /// big-endian. Samples that fill their word are packed; narrower ones (20 bits in 3 bytes)
    /// sit high in it (`kAudioFormatFlagIsAlignedHigh`). For interleaved data a frame holds
    /// every channel; for non-interleaved data `bytesPerFrame` is one channel's sample, as Apple
    /// counts it.
    ///
    /// ```swift
    /// let cd = AudioStreamBasicDescription.pcm(sampleRate: 44100, channels: 2)  // 16-bit
    /// ```
    public static func pcm(
        sampleRate: Double, channels: Int, bits: Int = 16, float: Bool = false,
        interleaved: Bool = true, bigEndian: Bool = false
    ) -> AudioStreamBasicDescription {
        let word = UInt32(clamping: (max(bits, 0) + 7) / 8)
        let channelCount = UInt32(clamping: max(channels, 0))
        var flags: AudioFormatFlags = float ? .isFloat : .isSignedInteger
        if bigEndian { flags.insert(.isBigEndian) }
        flags.insert(Int(word) * 8 == bits ? .isPacked : .isAlignedHigh)
        if !interleaved { flags.insert(.isNonInterleaved) }
        let frameBytes = interleaved ? word &* channelCount : word
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: flags,
            bytesPerPacket: frameBytes, framesPerPacket: 1, bytesPerFrame: frameBytes,
            channelsPerFrame: channelCount, bitsPerChannel: UInt32(clamping: max(bits, 0)))
    }

    /// 16-bit signed integer linear PCM, native (little-) endian, packed: CD audio and most WAVE
    /// files.
    public static func int16(sampleRate: Double, channels: Int, interleaved: Bool = true) -> AudioStreamBasicDescription {
        .pcm(sampleRate: sampleRate, channels: channels, bits: 16, interleaved: interleaved)
    }

    /// 24-bit signed integer linear PCM in 3 bytes, native (little-) endian, packed.
    public static func int24(sampleRate: Double, channels: Int, interleaved: Bool = true) -> AudioStreamBasicDescription {
        .pcm(sampleRate: sampleRate, channels: channels, bits: 24, interleaved: interleaved)
    }

    /// 32-bit signed integer linear PCM, native (little-) endian, packed.
    public static func int32(sampleRate: Double, channels: Int, interleaved: Bool = true) -> AudioStreamBasicDescription {
        .pcm(sampleRate: sampleRate, channels: channels, bits: 32, interleaved: interleaved)
    }

    /// 32-bit float linear PCM, native (little-) endian, packed: what decoders and the
    /// converter work in. `interleaved: false` is Apple's canonical non-interleaved float
    /// (`AVAudioFormat`'s standard format).
    public static func float32(sampleRate: Double, channels: Int, interleaved: Bool = true) -> AudioStreamBasicDescription {
        .pcm(sampleRate: sampleRate, channels: channels, bits: 32, float: true, interleaved: interleaved)
    }

    /// 64-bit float linear PCM, native (little-) endian, packed.
    public static func float64(sampleRate: Double, channels: Int, interleaved: Bool = true) -> AudioStreamBasicDescription {
        .pcm(sampleRate: sampleRate, channels: channels, bits: 64, float: true, interleaved: interleaved)
    }

    // MARK: Constant-size codecs

    /// Apple IMA 4:1 ADPCM (`'ima4'`): packets of 64 frames, 34 bytes per channel (a 2-byte
    /// header and 32 bytes of 4-bit samples), no flags, bytes per frame and bits per channel 0.
    public static func ima4(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        let channelCount = UInt32(clamping: max(channels, 0))
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: 34 &* channelCount,
            framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: channelCount, bitsPerChannel: 0)
    }

    /// G.711 µ-law (`'ulaw'`): one 8-bit byte per sample, one frame per packet; 8 kHz mono by
    /// default, as telephony uses it.
    public static func ulaw(sampleRate: Double = 8000, channels: Int = 1) -> AudioStreamBasicDescription {
        g711(.uLaw, sampleRate: sampleRate, channels: channels)
    }

    /// G.711 A-law (`'alaw'`): one 8-bit byte per sample, one frame per packet; 8 kHz mono by
    /// default.
    public static func alaw(sampleRate: Double = 8000, channels: Int = 1) -> AudioStreamBasicDescription {
        g711(.aLaw, sampleRate: sampleRate, channels: channels)
    }

    private static func g711(_ id: AudioFormatID, sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        let channelCount = UInt32(clamping: max(channels, 0))
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: id, formatFlags: [], bytesPerPacket: channelCount,
            framesPerPacket: 1, bytesPerFrame: channelCount, channelsPerFrame: channelCount, bitsPerChannel: 8)
    }

    // MARK: Variable-size codecs

    /// MPEG-4 AAC-LC (`'aac '`): packets of 1024 frames and varying size (bytes per packet,
    /// bytes per frame and bits per channel 0).
    public static func aac(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        compressed(.mpeg4AAC, sampleRate: sampleRate, channels: channels, framesPerPacket: 1024)
    }

    /// MPEG-4 HE-AAC (AAC with SBR, `'aach'`): 2048 frames per packet at the output rate
    /// `sampleRate` (the core codes at half of it).
    public static func heAAC(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        compressed(.mpeg4AAC_HE, sampleRate: sampleRate, channels: channels, framesPerPacket: 2048)
    }

    /// MPEG-4 HE-AAC v2 (SBR and parametric stereo, `'aacp'`): always stereo, 2048 frames per
    /// packet at the output rate `sampleRate`.
    public static func heAACv2(sampleRate: Double) -> AudioStreamBasicDescription {
        compressed(.mpeg4AAC_HE_V2, sampleRate: sampleRate, channels: 2, framesPerPacket: 2048)
    }

    /// Apple Lossless (`'alac'`): 4096 frames per packet, the source bit depth in the format
    /// flags (`kAppleLosslessFormatFlag_16BitSourceData` 1, 20-bit 2, 24-bit 3, 32-bit 4).
    public static func alac(sampleRate: Double, channels: Int, bitDepth: Int = 16) -> AudioStreamBasicDescription {
        var format = compressed(.appleLossless, sampleRate: sampleRate, channels: channels, framesPerPacket: 4096)
        format.formatFlags = AudioFormatFlags(rawValue: FLACDataFormat.formatFlag(bitDepth: bitDepth))
        return format
    }

    /// FLAC (`'flac'`) as Apple describes it: 4096 frames per packet and the source bit depth in
    /// the format flags as for Apple Lossless (other depths in `bitsPerChannel`).
    public static func flac(sampleRate: Double, channels: Int, bitDepth: Int = 16) -> AudioStreamBasicDescription {
        FLACDataFormat.description(sampleRate: sampleRate, channels: UInt32(clamping: max(channels, 0)), bitDepth: bitDepth)
    }

    /// Opus (`'opus'`): 48 kHz and 20 ms packets (960 frames) unless told otherwise.
    public static func opus(sampleRate: Double = 48000, channels: Int, framesPerPacket: Int = 960) -> AudioStreamBasicDescription {
        compressed(.opus, sampleRate: sampleRate, channels: channels, framesPerPacket: framesPerPacket)
    }

    /// MPEG-1/2 Layer III (`'.mp3'`): 1152 frames per packet at 32 kHz and above (MPEG-1),
    /// 576 below (MPEG-2 and 2.5).
    public static func mp3(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        compressed(.mpegLayer3, sampleRate: sampleRate, channels: channels, framesPerPacket: sampleRate >= 32000 ? 1152 : 576)
    }

    private static func compressed(
        _ id: AudioFormatID, sampleRate: Double, channels: Int, framesPerPacket: Int
    ) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: id, formatFlags: [], bytesPerPacket: 0,
            framesPerPacket: UInt32(clamping: max(framesPerPacket, 0)), bytesPerFrame: 0,
            channelsPerFrame: UInt32(clamping: max(channels, 0)), bitsPerChannel: 0)
    }

    // MARK: Int views of the raw fields

    /// ``channelsPerFrame`` as an `Int`, the width the Swift API counts in.
    public var channelCount: Int { Int(channelsPerFrame) }
    /// ``framesPerPacket`` as an `Int` (0 for formats whose packets vary in duration).
    public var framesPerPacketCount: Int { Int(framesPerPacket) }
    /// ``bytesPerPacket`` as an `Int` (0 for formats whose packets vary in size).
    public var bytesPerPacketCount: Int { Int(bytesPerPacket) }
    /// ``bytesPerFrame`` as an `Int` (0 for compressed formats).
    public var bytesPerFrameCount: Int { Int(bytesPerFrame) }
}
