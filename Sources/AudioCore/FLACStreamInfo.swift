/// FLAC's STREAMINFO metadata block (RFC 9639 §8.2): what every FLAC stream declares before its
/// first frame, and what a FLAC magic cookie carries.
///
/// The file reader, the stream parser and the decoder share it: the reader finds it in a `.flac`
/// file's metadata, MPEG-4's `dfLa` box or a CAF `kuki` chunk, the decoder is configured by it.
public struct FLACStreamInfo: Sendable, Hashable {
    /// The STREAMINFO block's body size in bytes.
    public static let size = 34

    /// The smallest block size (frames per FLAC frame) in the stream, last frame excepted.
    public var minimumBlockSize: Int
    /// The largest block size in the stream.
    public var maximumBlockSize: Int
    /// The smallest frame in bytes; 0 when unknown.
    public var minimumFrameSize: Int
    /// The largest frame in bytes; 0 when unknown.
    public var maximumFrameSize: Int
    /// Samples per second (1 … 1,048,575; 0 is not a valid stream).
    public var sampleRate: Int
    /// Channels, 1 … 8.
    public var channels: Int
    /// Bits per sample, 4 … 32.
    public var bitsPerSample: Int
    /// Frames (samples per channel) in the stream; 0 when unknown.
    public var totalSamples: Int64
    /// The MD5 signature of the unencoded audio (all zero when unknown).
    public var md5: [UInt8]

    /// A STREAMINFO with the given fields.
    public init(
        minimumBlockSize: Int, maximumBlockSize: Int, minimumFrameSize: Int = 0, maximumFrameSize: Int = 0,
        sampleRate: Int, channels: Int, bitsPerSample: Int, totalSamples: Int64 = 0,
        md5: [UInt8] = [UInt8](repeating: 0, count: 16)
    ) {
        self.minimumBlockSize = minimumBlockSize
        self.maximumBlockSize = maximumBlockSize
        self.minimumFrameSize = minimumFrameSize
        self.maximumFrameSize = maximumFrameSize
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalSamples = totalSamples
        self.md5 = md5
    }

    /// Parses a 34-byte STREAMINFO body; nil when `body` is shorter.
    ///
    /// The fields are taken as they are; ``problem`` says whether they make a decodable stream.
    public init?(body: some Collection<UInt8>) {
        let b = Array(body.prefix(Self.size))
        guard b.count == Self.size else { return nil }
        func be(_ i: Int, _ n: Int) -> Int { (i..<(i + n)).reduce(0) { $0 << 8 | Int(b[$1]) } }
        minimumBlockSize = be(0, 2)
        maximumBlockSize = be(2, 2)
        minimumFrameSize = be(4, 3)
        maximumFrameSize = be(7, 3)
        let packed = be(10, 8)  // rate 20 bits, channels-1 3, bps-1 5, total samples 36
        sampleRate = packed >> 44 & 0xF_FFFF  // the packed word's top bit is the rate's: no sign
        channels = (packed >> 41 & 0x7) + 1
        bitsPerSample = (packed >> 36 & 0x1F) + 1
        totalSamples = Int64(packed & 0xF_FFFF_FFFF)
        md5 = Array(b[18..<34])
    }

    /// What makes this STREAMINFO unusable for decoding, in words; nil when it is usable.
    public var problem: String? {
        if sampleRate <= 0 { return "sample rate is \(sampleRate)" }
        if bitsPerSample < 4 { return "\(bitsPerSample) bits per sample" }
        if minimumBlockSize < 16 && !(minimumBlockSize == maximumBlockSize && minimumBlockSize > 0) && minimumBlockSize != 0 {
            return "minimum block size \(minimumBlockSize) is below 16"
        }
        if maximumBlockSize < 16 || maximumBlockSize < minimumBlockSize {
            return "block sizes \(minimumBlockSize)…\(maximumBlockSize)"
        }
        return nil
    }

    /// The 34-byte body.
    public var body: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        func put(_ value: Int, _ n: Int) { for i in stride(from: n - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        put(minimumBlockSize, 2)
        put(maximumBlockSize, 2)
        put(minimumFrameSize, 3)
        put(maximumFrameSize, 3)
        let packed = (sampleRate & 0xF_FFFF) << 44 | ((channels - 1) & 7) << 41 | ((bitsPerSample - 1) & 0x1F) << 36
            | Int(totalSamples & 0xF_FFFF_FFFF)
        put(packed, 8)
        out += md5.count == 16 ? md5 : [UInt8](repeating: 0, count: 16)
        return out
    }

    /// The body of an ISO BMFF `dfLa` box ("Encapsulation of FLAC in ISO Base Media File
    /// Format"), as an MPEG-4 `fLaC` sample entry holds it: version 0 and flags 0 (4 bytes), then
    /// the STREAMINFO block's header (the last-block flag, type 0, length 34) and its 34 bytes.
    /// 42 bytes.
    public var dfLaBody: [UInt8] { [0, 0, 0, 0, 0x80, 0, 0, UInt8(Self.size)] + body }

    /// The magic cookie Apple keeps for `'flac'` (`kAudioFilePropertyMagicCookieData`, a CAF
    /// file's `kuki` chunk): the whole `dfLa` box — size 50 and `'dfLa'` before ``dfLaBody`` —
    /// as Apple's FLAC encoder gives it and ffmpeg's CAF reader expects it of Apple's files.
    public var magicCookie: [UInt8] { [0, 0, 0, UInt8(8 + 42)] + Array("dfLa".utf8) + dfLaBody }

    /// Finds the STREAMINFO in a FLAC magic cookie. Accepted forms:
    /// - a whole `dfLa` box (size, `'dfLa'`, version and flags, then metadata blocks) — Apple's
    ///   cookie in CAF files;
    /// - the `dfLa` box's contents (version and flags 0, then metadata blocks);
    /// - `'fLaC'` and metadata blocks (the start of a `.flac` file);
    /// - the metadata blocks alone;
    /// - a bare 34-byte STREAMINFO body (ffmpeg's extradata).
    ///
    /// The first metadata block must be STREAMINFO with a length of at least 34. Returns nil for
    /// anything else.
    public init?(magicCookie cookie: [UInt8]) {
        var blocks: ArraySlice<UInt8>
        if cookie.count >= 8, cookie[4...7].elementsEqual("dfLa".utf8) {
            guard cookie.count >= 12, cookie[8] == 0 else { return nil }
            blocks = cookie[12...]
        } else if cookie.count >= 4, cookie[0...3].elementsEqual("fLaC".utf8) {
            blocks = cookie[4...]
        } else if cookie.count == Self.size {
            self.init(body: cookie)
            return
        } else if cookie.count >= 4, cookie[0...3].allSatisfy({ $0 == 0 }) {
            blocks = cookie[4...]  // version and flags (a block header's length is never 0)
        } else if cookie.count >= 4 + Self.size, cookie[0] & 0x7F == 0 {
            blocks = cookie[...]  // the metadata blocks alone
        } else {
            return nil
        }
        guard blocks.count >= 4 + Self.size, blocks[blocks.startIndex] & 0x7F == 0 else { return nil }
        let s = blocks.startIndex
        let length = Int(blocks[s + 1]) << 16 | Int(blocks[s + 2]) << 8 | Int(blocks[s + 3])
        guard length >= Self.size else { return nil }
        self.init(body: blocks[(s + 4)...])
    }

    /// The frames (samples per channel) a FLAC frame's block size code means, or nil for the
    /// reserved code 0 and the codes 6 and 7, whose size follows the header.
    public static func blockSize(code: Int) -> Int? {
        switch code {
        case 1: 192
        case 2...5: 576 << (code - 2)
        case 8...15: 256 << (code - 8)
        default: nil
        }
    }
}
