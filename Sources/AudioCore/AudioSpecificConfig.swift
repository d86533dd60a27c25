
/// An MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3, 1.6.2.1): what an AAC decoder needs to know
/// before the first access unit.
///
/// Parsing follows the syntax of the standard: the audio object type (with the escape to 32 and
/// above), the sampling frequency index (or an explicit 24-bit rate), the channel configuration,
/// the hierarchical SBR/PS signalling of object types 5 and 29, the GASpecificConfig with its
/// program_config_element when the channel configuration is 0, and the backward-compatible sync
/// extensions (0x2b7 for SBR, 0x548 for PS) that may follow it, read only when the config holds
/// their bits. Every read is bounds-checked; a config that ends before a mandatory field (object
/// types, rates, channel configuration, a program config element) is ``ParseError/Kind/malformed``; one that ends
/// inside the GASpecificConfig's flags and the fields they bring reads them as zero, as ffmpeg
/// does (audiobooks carry 2-byte configs that set `dependsOnCoreCoder`). A syntax this package
/// cannot decode is ``ParseError/Kind/unsupported``, a broken one ``ParseError/Kind/malformed``.
///
/// The one parser of the package: AAC decoding (AudioCodecFAAD), the MPEG-4 and ADTS readers and
/// writers (AudioFileServices, through ``streamSummary(of:)``) and the C API's format
/// information all read configs here.
public struct AudioSpecificConfig: Hashable, Sendable {
    /// Why bytes are not an AudioSpecificConfig this package reads.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// Malformed (the syntax is broken: too short, a reserved value) or unsupported (a
        /// valid syntax this package does not decode: an object type that is not AAC, error
        /// protection).
        public enum Kind: Sendable { case malformed, unsupported }
        public var kind: Kind
        /// What is wrong, naming the field.
        public var reason: String
        public var description: String { reason }
        init(_ kind: Kind, _ reason: String) {
            self.kind = kind
            self.reason = reason
        }
    }

    /// Whether a config says a tool (SBR or PS) is used.
    public enum Signalling: Hashable, Sendable {
        /// Signalled as present (explicit signalling).
        case present
        /// Signalled as absent (a sync extension with the present flag 0).
        case absent
        /// Not signalled: the stream itself may carry it (implicit signalling).
        case unspecified
    }

    /// The config's bytes as given.
    public let bytes: [UInt8]
    /// The core audio object type (2 for AAC LC), after the SBR/PS hierarchy is unwrapped.
    public let audioObjectType: Int
    /// The audio object type in the first field: 5 (SBR) or 29 (PS) for hierarchical signalling,
    /// else the same as ``audioObjectType``.
    public let signalledObjectType: Int
    /// The core's sampling frequency index (0–12), or 15 when the rate is given explicitly.
    public let samplingFrequencyIndex: Int
    /// The core's sampling rate in Hz.
    public let samplingFrequency: Int
    /// The MPEG-4 channel configuration (0: the program config element says).
    public let channelConfiguration: Int
    /// Channels of the core: from the channel configuration or the program config element.
    public let channelCount: Int
    /// True when frames are 960 (480 for LD) samples instead of 1024 (512).
    public let frameLengthFlag: Bool
    /// SBR signalling.
    public let sbr: Signalling
    /// PS signalling.
    public let ps: Signalling
    /// The SBR output sampling frequency index when SBR is signalled as present.
    public let extensionSamplingFrequencyIndex: Int?
    /// The SBR output rate in Hz when SBR is signalled as present.
    public let extensionSamplingFrequency: Int?
    /// Bit offset of the GASpecificConfig (right after the core object type).
    let gaSpecificStart: Int
    /// Bit offset just after the GASpecificConfig (and epConfig for error-resilient types).
    let gaSpecificEnd: Int

    /// Sampling rates by sampling frequency index (ISO/IEC 14496-3, Table 1.18).
    public static var samplingFrequencies: [Int] { MPEG4Audio.samplingFrequencies }

    /// The object types whose GASpecificConfig this parser reads (ISO/IEC 14496-3, 1.6.2.1).
    static let gaObjectTypes: Set<Int> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]
    /// The error-resilient object types, which add epConfig after the GASpecificConfig.
    static let errorResilientTypes: Set<Int> = [17, 19, 20, 21, 22, 23]

    /// Parses `bytes` as an AudioSpecificConfig.
    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count >= 2 else {
            throw ParseError(.malformed, "AudioSpecificConfig of \(bytes.count) bytes (at least 2 are needed)")
        }
        self.bytes = bytes
        var r = ConfigBitReader(bytes)
        let firstType = try r.objectType()
        guard firstType != 0 else {
            throw ParseError(.malformed, "AudioSpecificConfig with audio object type 0 (null)")
        }
        signalledObjectType = firstType
        let (index, rate) = try r.samplingFrequency()
        let configuration = Int(try r.bits(4))
        var sbr = Signalling.unspecified
        var ps = Signalling.unspecified
        var extensionIndex: Int?
        var extensionRate: Int?
        var coreType = firstType
        if firstType == 5 || firstType == 29 {
            sbr = .present
            if firstType == 29 { ps = .present }
            (extensionIndex, extensionRate) = try r.samplingFrequency()
            coreType = try r.objectType()
            if coreType == 22 { _ = try r.bits(4) }  // extensionChannelConfiguration (ER BSAC)
        }
        guard Self.gaObjectTypes.contains(coreType) else {
            throw ParseError(.unsupported, "MPEG-4 audio object type \(coreType) is not AAC")
        }
        gaSpecificStart = r.position
        // GASpecificConfig (ISO/IEC 14496-3, 4.4.1). Its flags and the fields they bring are
        // read as zero where the config has ended (a 2-byte config that sets dependsOnCoreCoder
        // is read so by ffmpeg); a program config element must be whole.
        let frameLengthFlag = r.bitsOrZero(1) == 1
        if r.bitsOrZero(1) == 1 { _ = r.bitsOrZero(14) }  // dependsOnCoreCoder → coreCoderDelay
        let extensionFlag = r.bitsOrZero(1) == 1
        let channels: Int
        switch configuration {
        case 0: channels = try ProgramConfigElement.parse(&r, configStart: 0)
        case 1...6: channels = configuration
        case 7: channels = 8
        default:
            throw ParseError(.unsupported, "channel configuration \(configuration) is reserved")
        }
        if coreType == 6 || coreType == 20 { _ = r.bitsOrZero(3) }  // layerNr
        if extensionFlag {
            if coreType == 22 { _ = r.bitsOrZero(16) }  // numOfSubFrame, layer_length
            if [17, 19, 20, 23].contains(coreType) { _ = r.bitsOrZero(3) }  // resilience flags
            _ = r.bitsOrZero(1)  // extensionFlag3
        }
        if Self.errorResilientTypes.contains(coreType) {
            let epConfig = r.bitsOrZero(2)
            guard epConfig == 0 else {
                throw ParseError(.unsupported, "error protection (epConfig \(epConfig)) is not supported")
            }
        }
        gaSpecificEnd = r.position
        // Backward-compatible extension signalling after the GASpecificConfig.
        if sbr != .present, r.remaining >= 16 {
            var look = r
            if look.peek(11) == 0x2B7 {
                _ = try look.bits(11)
                let extensionType = try look.objectType()
                if extensionType == 5 {
                    let flag = try look.bits(1)
                    sbr = flag == 1 ? .present : .absent
                    if flag == 1 {
                        (extensionIndex, extensionRate) = try look.samplingFrequency()
                        if look.remaining >= 12, look.peek(11) == 0x548 {
                            _ = try look.bits(11)
                            ps = try look.bits(1) == 1 ? .present : .absent
                        }
                    }
                }
            }
        }
        if ps == .present, sbr != .present {
            throw ParseError(.malformed, "PS signalled without SBR")
        }
        guard channels > 0 else {
            throw ParseError(.unsupported, "AudioSpecificConfig with no channels")
        }
        if index == 15 && rate <= 0 {
            throw ParseError(.malformed, "explicit sampling rate of 0 Hz")
        }
        guard channels <= 64 else {
            throw ParseError(.unsupported, "more than 64 channels")
        }
        (self.audioObjectType, self.samplingFrequencyIndex, self.samplingFrequency) = (coreType, index, rate)
        self.channelConfiguration = configuration
        self.channelCount = channels
        self.frameLengthFlag = frameLengthFlag
        self.sbr = sbr
        self.ps = ps
        self.extensionSamplingFrequencyIndex = extensionIndex
        self.extensionSamplingFrequency = extensionRate
    }

    /// The AudioSpecificConfig for a plain AAC stream: `objectType` (2 for LC), `sampleRate` and
    /// `channels` (1–6 or 8). For object type 5 (HE-AAC) or 29 (HE-AAC v2), `sampleRate` is the
    /// output rate and the core runs at half of it; HE-AAC v2 has a mono core.
    public init(objectType: Int, sampleRate: Double, channels: Int) throws(ParseError) {
        let hierarchical = objectType == 5 || objectType == 29
        let coreType = hierarchical ? 2 : objectType
        guard Self.gaObjectTypes.contains(coreType), coreType != 22, coreType != 6, coreType != 20 else {
            throw ParseError(.unsupported, "cannot describe MPEG-4 audio object type \(objectType) without a magic cookie")
        }
        let configuration: Int
        switch channels {
        case 1...6: configuration = channels
        case 8: configuration = 7
        default:
            throw ParseError(.unsupported, "\(channels) AAC channels need a magic cookie (program config element)")
        }
        guard sampleRate.isFinite, sampleRate > 0, sampleRate < 1e6, sampleRate == sampleRate.rounded() else {
            throw ParseError(.unsupported, "AAC sampling rate \(sampleRate) Hz")
        }
        let outputRate = Int(sampleRate)
        let coreRate = hierarchical ? outputRate / 2 : outputRate
        guard let coreIndex = Self.samplingFrequencies.firstIndex(of: coreRate),
              !hierarchical || outputRate % 2 == 0 else {
            throw ParseError(.unsupported, "AAC has no sampling frequency index for \(coreRate) Hz")
        }
        var w = ConfigBitWriter()
        if hierarchical {
            guard let extensionIndex = Self.samplingFrequencies.firstIndex(of: outputRate) else {
                throw ParseError(.unsupported, "AAC has no sampling frequency index for \(outputRate) Hz")
            }
            w.write(UInt32(objectType), 5)
            w.write(UInt32(coreIndex), 4)
            w.write(UInt32(objectType == 29 ? 1 : configuration), 4)
            w.write(UInt32(extensionIndex), 4)
            w.write(UInt32(coreType), 5)
        } else {
            w.writeObjectType(coreType)
            w.write(UInt32(coreIndex), 4)
            w.write(UInt32(configuration), 4)
        }
        w.write(0, 3)  // frameLengthFlag, dependsOnCoreCoder, extensionFlag
        if Self.errorResilientTypes.contains(coreType) { w.write(0, 2) }  // epConfig
        try self.init(bytes: w.bytes)
    }

    /// Frames in one access unit of the core: 1024 (960 with ``frameLengthFlag``), or 512 (480)
    /// for AAC LD.
    public var coreFrameLength: Int {
        audioObjectType == 23 ? (frameLengthFlag ? 480 : 512) : (frameLengthFlag ? 960 : 1024)
    }

    /// A config with the same core and explicit hierarchical SBR signalling (object type 5, or 29
    /// when `ps`) whose SBR output runs at `extensionIndex`. With `extensionIndex` equal to the
    /// core's index this is downsampled SBR: the output stays at the core rate.
    package func withExplicitSBR(extensionIndex: Int, ps: Bool) throws(ParseError) -> AudioSpecificConfig {
        var w = ConfigBitWriter()
        w.write(ps ? 29 : 5, 5)
        writeFrequency(&w, index: samplingFrequencyIndex, rate: samplingFrequency)
        w.write(UInt32(channelConfiguration), 4)
        w.write(UInt32(extensionIndex), 4)
        w.writeObjectType(audioObjectType)
        copyGASpecific(into: &w)
        return try AudioSpecificConfig(bytes: w.bytes)
    }

    /// A config with the same core and GASpecificConfig but no SBR/PS signalling at all, with the
    /// sampling frequency index replaced by `coreIndex` where given.
    package func coreOnly(coreIndex: Int? = nil) throws(ParseError) -> AudioSpecificConfig {
        var w = ConfigBitWriter()
        w.writeObjectType(audioObjectType)
        if let coreIndex {
            w.write(UInt32(coreIndex), 4)
        } else {
            writeFrequency(&w, index: samplingFrequencyIndex, rate: samplingFrequency)
        }
        w.write(UInt32(channelConfiguration), 4)
        copyGASpecific(into: &w)
        return try AudioSpecificConfig(bytes: w.bytes)
    }

    private func writeFrequency(_ w: inout ConfigBitWriter, index: Int, rate: Int) {
        w.write(UInt32(index), 4)
        if index == 15 { w.write(UInt32(rate), 24) }
    }

    /// Copies the GASpecificConfig bits; a program config element's byte alignment is relative to
    /// the start of the config, so it is redone for the new position.
    private func copyGASpecific(into w: inout ConfigBitWriter) {
        var r = ConfigBitReader(bytes)
        r.skip(gaSpecificStart)
        guard channelConfiguration == 0 else {
            var left = gaSpecificEnd - gaSpecificStart
            while left > 0 {
                let n = min(left, 16)
                w.write(r.peek(n), n)
                r.skip(n)
                left -= n
            }
            return
        }
        // frameLengthFlag, dependsOnCoreCoder (+ coreCoderDelay), extensionFlag, then the PCE.
        var copier = BitCopier(reader: r, writer: w)
        copier.copy(1)
        let depends = copier.copy(1)
        if depends == 1 { copier.copy(14) }
        copier.copy(1)
        ProgramConfigElement.copy(&copier)
        // Whatever follows the PCE (layerNr, extension flags, epConfig) up to the GA end.
        var left = gaSpecificEnd - copier.reader.position
        while left > 0 {
            let n = min(left, 16)
            copier.copy(n)
            left -= n
        }
        w = copier.writer
    }
}

/// The program_config_element (ISO/IEC 14496-3, 4.4.1.1) inside a GASpecificConfig.
enum ProgramConfigElement {
    /// Reads a PCE and returns its channel count. `configStart` is the bit offset of the config,
    /// which byte_alignment() is relative to.
    static func parse(_ r: inout ConfigBitReader, configStart: Int) throws(AudioSpecificConfig.ParseError) -> Int {
        _ = try r.bits(4 + 2 + 4)  // element_instance_tag, object_type, sampling_frequency_index
        let front = Int(try r.bits(4))
        let side = Int(try r.bits(4))
        let back = Int(try r.bits(4))
        let lfe = Int(try r.bits(2))
        let assoc = Int(try r.bits(3))
        let cc = Int(try r.bits(4))
        if try r.bits(1) == 1 { _ = try r.bits(4) }  // mono mixdown
        if try r.bits(1) == 1 { _ = try r.bits(4) }  // stereo mixdown
        if try r.bits(1) == 1 { _ = try r.bits(3) }  // matrix mixdown
        var channels = 0
        for _ in 0..<(front + side + back) {
            channels += try r.bits(1) == 1 ? 2 : 1
            _ = try r.bits(4)
        }
        channels += lfe
        _ = try r.bits(4 * lfe + 4 * assoc + 5 * cc)
        r.alignToByte(from: configStart)
        let commentBytes = Int(try r.bits(8))
        _ = try r.bits(8 * commentBytes)
        return channels
    }

    /// Copies a PCE bit for bit, redoing its byte alignment at the writer's position.
    static func copy(_ c: inout BitCopier) {
        c.copy(10)
        let front = Int(c.copy(4))
        let side = Int(c.copy(4))
        let back = Int(c.copy(4))
        let lfe = Int(c.copy(2))
        let assoc = Int(c.copy(3))
        let cc = Int(c.copy(4))
        if c.copy(1) == 1 { c.copy(4) }  // mono mixdown element
        if c.copy(1) == 1 { c.copy(4) }  // stereo mixdown element
        if c.copy(1) == 1 { c.copy(3) }  // matrix mixdown index, pseudo surround
        for _ in 0..<(front + side + back) { c.copy(5) }
        for _ in 0..<(lfe + assoc) { c.copy(4) }
        for _ in 0..<cc { c.copy(5) }
        c.reader.alignToByte(from: 0)
        c.writer.alignToByte()
        let comment = Int(c.copy(8))
        for _ in 0..<comment { c.copy(8) }
    }
}

/// Reads bits most significant first, with bounds checks.
struct ConfigBitReader {
    let bytes: [UInt8]
    private(set) var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count * 8 - position }

    /// Reads `count` bits (any count; values wider than 32 bits keep the low 32).
    mutating func bits(_ count: Int) throws(AudioSpecificConfig.ParseError) -> UInt32 {
        guard count >= 0, count <= remaining else {
            throw AudioSpecificConfig.ParseError(.malformed, "AudioSpecificConfig ends at bit \(bytes.count * 8) while reading bit \(position + count)")
        }
        let value = peek(count)
        position += count
        return value
    }

    /// Reads `count` bits, zeros for those past the end (for fields whose absence means 0).
    mutating func bitsOrZero(_ count: Int) -> UInt32 {
        let value = peek(count)
        position += count
        return value
    }

    /// The next `count` bits (zeros past the end) without consuming them.
    func peek(_ count: Int) -> UInt32 {
        var value: UInt32 = 0
        var p = position
        for _ in 0..<count {
            let byte = p >> 3
            let bit: UInt32 = byte < bytes.count ? UInt32(bytes[byte] >> (7 - UInt8(p & 7)) & 1) : 0
            value = value << 1 | bit
            p += 1
        }
        return value
    }

    mutating func skip(_ count: Int) { position += count }

    /// Moves to the next byte boundary counted from bit `start`.
    mutating func alignToByte(from start: Int) {
        let used = (position - start) & 7
        if used != 0 { position += 8 - used }
    }

    /// GetAudioObjectType(): 5 bits, 31 escapes to 32 + 6 bits.
    mutating func objectType() throws(AudioSpecificConfig.ParseError) -> Int {
        let type = Int(try bits(5))
        return type == 31 ? 32 + Int(try bits(6)) : type
    }

    /// A sampling frequency index and its rate (24 bits follow index 15).
    mutating func samplingFrequency() throws(AudioSpecificConfig.ParseError) -> (index: Int, rate: Int) {
        let index = Int(try bits(4))
        if index == 15 { return (15, Int(try bits(24))) }
        guard index < AudioSpecificConfig.samplingFrequencies.count else {
            throw AudioSpecificConfig.ParseError(.malformed, "reserved sampling frequency index \(index)")
        }
        return (index, AudioSpecificConfig.samplingFrequencies[index])
    }
}

/// Writes bits most significant first.
struct ConfigBitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: UInt32, _ count: Int) {
        guard count > 0 else { return }
        for i in stride(from: count - 1, through: 0, by: -1) {
            if bitCount & 7 == 0 { bytes.append(0) }
            if value >> UInt32(i) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount & 7) }
            bitCount += 1
        }
    }

    /// Writes the low `count` bits of `value`.
    mutating func write(_ value: Int, _ count: Int) { write(UInt32(truncatingIfNeeded: value), count) }

    mutating func writeObjectType(_ type: Int) {
        if type >= 32 {
            write(31, 5)
            write(UInt32(type - 32), 6)
        } else {
            write(UInt32(type), 5)
        }
    }

    mutating func alignToByte() {
        while bitCount & 7 != 0 { write(0, 1) }
    }
}

/// Copies bits from a reader to a writer, returning each copied field.
struct BitCopier {
    var reader: ConfigBitReader
    var writer: ConfigBitWriter

    @discardableResult
    mutating func copy(_ count: Int) -> UInt32 {
        let value = reader.peek(count)
        reader.skip(count)
        writer.write(value, count)
        return value
    }
}
