/// The configuration of a Vorbis I stream: its three header packets (identification, comment
/// and setup, Vorbis I specification §4.2) and what readers need of them without decoding —
/// channels, rate, bit rates, the two block sizes and, from the setup header, which modes use
/// the long block, so that every audio packet's duration is known from its first byte
/// (``VorbisPacketDurations``).
///
/// It is the magic cookie of `'vorb'` data (``cookie``), in the form Matroska's and WebM's
/// `CodecPrivate` and ffmpeg's extradata use: a byte holding 2 (packets less one), the sizes of
/// the first two packets in Xiph lacing (255s then the remainder), then the three packets. The
/// readers shorten the comment header to an empty one: the decoder needs none of the comments,
/// which the file's info dictionary gives. ``init(cookie:)`` also takes the three packets each
/// after a 16-bit size, little- or big-endian.
public struct VorbisHeaders: Hashable, Sendable {
    /// Why a header or cookie was refused.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the header or field.
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// The identification header packet (30 bytes).
    public var identification: [UInt8]
    /// The comment header packet.
    public var comment: [UInt8]
    /// The setup header packet (codebooks, floors, residues, mappings and modes).
    public var setup: [UInt8]
    /// What the identification header says.
    public let info: VorbisIdentification
    /// For each mode of the setup header, true when it uses the long block.
    public let modeUsesLongBlock: [Bool]

    /// Parses the three packets; throws what is wrong with them.
    public init(identification: [UInt8], comment: [UInt8], setup: [UInt8]) throws(FormatError) {
        info = try VorbisIdentification(packet: identification)
        guard Self.isHeader(comment, type: 3) else { throw FormatError("the second Vorbis header is not a comment header") }
        modeUsesLongBlock = try Self.modes(setup: setup)
        self.identification = identification
        self.comment = comment
        self.setup = setup
    }

    /// Parses a magic cookie: the Xiph-laced form (``cookie``) or the three packets each after
    /// a 16-bit size (little- or big-endian).
    public init(cookie: [UInt8]) throws(FormatError) {
        guard let packets = Self.split(cookie) else {
            throw FormatError("the Vorbis magic cookie holds neither laced nor sized header packets")
        }
        try self.init(identification: packets[0], comment: packets[1], setup: packets[2])
    }

    /// The comment header of no vendor string and no comments.
    public static let emptyComment: [UInt8] = [3] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]

    /// The magic cookie: 2, the first two packets' sizes in Xiph lacing, the three packets.
    public var cookie: [UInt8] {
        var out: [UInt8] = [2]
        for size in [identification.count, comment.count] {
            out += [UInt8](repeating: 255, count: size / 255) + [UInt8(size % 255)]
        }
        return out + identification + comment + setup
    }

    /// True when `packet` starts with the header type byte `type` and `vorbis`.
    public static func isHeader(_ packet: some Collection<UInt8>, type: UInt8) -> Bool {
        packet.starts(with: [type] + Array("vorbis".utf8))
    }

    /// The three packets of a cookie in either form; nil when it is neither.
    static func split(_ b: [UInt8]) -> [[UInt8]]? {
        // Sized: 30 (the identification header's size) in 16 bits, then the header itself.
        if b.count >= 32, isHeader(b[2...], type: 1), (b[0] == 30 && b[1] == 0) || (b[0] == 0 && b[1] == 30) {
            let bigEndian = b[0] == 0
            var out: [[UInt8]] = []
            var i = 0
            for _ in 0..<3 {
                guard i + 2 <= b.count else { return nil }
                let size = bigEndian ? Int(b[i]) << 8 | Int(b[i + 1]) : Int(b[i]) | Int(b[i + 1]) << 8
                i += 2
                guard size <= b.count - i else { return nil }
                out.append(Array(b[i..<(i + size)]))
                i += size
            }
            return out
        }
        // Laced.
        guard b.count > 3, b[0] == 2 else { return nil }
        var i = 1
        var sizes: [Int] = []
        for _ in 0..<2 {
            var size = 0
            while true {
                guard i < b.count else { return nil }
                let byte = Int(b[i])
                i += 1
                size += byte
                if byte < 255 { break }
            }
            sizes.append(size)
        }
        guard sizes[0] <= b.count - i, sizes[1] <= b.count - i - sizes[0] else { return nil }
        let second = i + sizes[0], third = second + sizes[1]
        return [Array(b[i..<second]), Array(b[second..<third]), Array(b[third...])]
    }

    /// The modes' block flags, read from the end of the setup header backward (the modes are its
    /// last fields, before the framing bit: §4.2.4.6): each mode is a block flag, a window type
    /// and a transform type of 16 bits (both 0 in Vorbis I) and a mapping number of 8 bits
    /// (below 64), after a 6-bit mode count less one. Walking back, every count of modes whose
    /// fields are valid and whose count field agrees is a candidate; the largest is taken, as
    /// demuxers that do not decode the codebooks do.
    static func modes(setup: [UInt8]) throws(FormatError) -> [Bool] {
        guard setup.count > 7, isHeader(setup, type: 5) else { throw FormatError("the third Vorbis header is not a setup header") }
        func bit(_ i: Int) -> Int { Int(setup[i >> 3] >> UInt8(i & 7)) & 1 }
        func field(_ start: Int, _ bits: Int) -> Int {
            var value = 0
            for k in 0..<bits { value |= bit(start + k) << k }
            return value
        }
        // The framing bit: the last bit set (past trailing zero bytes a byte at a time).
        guard let lastByte = setup.lastIndex(where: { $0 != 0 }), lastByte >= 7 else {
            throw FormatError("the Vorbis setup header has no framing bit")
        }
        var framing = lastByte * 8 + 7
        while bit(framing) == 0 { framing -= 1 }
        var count = 0, found = 0
        var start = framing
        while count < 64 && start - 41 - 6 >= 56 {
            let mode = start - 41
            guard field(mode + 1, 16) == 0, field(mode + 17, 16) == 0, field(mode + 33, 8) < 64 else { break }
            count += 1
            start = mode
            if field(start - 6, 6) + 1 == count { found = count }
        }
        guard found > 0 else { throw FormatError("the Vorbis setup header ends in no valid modes") }
        return (0..<found).map { bit(framing - 41 * (found - $0)) == 1 }
    }
}

/// The Vorbis identification header (Vorbis I specification §4.2.2).
public struct VorbisIdentification: Hashable, Sendable {
    /// Audio channels (1 or more).
    public let channelCount: Int
    /// Sample rate in Hz.
    public let sampleRate: Int
    /// The bit rates the encoder declared (0 or negative: unset).
    public let maximumBitRate: Int32, nominalBitRate: Int32, minimumBitRate: Int32
    /// The short and long block sizes: powers of two from 64 to 8192, short ≤ long.
    public let shortBlockSize: Int, longBlockSize: Int

    /// Parses the 30-byte packet; throws what is wrong with it.
    public init(packet b: [UInt8]) throws(VorbisHeaders.FormatError) {
        guard b.count >= 30, VorbisHeaders.isHeader(b, type: 1) else {
            throw VorbisHeaders.FormatError("the Vorbis identification header is missing or shorter than 30 bytes")
        }
        func u32(_ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24 }
        guard u32(7) == 0 else { throw VorbisHeaders.FormatError("Vorbis version \(u32(7)) (only 0 is Vorbis I)") }
        channelCount = Int(b[11])
        sampleRate = Int(u32(12))
        guard channelCount > 0 else { throw VorbisHeaders.FormatError("a Vorbis stream of 0 channels") }
        guard sampleRate > 0 else { throw VorbisHeaders.FormatError("a Vorbis stream at 0 Hz") }
        maximumBitRate = Int32(bitPattern: u32(16))
        nominalBitRate = Int32(bitPattern: u32(20))
        minimumBitRate = Int32(bitPattern: u32(24))
        let short = Int(b[28] & 15), long = Int(b[28] >> 4)
        guard (6...13).contains(short), (6...13).contains(long), short <= long else {
            throw VorbisHeaders.FormatError("Vorbis block sizes 2^\(short) and 2^\(long) (64 to 8192, short ≤ long)")
        }
        shortBlockSize = 1 << short
        longBlockSize = 1 << long
        guard b[29] & 1 == 1 else { throw VorbisHeaders.FormatError("the Vorbis identification header's framing bit is 0") }
    }

    /// For each output channel in Core Audio's (and WAVE's) order, the channel of the stream's
    /// Vorbis order (§4.3.9) it takes: L C R → L R C, and so on up to 8 channels; identity for
    /// 1, 2, 4 and more than 8 (whose order the application defines).
    public static func coreAudioOrder(channels: Int) -> [Int] {
        switch channels {
        case 3: [0, 2, 1]  // L C R → L R C
        case 5: [0, 2, 1, 3, 4]  // L C R Ls Rs → L R C Ls Rs
        case 6: [0, 2, 1, 5, 3, 4]  // L C R Ls Rs LFE → L R C LFE Ls Rs
        case 7: [0, 2, 1, 6, 5, 3, 4]  // L C R Ls Rs Cs LFE → L R C LFE Cs Ls Rs
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]  // L C R Ls Rs Rls Rrs LFE → L R C LFE Rls Rrs Ls Rs
        default: Array(0..<channels)
        }
    }

    /// The layout of the channels in ``coreAudioOrder(channels:)``: mono, stereo or a WAVE-order
    /// bitmap for up to 8 channels; nil for more.
    public var channelLayout: AudioChannelLayout? { AudioChannelLayout.waveOrder(channels: channelCount) }
}

/// The durations of a Vorbis stream's audio packets, in order (§4.3.1, §4.3.8): a packet's mode
/// (its first bits after the packet type) gives its block size, and it completes a quarter of
/// the block before it and a quarter of its own. The first packet, which has no block before
/// it, is counted as a quarter of its own block (what a decoder outputs for it is silence, and
/// readers count those frames as priming).
public struct VorbisPacketDurations: Sendable {
    let shortBlockSize: Int, longBlockSize: Int
    let modeUsesLongBlock: [Bool]
    let modeBits: Int
    /// The block size of the packet before, nil before the first.
    public private(set) var previousBlockSize: Int?

    /// Durations for the stream `headers` configure.
    public init(_ headers: VorbisHeaders) {
        shortBlockSize = headers.info.shortBlockSize
        longBlockSize = headers.info.longBlockSize
        modeUsesLongBlock = headers.modeUsesLongBlock
        var bits = 0
        while (1 << bits) < modeUsesLongBlock.count { bits += 1 }
        modeBits = bits
    }

    /// The block size of the audio packet whose first byte is `first`; nil for a header packet
    /// or a mode the setup header does not have.
    public func blockSize(first: UInt8) -> Int? {
        guard first & 1 == 0 else { return nil }
        let mode = Int(first >> 1) & ((1 << modeBits) - 1)
        guard mode < modeUsesLongBlock.count else { return nil }
        return modeUsesLongBlock[mode] ? longBlockSize : shortBlockSize
    }

    /// The frames of the next audio packet, whose first byte is `first`; nil (and nothing
    /// changed) when ``blockSize(first:)`` is.
    public mutating func frames(first: UInt8) -> Int? {
        guard let size = blockSize(first: first) else { return nil }
        defer { previousBlockSize = size }
        guard let previousBlockSize else { return size / 4 }
        return previousBlockSize / 4 + size / 4
    }

    /// Forgets the packet before, as at the start of a stream.
    public mutating func reset() { previousBlockSize = nil }
}
