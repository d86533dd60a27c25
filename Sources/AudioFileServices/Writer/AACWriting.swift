import AudioCore

/// The AAC configuration an MPEG-4 or ADTS writer records: the AudioSpecificConfig (ISO/IEC
/// 14496-3, 1.6.2.1) from the magic cookie, or one made from the data format.
struct AACConfig: Sendable, Equatable {
    /// The AudioSpecificConfig bytes.
    let audioSpecificConfig: [UInt8]
    /// The audio object type (2 for AAC LC), after any SBR or PS signalling.
    let objectType: Int
    /// The sampling frequency index of the core rate, nil for a rate given explicitly.
    let samplingIndex: Int?
    /// The channel configuration (0: given by a program config element).
    let channelConfiguration: Int

    /// The configuration a magic cookie gives: an MPEG-4 ES_Descriptor (tag 3, as Apple's AAC
    /// encoder gives its `kAudioConverterCompressionMagicCookie` and CAF's `kuki` holds it) or a
    /// bare AudioSpecificConfig (as ADTS files report theirs). The cookie must describe audio of
    /// `format`'s sample rate and channels: else `parameter` (`kAudio_ParamError`).
    init(cookie: [UInt8], format: AudioStreamBasicDescription) throws(AudioFileError) {
        func bad(_ reason: String) -> AudioFileError { AudioFileError(.parameter, "the AAC magic cookie \(reason)") }
        guard !cookie.isEmpty else { throw bad("is empty") }
        var asc = cookie
        if cookie[0] == 0x03 {
            let descriptor: ESDescriptor
            do { descriptor = try ESDescriptor(bytes: cookie) } catch { throw bad("is not a readable ES_Descriptor: \(error.reason)") }
            guard ESDescriptor.aacObjectTypeIndications.contains(descriptor.objectTypeIndication), let dsi = descriptor.decoderSpecificInfo else {
                throw bad("is an ES_Descriptor without an AAC AudioSpecificConfig")
            }
            asc = dsi
        }
        guard let parsed = AudioSpecificConfig.streamSummary(of: asc) else { throw bad("holds no readable AudioSpecificConfig") }
        guard parsed.outputRate == format.sampleRate else {
            throw bad("describes \(parsed.outputRate) Hz audio; the data format has \(format.sampleRate) Hz")
        }
        guard parsed.channels == 0 || parsed.channels == Int(format.channelsPerFrame) else {
            throw bad("describes \(parsed.channels) channels; the data format has \(format.channelsPerFrame)")
        }
        guard parsed.framesPerPacket == format.framesPerPacket else {
            throw bad("describes packets of \(parsed.framesPerPacket) frames; the data format has \(format.framesPerPacket)")
        }
        audioSpecificConfig = asc
        objectType = parsed.objectType
        samplingIndex = MPEG4Audio.samplingFrequencies.firstIndex(of: Int(parsed.coreRate))
        channelConfiguration = parsed.channelConfiguration
    }

    /// AAC LC at `format`'s rate and channels, for files written without a cookie; nil where
    /// the channel count has no channel configuration.
    init?(format: AudioStreamBasicDescription) {
        let channels = Int(format.channelsPerFrame)
        guard (1...6).contains(channels) || channels == 8 else { return nil }
        let configuration = channels == 8 ? 7 : channels
        let rate = Int(format.sampleRate)
        guard Double(rate) == format.sampleRate, rate > 0, rate < 1 << 24 else { return nil }
        var bits = BitWriter()
        bits.write(2, 5)  // AAC LC
        let index = MPEG4Audio.samplingFrequencies.firstIndex(of: rate)
        if let index { bits.write(UInt32(index), 4) } else { bits.write(15, 4); bits.write(UInt32(rate), 24) }
        bits.write(UInt32(configuration), 4)
        bits.write(format.framesPerPacket == 960 ? 1 : 0, 1)  // frameLengthFlag
        bits.write(0, 2)  // dependsOnCoreCoder, extensionFlag
        audioSpecificConfig = bits.bytes
        objectType = 2
        samplingIndex = index
        channelConfiguration = configuration
    }

    /// The configuration for `format`: the cookie's when there is one.
    static func resolve(cookie: [UInt8]?, format: AudioStreamBasicDescription) throws(AudioFileError) -> AACConfig {
        if let cookie { return try AACConfig(cookie: cookie, format: format) }
        guard let made = AACConfig(format: format) else {
            throw AudioFileError(.unsupportedDataFormat, "AAC of \(format.channelsPerFrame) channels at \(format.sampleRate) Hz needs a magic cookie")
        }
        return made
    }

    /// An ES_Descriptor (ISO/IEC 14496-1, 7.2.6.5) around the AudioSpecificConfig, as an `esds`
    /// box holds it: object type 0x40 (MPEG-4 audio), stream type 5 (audio), the decoder's
    /// buffer size and bit rates, and an SLConfigDescriptor of the predefined type 2.
    func esDescriptor(bufferSize: UInt32, maximumBitRate: UInt32, averageBitRate: UInt32) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            // Lengths in four 7-bit groups, as Apple's and most writers give them.
            let n = UInt32(body.count)
            return [tag, UInt8(0x80 | (n >> 21 & 0x7F)), UInt8(0x80 | (n >> 14 & 0x7F)), UInt8(0x80 | (n >> 7 & 0x7F)), UInt8(n & 0x7F)] + body
        }
        var config = BigEndianBytes()
        config.bytes += [0x40, 0x15]
        config.bytes += Array(BigEndianBytes.u32(min(bufferSize, 0xFF_FFFF)).dropFirst())
        config.u32(maximumBitRate)
        config.u32(averageBitRate)
        let decoderConfig = descriptor(4, config.bytes + descriptor(5, audioSpecificConfig))
        return descriptor(3, [0, 0, 0] + decoderConfig + descriptor(6, [2]))
    }

    /// The 7-byte ADTS header (ISO/IEC 13818-7, 6.2; no CRC) of a frame carrying `payload`
    /// bytes; nil where ADTS cannot carry it (object types 1 to 4, indexed rates, frames of
    /// up to 8191 bytes).
    func adtsHeader(payload: Int) -> [UInt8]? {
        let length = payload + 7
        guard (1...4).contains(objectType), let samplingIndex, length <= 0x1FFF, channelConfiguration <= 7 else { return nil }
        var bits = BitWriter()
        bits.write(0xFFF, 12)  // syncword
        bits.write(0, 1)  // ID: MPEG-4
        bits.write(0, 2)  // layer
        bits.write(1, 1)  // protection_absent
        bits.write(UInt32(objectType - 1), 2)  // profile
        bits.write(UInt32(samplingIndex), 4)
        bits.write(0, 1)  // private_bit
        bits.write(UInt32(channelConfiguration), 3)
        bits.write(0, 4)  // original_copy, home, copyright_identification_bit and _start
        bits.write(UInt32(length), 13)
        bits.write(0x7FF, 11)  // adts_buffer_fullness: variable bit rate
        bits.write(0, 2)  // number_of_raw_data_blocks_in_frame - 1
        return bits.bytes
    }

    /// Why ``adtsHeader(payload:)`` cannot describe this configuration, nil when it can.
    var adtsProblem: String? {
        if !(1...4).contains(objectType) { return "ADTS carries AAC object types 1 to 4, not \(objectType)" }
        if samplingIndex == nil { return "ADTS carries the 13 indexed sampling rates only" }
        if channelConfiguration == 0 { return "ADTS here needs a channel configuration (1 to 7)" }
        return nil
    }
}

/// Checks of the AAC data formats the MPEG-4 and ADTS writers take.
extension FormatChecks {
    /// AAC (`'aac '`) in packets of 1024 (or 960) frames, without a constant packet size, of
    /// 1 to 8 channels. Returns the format as the file records it.
    func aac() throws(AudioFileError) -> AudioStreamBasicDescription {
        let f = format
        guard f.formatID == .mpeg4AAC else {
            throw unsupported("\(container) files are written with AAC ('aac ')\(container == "ADTS" ? "" : " or ALAC ('alac')") packets")
        }
        guard f.bytesPerPacket == 0, f.framesPerPacket == 1024 || f.framesPerPacket == 960 else {
            throw unsupported("AAC packets vary in size (0 bytes per packet) and hold 1024 or 960 frames")
        }
        guard f.channelsPerFrame <= 8 else { throw unsupported("AAC here holds 1 to 8 channels") }
        return AudioStreamBasicDescription(
            sampleRate: f.sampleRate, formatID: .mpeg4AAC, formatFlags: f.formatFlags, bytesPerPacket: 0,
            framesPerPacket: f.framesPerPacket, bytesPerFrame: 0, channelsPerFrame: f.channelsPerFrame, bitsPerChannel: 0)
    }
}
