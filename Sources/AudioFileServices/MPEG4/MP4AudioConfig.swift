import AudioCore

/// An AudioSpecificConfig (ISO/IEC 14496-3, 1.6.2.1) as far as the stream description needs:
/// object type, rates, channel configuration and explicit SBR/PS signalling.
///
/// SBR is explicit in two forms, and both make the stream HE-AAC (`'aach'`, or `'aacp'` with
/// PS) at the SBR output rate with twice the core's frames per packet, as Apple's `AudioFile`
/// reports it:
/// - hierarchical: audio object type 5 (SBR) or 29 (PS) first, then the SBR rate and the core;
/// - backward-compatible: an AAC core config whose GASpecificConfig is followed by the sync
///   extension 0x2b7, extension object type 5, `sbrPresentFlag` 1 and the SBR rate (and perhaps
///   0x548 with `psPresentFlag`). Read only when the config holds its 16 or more bits.
///
/// Only the object type, the core rate and the channel configuration are required: a config cut
/// short inside its GASpecificConfig (a 2-byte config that sets `dependsOnCoreCoder`) is read as
/// if the missing bits were zero, as ffmpeg reads it.
struct MP4AudioConfig {
    let objectType: Int
    let coreRate: Double
    let outputRate: Double
    let channelConfiguration: Int
    let channels: Int
    let formatID: AudioFormatID
    let formatFlags: UInt32
    let framesPerPacket: UInt32

    /// The object types with a GASpecificConfig (ISO/IEC 14496-3, 1.6.2.1).
    static let gaTypes: Set<Int> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]

    init?(_ bytes: [UInt8]) {
        var r = BitReader(bytes)
        func objectTypeField() -> Int {
            let t = Int(r.read(5))
            return t == 31 ? 32 + Int(r.read(6)) : t
        }
        func rateField() -> Int? {
            let index = Int(r.read(4))
            if index == 15 { return Int(r.read(24)) }
            return index < MPEG4Audio.samplingFrequencies.count ? MPEG4Audio.samplingFrequencies[index] : nil
        }
        var type = objectTypeField()
        guard let core = rateField() else { return nil }
        let configuration = Int(r.read(4))
        var extensionRate: Int?
        var signalled = 0
        if type == 5 || type == 29 {
            signalled = type
            extensionRate = rateField()
            type = objectTypeField()
        }
        guard !r.overrun, type > 0, core > 0 else { return nil }
        objectType = type
        coreRate = Double(core)
        channelConfiguration = configuration
        var count = configuration == 7 ? 8 : (configuration <= 6 ? configuration : 0)
        var shortFrames = false
        if Self.gaTypes.contains(type) {
            // GASpecificConfig's frameLengthFlag: 960-sample frames.
            shortFrames = r.read(1) == 1
            if signalled == 0, Self.skipRestOfGASpecific(&r, type: type, configuration: configuration, pceChannels: &count),
               bytes.count * 8 - r.position >= 16, r.peek(11) == 0x2B7 {
                r.skip(11)
                if objectTypeField() == 5, r.read(1) == 1, let rate = rateField() {
                    signalled = 5
                    extensionRate = rate
                    if bytes.count * 8 - r.position >= 12, r.read(11) == 0x548, r.read(1) == 1 { signalled = 29 }
                }
                if r.overrun { signalled = 0 }
            }
        }
        switch signalled {
        case 5:
            formatID = .mpeg4AAC_HE
            outputRate = Double(extensionRate ?? core * 2)
            formatFlags = 5
        case 29:
            formatID = .mpeg4AAC_HE_V2
            outputRate = Double(extensionRate ?? core * 2)
            formatFlags = 29
            if count == 1 { count = 2 }
        default:
            formatID = .mpeg4AAC
            outputRate = Double(core)
            formatFlags = UInt32(type)
        }
        channels = count
        let coreFrames: UInt32 = type == 23 ? (shortFrames ? 480 : 512) : (shortFrames ? 960 : 1024)
        framesPerPacket = outputRate > coreRate ? coreFrames * 2 : coreFrames
    }

    /// Reads the GASpecificConfig after its frameLengthFlag (ISO/IEC 14496-3, 4.4.1), counting a
    /// program config element's channels into `pceChannels`. False when the config ends inside
    /// it (then nothing after it can be read).
    private static func skipRestOfGASpecific(_ r: inout BitReader, type: Int, configuration: Int, pceChannels: inout Int) -> Bool {
        if r.read(1) == 1 { r.skip(14) }  // dependsOnCoreCoder → coreCoderDelay
        let extensionFlag = r.read(1) == 1
        if configuration == 0 {
            r.skip(10)  // element_instance_tag, object_type, sampling_frequency_index
            let front = Int(r.read(4)), side = Int(r.read(4)), back = Int(r.read(4))
            let lfe = Int(r.read(2)), assoc = Int(r.read(3)), cc = Int(r.read(4))
            if r.read(1) == 1 { r.skip(4) }  // mono mixdown
            if r.read(1) == 1 { r.skip(4) }  // stereo mixdown
            if r.read(1) == 1 { r.skip(3) }  // matrix mixdown
            var channels = lfe
            for _ in 0..<(front + side + back) {
                channels += r.read(1) == 1 ? 2 : 1
                r.skip(4)
            }
            r.skip(4 * lfe + 4 * assoc + 5 * cc)
            if r.position & 7 != 0 { r.skip(8 - r.position & 7) }  // byte_alignment() from the config's start
            r.skip(8 * Int(r.read(8)))  // comment
            if !r.overrun { pceChannels = channels }
        }
        if type == 6 || type == 20 { r.skip(3) }  // layerNr
        if extensionFlag {
            if type == 22 { r.skip(16) }  // numOfSubFrame, layer_length
            if [17, 19, 20, 23].contains(type) { r.skip(3) }  // resilience flags
            r.skip(1)  // extensionFlag3
        }
        if [17, 19, 20, 21, 22, 23].contains(type) { r.skip(2) }  // epConfig
        return !r.overrun && r.position <= r.bytes.count * 8
    }
}
