import AudioCore

/// The checks of a data format that every container's writer makes alike, failing with
/// `unsupportedDataFormat` and the container's name: linear PCM's packets and sample words, and
/// G.711's one byte per channel.
struct FormatChecks {
    let format: AudioStreamBasicDescription
    /// The container, as its errors name it: `"CAF"`, `"WAVE"`, `"AIFF"`.
    let container: String

    /// The error for a format the container cannot hold.
    func unsupported(_ reason: String) -> AudioFileError {
        AudioFileError(.unsupportedDataFormat, "\(container): \(reason): \(format)")
    }

    /// Linear PCM's sample word in bytes: one frame per packet and whole bytes per channel, in
    /// packets of at most `maximumPacketBytes`.
    func pcmWordSize(maximumPacketBytes: UInt32 = .max) throws(AudioFileError) -> UInt32 {
        let f = format
        guard f.framesPerPacket == 1, f.bytesPerPacket > 0, f.bytesPerFrame == f.bytesPerPacket,
              f.bytesPerPacket % f.channelsPerFrame == 0, f.bytesPerPacket <= maximumPacketBytes
        else { throw unsupported("linear PCM needs one frame per packet and whole bytes per channel") }
        return f.bytesPerPacket / f.channelsPerFrame
    }

    /// Linear PCM's sample word in bytes, as ``pcmWordSize(maximumPacketBytes:)`` gives it, at
    /// most `maximumWordBytes` and holding samples of 1 to all its bits; float samples fill it
    /// (``checkFloat(word:)``).
    func pcmSampleWord(maximumPacketBytes: UInt32 = .max, maximumWordBytes: UInt32 = .max) throws(AudioFileError) -> UInt32 {
        let word = try pcmWordSize(maximumPacketBytes: maximumPacketBytes)
        guard word <= maximumWordBytes, format.bitsPerChannel > 0, format.bitsPerChannel <= word * 8 else {
            throw unsupported("\(format.bitsPerChannel)-bit samples in \(word)-byte words")
        }
        if format.isFloat { try checkFloat(word: word) }
        return word
    }

    /// Float samples fill words of 32 or 64 bits.
    func checkFloat(word: UInt32) throws(AudioFileError) {
        guard format.bitsPerChannel == word * 8, word == 4 || word == 8 else { throw unsupported("float samples are 32 or 64 bits") }
    }

    /// How samples lie in their `word`s: `[.isPacked]` when they fill them, else `[.isAlignedHigh]`
    /// when the format says they are high-aligned (`isAlignedHigh`, or `isPacked` too where
    /// `packedMeansHigh`: a packed sample narrower than its word can only be at its top).
    func pcmAlignment(word: UInt32, packedMeansHigh: Bool) throws(AudioFileError) -> AudioFormatFlags {
        let packed = format.bitsPerChannel == word * 8
        guard packed || format.formatFlags.contains(.isAlignedHigh) || (packedMeansHigh && format.formatFlags.contains(.isPacked)) else {
            throw unsupported("\(container) holds samples high-aligned in their words")
        }
        return packed ? [.isPacked] : [.isAlignedHigh]
    }

    /// The linear PCM description the file records: the format's packets and samples with `flags`.
    func recordedPCM(flags: AudioFormatFlags, sampleRate: Double) -> AudioStreamBasicDescription {
        let f = format
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: flags, bytesPerPacket: f.bytesPerPacket,
            framesPerPacket: 1, bytesPerFrame: f.bytesPerPacket, channelsPerFrame: f.channelsPerFrame, bitsPerChannel: f.bitsPerChannel)
    }

    /// G.711 (A-law, µ-law) has one byte per channel and one frame per packet.
    func checkG711() throws(AudioFileError) {
        guard format.bytesPerPacket == format.channelsPerFrame, format.framesPerPacket == 1 else {
            throw unsupported("G.711 has one byte per channel and one frame per packet")
        }
    }

    /// The G.711 description the file records, once ``checkG711()`` passes: one byte per channel
    /// in each one-frame packet, at `sampleRate`, with `formatFlags` and `bitsPerChannel`.
    func recordedG711(sampleRate: Double, formatFlags: AudioFormatFlags = [], bitsPerChannel: UInt32 = 8) throws(AudioFileError)
        -> AudioStreamBasicDescription
    {
        try checkG711()
        let ch = format.channelsPerFrame
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: format.formatID, formatFlags: formatFlags, bytesPerPacket: ch, framesPerPacket: 1,
            bytesPerFrame: ch, channelsPerFrame: ch, bitsPerChannel: bitsPerChannel)
    }

    /// Apple IMA4 has packets of 34 bytes per channel and 64 frames.
    func checkIMA4() throws(AudioFileError) {
        guard format.bytesPerPacket == 34 * format.channelsPerFrame, format.framesPerPacket == 64 else {
            throw unsupported("ima4 packets are 34 bytes per channel and 64 frames")
        }
    }
}
