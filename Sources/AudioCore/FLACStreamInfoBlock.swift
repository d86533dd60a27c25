/// A FLAC STREAMINFO metadata block (the FLAC format specification, RFC 9639 §8.2): the 34
/// bytes that describe a stream, and the magic cookie that carries them.
public struct FLACStreamInfoBlock: Hashable, Sendable {
    /// Smallest block (frames per FLAC frame), the last block not counted.
    public var minimumBlockSize: Int
    /// Largest block.
    public var maximumBlockSize: Int
    /// Smallest frame in bytes; 0 when not known.
    public var minimumFrameSize: Int
    /// Largest frame in bytes; 0 when not known.
    public var maximumFrameSize: Int
    /// Sample rate in Hz (1 to 1048575).
    public var sampleRate: Int
    /// Channels, 1 to 8.
    public var channels: Int
    /// Bits per sample, 4 to 32.
    public var bitsPerSample: Int
    /// Frames in the stream; 0 when not known.
    public var totalSamples: Int64
    /// The MD5 of the decoded samples (little-endian, each in the fewest whole bytes); all
    /// zeros when not computed.
    public var md5: [UInt8]

    /// The block's 34 bytes, big-endian as the specification lays them out.
    public var bytes: [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(34)
        func put(_ value: UInt64, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { b.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        }
        put(UInt64(minimumBlockSize), 2)
        put(UInt64(maximumBlockSize), 2)
        put(UInt64(minimumFrameSize), 3)
        put(UInt64(maximumFrameSize), 3)
        let packed = UInt64(sampleRate & 0xF_FFFF) << 44 | UInt64((channels - 1) & 7) << 41
            | UInt64((bitsPerSample - 1) & 31) << 36 | UInt64(totalSamples) & 0xF_FFFF_FFFF
        put(packed, 8)
        b += md5.count == 16 ? md5 : [UInt8](repeating: 0, count: 16)
        return b
    }

    /// The STREAMINFO in `bytes`, its 34 bytes from `offset`; nil when fewer are there.
    public init?(_ bytes: [UInt8], at offset: Int = 0) {
        guard offset >= 0, bytes.count - offset >= 34 else { return nil }
        func get(_ at: Int, _ count: Int) -> UInt64 {
            bytes[(offset + at)..<(offset + at + count)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        minimumBlockSize = Int(get(0, 2))
        maximumBlockSize = Int(get(2, 2))
        minimumFrameSize = Int(get(4, 3))
        maximumFrameSize = Int(get(7, 3))
        let packed = get(10, 8)
        sampleRate = Int(packed >> 44)
        channels = Int(packed >> 41 & 7) + 1
        bitsPerSample = Int(packed >> 36 & 31) + 1
        totalSamples = Int64(packed & 0xF_FFFF_FFFF)
        md5 = Array(bytes[(offset + 18)..<(offset + 34)])
    }

    /// A STREAMINFO of the given fields.
    public init(
        minimumBlockSize: Int, maximumBlockSize: Int, minimumFrameSize: Int = 0, maximumFrameSize: Int = 0, sampleRate: Int,
        channels: Int, bitsPerSample: Int, totalSamples: Int64 = 0, md5: [UInt8] = [UInt8](repeating: 0, count: 16)
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

    /// The body of an ISO BMFF `dfLa` box ("Encapsulation of FLAC in ISO Base Media File
    /// Format"), as an MPEG-4 `fLaC` sample entry holds it: version 0 and flags 0 (4 bytes),
    /// then the STREAMINFO block's header (the last-block flag, type 0, length 34) and its 34
    /// bytes. 42 bytes.
    public var dfLaBody: [UInt8] {
        [0, 0, 0, 0, 0x80, 0, 0, 34] + bytes
    }

    /// The magic cookie of FLAC (`kAudioFilePropertyMagicCookieData`, a CAF `kuki` chunk): the
    /// whole `dfLa` box, its size (50) and type before ``dfLaBody``, as Apple's FLAC encoder
    /// gives it (ffmpeg's CAF reader, written against Apple's files, reads it so). 50 bytes.
    public var magicCookie: [UInt8] {
        [0, 0, 0, 50] + Array("dfLa".utf8) + dfLaBody
    }

    /// The STREAMINFO in a FLAC magic cookie: a `dfLa` box (Apple's cookie), its body (version
    /// and flags, then metadata blocks, STREAMINFO first), the metadata blocks alone, or a
    /// native stream's start (`fLaC` and the blocks); nil when none of these holds one.
    public init?(cookie: [UInt8]) {
        var p = 0
        if cookie.count >= 8, Array(cookie[4..<8]) == Array("dfLa".utf8) { p = 8 }
        if cookie.count - p >= 4, Array(cookie[p..<(p + 4)]) == Array("fLaC".utf8) {
            p += 4
        } else if cookie.count - p >= 4, cookie[p..<(p + 4)].allSatisfy({ $0 == 0 }) {
            p += 4  // version and flags (a block header's length, 34, is never 0)
        }
        guard cookie.count - p >= 38, cookie[p] & 0x7F == 0,
              Int(cookie[p + 1]) << 16 | Int(cookie[p + 2]) << 8 | Int(cookie[p + 3]) == 34 else { return nil }
        self.init(cookie, at: p + 4)
    }
}

/// The `AudioStreamBasicDescription` Apple gives FLAC (`'flac'`): 4096 frames per packet of
/// varying size, and the source's bit depth in the format flags as Apple Lossless has it.
public enum FLACDataFormat {
    /// Frames per packet (one FLAC frame) Apple's encoder writes and this package's does.
    public static let framesPerPacket = 4096

    /// The format flag for a source bit depth (`kAppleLosslessFormatFlag_16BitSourceData` 1,
    /// `_20BitSourceData` 2, `_24BitSourceData` 3, `_32BitSourceData` 4); 0 for other depths.
    public static func formatFlag(bitDepth: Int) -> UInt32 {
        switch bitDepth {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
    }

    /// The bit depth a FLAC description names: its `bitsPerChannel` when set, else the depth
    /// its format flags give; nil when neither does.
    public static func bitDepth(of format: AudioStreamBasicDescription) -> Int? {
        if format.bitsPerChannel > 0 { return Int(format.bitsPerChannel) }
        switch format.formatFlags.rawValue {
        case 1: return 16
        case 2: return 20
        case 3: return 24
        case 4: return 32
        default: return nil
        }
    }

    /// The description of FLAC of `bitDepth`-bit samples: flags for the depths that have one
    /// (bits per channel 0, as Apple's), else no flags and the depth in `bitsPerChannel`.
    public static func description(
        sampleRate: Double, channels: UInt32, bitDepth: Int, framesPerPacket: Int = framesPerPacket
    ) -> AudioStreamBasicDescription {
        let flag = formatFlag(bitDepth: bitDepth)
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .flac, formatFlags: AudioFormatFlags(rawValue: flag), bytesPerPacket: 0,
            framesPerPacket: UInt32(framesPerPacket), bytesPerFrame: 0, channelsPerFrame: channels,
            bitsPerChannel: flag == 0 ? UInt32(bitDepth) : 0)
    }
}
