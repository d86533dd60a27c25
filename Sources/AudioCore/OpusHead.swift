/// The Opus stream configuration: the `OpusHead` identification header of an Ogg Opus stream
/// (RFC 7845 §5.1) or, with the same fields in big-endian order, the body of an MPEG-4 `dOps`
/// box. It is the magic cookie of `'opus'` data: the readers of Ogg, CAF and MPEG-4 files give
/// it as an `OpusHead` packet, and the Opus decoder accepts either form.
///
/// Parsing checks every field a decoder relies on: a major version of 0, at least one channel,
/// mapping family 0 with one or two channels, family 1 with one to eight, family 255 with a
/// table; at least one stream, no more coupled streams than streams, at most 255 decoded
/// channels, and every mapping entry naming a decoded channel or 255 (silence).
public struct OpusHead: Hashable, Sendable {
    /// Why a header was refused.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the field.
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// The header's version byte (the upper four bits are the major version, which must be 0).
    public var version: UInt8
    /// Output channels.
    public var channelCount: Int
    /// Frames (at 48 kHz) to discard from the start of the decoded stream.
    public var preSkip: Int
    /// The encoder's input rate in Hz (informational; Opus always decodes at 48 kHz), 0 when unknown.
    public var inputSampleRate: Int
    /// Gain to apply to the output, in dB as a Q7.8 fixed-point number.
    public var outputGain: Int16
    /// The channel mapping family (0: mono or stereo; 1: Vorbis order, up to 8; 255: undefined).
    public var mappingFamily: Int
    /// Opus streams in each packet.
    public var streamCount: Int
    /// Streams of them that are coupled (stereo).
    public var coupledCount: Int
    /// For each output channel, the decoded channel it takes (255: silence).
    public var channelMapping: [UInt8]

    /// The largest header this type reads: 21 bytes and a 255-channel table.
    public static let maximumSize = 21 + 255

    /// The header of a family 0 stream (mono or stereo).
    public init(channelCount: Int, preSkip: Int, inputSampleRate: Int = 48000, outputGain: Int16 = 0) {
        version = 1
        self.channelCount = channelCount
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
        mappingFamily = 0
        streamCount = 1
        coupledCount = channelCount == 2 ? 1 : 0
        channelMapping = channelCount == 2 ? [0, 1] : [0]
    }

    /// True when `bytes` start with the `OpusHead` magic signature.
    public static func isPacket(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: Self.magic)
    }

    static let magic: [UInt8] = Array("OpusHead".utf8)

    /// Parses an `OpusHead` packet (little-endian fields after the magic signature).
    public init(packet bytes: [UInt8]) throws(FormatError) {
        guard Self.isPacket(bytes) else { throw FormatError("the packet does not start with 'OpusHead'") }
        guard bytes.count >= 19 else { throw FormatError("OpusHead is \(bytes.count) bytes; it needs at least 19") }
        try self.init(fields: bytes, at: 8, bigEndian: false)
    }

    /// Parses the body of a `dOps` box (ISO/IEC 14496-12 Opus mapping; big-endian fields).
    public init(dOps bytes: [UInt8]) throws(FormatError) {
        guard bytes.count >= 11 else { throw FormatError("dOps is \(bytes.count) bytes; it needs at least 11") }
        guard bytes[0] == 0 else { throw FormatError("dOps version \(bytes[0]) is not 0") }
        try self.init(fields: bytes, at: 0, bigEndian: true)
        version = 1
    }

    /// Parses a magic cookie: an `OpusHead` packet, else a `dOps` body (with or without its
    /// box header).
    public init(cookie bytes: [UInt8]) throws(FormatError) {
        if Self.isPacket(bytes) {
            try self.init(packet: bytes)
        } else if bytes.count >= 8, bytes[4] == 0x64, bytes[5] == 0x4F, bytes[6] == 0x70, bytes[7] == 0x73 {
            try self.init(dOps: Array(bytes[8...]))
        } else {
            try self.init(dOps: bytes)
        }
    }

    private init(fields b: [UInt8], at p: Int, bigEndian: Bool) throws(FormatError) {
        func u16(_ i: Int) -> Int { bigEndian ? Int(b[i]) << 8 | Int(b[i + 1]) : Int(b[i + 1]) << 8 | Int(b[i]) }
        func u32(_ i: Int) -> Int { bigEndian ? u16(i) << 16 | u16(i + 2) : u16(i + 2) << 16 | u16(i) }
        version = b[p]
        guard version >> 4 == 0 else { throw FormatError("OpusHead major version \(version >> 4) is not 0") }
        channelCount = Int(b[p + 1])
        preSkip = u16(p + 2)
        inputSampleRate = u32(p + 4)
        outputGain = Int16(truncatingIfNeeded: u16(p + 8))
        mappingFamily = Int(b[p + 10])
        guard channelCount > 0 else { throw FormatError("OpusHead channel count is 0") }
        if mappingFamily == 0 {
            guard channelCount <= 2 else {
                throw FormatError("channel mapping family 0 with \(channelCount) channels (1 or 2 allowed)")
            }
            streamCount = 1
            coupledCount = channelCount == 2 ? 1 : 0
            channelMapping = channelCount == 2 ? [0, 1] : [0]
            return
        }
        guard mappingFamily == 1 || mappingFamily == 255 else {
            throw FormatError("channel mapping family \(mappingFamily) is not supported (0, 1 and 255 are)")
        }
        guard mappingFamily != 1 || channelCount <= 8 else {
            throw FormatError("channel mapping family 1 with \(channelCount) channels (1 to 8 allowed)")
        }
        let tableEnd = p + 13 + channelCount
        guard b.count >= tableEnd else {
            throw FormatError("the channel mapping table needs \(tableEnd) bytes; the header has \(b.count)")
        }
        streamCount = Int(b[p + 11])
        coupledCount = Int(b[p + 12])
        guard streamCount > 0 else { throw FormatError("stream count is 0") }
        guard coupledCount <= streamCount else {
            throw FormatError("coupled stream count \(coupledCount) exceeds the stream count \(streamCount)")
        }
        let decoded = streamCount + coupledCount
        guard decoded <= 255 else { throw FormatError("streams and coupled streams make \(decoded) channels (255 allowed)") }
        channelMapping = Array(b[(p + 13)..<tableEnd])
        for (i, m) in channelMapping.enumerated() where m != 255 && Int(m) >= decoded {
            throw FormatError("channel mapping entry \(i) is \(m); the streams decode \(decoded) channels")
        }
    }

    /// The header as an `OpusHead` packet (what Ogg Opus files hold).
    public var packet: [UInt8] {
        var out = Self.magic
        out += [version, UInt8(truncatingIfNeeded: channelCount)]
        out += [UInt8(truncatingIfNeeded: preSkip), UInt8(truncatingIfNeeded: preSkip >> 8)]
        for s in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: inputSampleRate >> s)) }
        let gain = UInt16(bitPattern: outputGain)
        out += [UInt8(truncatingIfNeeded: gain), UInt8(truncatingIfNeeded: gain >> 8), UInt8(truncatingIfNeeded: mappingFamily)]
        if mappingFamily != 0 {
            out += [UInt8(truncatingIfNeeded: streamCount), UInt8(truncatingIfNeeded: coupledCount)] + channelMapping
        }
        return out
    }

    // MARK: Channel order

    /// For each output channel in Core Audio's (and WAVE's) order, the channel of the stream's
    /// Vorbis order it takes (RFC 7845 §5.1.1.2); identity for families 0 and 255.
    public var vorbisToCoreAudioOrder: [Int] {
        guard mappingFamily == 1 else { return Array(0..<channelCount) }
        return VorbisIdentification.coreAudioOrder(channels: channelCount)
    }

    /// The layout of the decoded channels (in ``vorbisToCoreAudioOrder``): mono or stereo for one
    /// or two channels, a channel bitmap (WAVE's order) for families 1 with 3 to 8; nil for
    /// family 255, whose channels have no defined meaning.
    public var channelLayout: AudioChannelLayout? {
        if mappingFamily == 255 { return nil }
        return AudioChannelLayout.waveOrder(channels: channelCount)
    }
}

/// The duration of Opus packets, from their table-of-contents byte (RFC 6716 §3.1).
public enum OpusPacket {
    /// Frames (at 48 kHz) in one Opus frame of configuration `config` (the TOC's upper 5 bits).
    static func framesPerOpusFrame(config: Int) -> Int {
        switch config {
        case 0..<12: [480, 960, 1920, 2880][config & 3]  // SILK: 10, 20, 40, 60 ms
        case 12..<16: [480, 960][config & 1]  // hybrid: 10, 20 ms
        default: [120, 240, 480, 960][config & 3]  // CELT: 2.5, 5, 10, 20 ms
        }
    }

    /// Frames (at 48 kHz) the packet decodes to, or nil when its TOC (and, for code 3, frame
    /// count byte) is missing or says more than 120 ms.
    public static func frameCount(_ packet: UnsafeRawBufferPointer) -> Int? {
        guard packet.count >= 1 else { return nil }
        let toc = Int(packet[0])
        let perFrame = framesPerOpusFrame(config: toc >> 3)
        let count: Int
        switch toc & 3 {
        case 0: count = 1
        case 1, 2: count = 2
        default:
            guard packet.count >= 2 else { return nil }
            count = Int(packet[1] & 0x3F)
        }
        let frames = perFrame * count
        guard count > 0, frames <= 5760 else { return nil }
        return frames
    }
}
