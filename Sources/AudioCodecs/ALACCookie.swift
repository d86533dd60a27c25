public import AudioCore

/// Apple Lossless's magic cookie: the 24-byte `ALACSpecificConfig` of Apple's ALAC
/// specification, all fields big-endian.
///
/// | bytes | field | meaning |
/// |---|---|---|
/// | 0–3 | ``frameLength`` | frames in a full packet (4096 from Apple's encoder and ffmpeg) |
/// | 4 | ``compatibleVersion`` | 0; a decoder refuses newer versions |
/// | 5 | ``bitDepth`` | 16, 20, 24 or 32 |
/// | 6 | ``pb`` | Rice history multiplier (40) |
/// | 7 | ``mb`` | Rice initial history (10) |
/// | 8 | ``kb`` | Rice parameter limit (14) |
/// | 9 | ``numChannels`` | 1…8 |
/// | 10–11 | ``maxRun`` | 255; unused by decoding |
/// | 12–15 | ``maxFrameBytes`` | largest packet in bytes, 0 when unknown |
/// | 16–19 | ``avgBitRate`` | bits per second, 0 when unknown |
/// | 20–23 | ``sampleRate`` | frames per second |
///
/// Containers store it bare (CAF from Apple's encoder), inside a 36-byte `'alac'` atom (size,
/// `'alac'`, version and flags, then the config: the MPEG-4 sample entry's child), or as that
/// atom preceded by a 12-byte `'frma'` atom naming `'alac'` (CAF from ffmpeg and older
/// QuickTime); a `'chan'` atom and a terminator may follow. ``init(magicCookie:)`` reads all
/// of them, as Apple's decoder does.
public struct ALACSpecificConfig: Hashable, Sendable {
    /// Frames in every packet but the last (which says its own count in its frame header).
    public var frameLength: UInt32
    /// Format version; only 0 exists.
    public var compatibleVersion: UInt8
    /// Bits per source sample: 16, 20, 24 or 32.
    public var bitDepth: UInt8
    /// Rice history multiplier (`pb`); each channel's header scales it by a factor of 0…7 / 4.
    public var pb: UInt8
    /// Rice initial history (`mb`): the mean each channel's adaptive Rice coder starts from.
    public var mb: UInt8
    /// Rice parameter limit (`kb`): the largest Rice parameter *k*.
    public var kb: UInt8
    /// Channels: 1…8, in ALAC's element order (see ``ALACDecoder``).
    public var numChannels: UInt8
    /// Longest run of zeros the encoder codes in one go; decoding does not need it.
    public var maxRun: UInt16
    /// The largest packet in bytes, 0 when the encoder did not say.
    public var maxFrameBytes: UInt32
    /// The average bit rate, 0 when the encoder did not say.
    public var avgBitRate: UInt32
    /// Frames per second.
    public var sampleRate: UInt32

    /// Size of the bare config in bytes.
    public static let byteCount = 24
    /// The largest ``frameLength`` this package decodes (Apple's encoder writes 4096; the
    /// limit bounds the memory a decoder allocates from a cookie).
    public static let maximumFrameLength: UInt32 = 1 << 16

    /// A config with Apple's encoder defaults for everything not given.
    public init(
        frameLength: UInt32 = 4096, compatibleVersion: UInt8 = 0, bitDepth: UInt8, pb: UInt8 = 40, mb: UInt8 = 10,
        kb: UInt8 = 14, numChannels: UInt8, maxRun: UInt16 = 255, maxFrameBytes: UInt32 = 0, avgBitRate: UInt32 = 0,
        sampleRate: UInt32
    ) {
        self.frameLength = frameLength
        self.compatibleVersion = compatibleVersion
        self.bitDepth = bitDepth
        self.pb = pb
        self.mb = mb
        self.kb = kb
        self.numChannels = numChannels
        self.maxRun = maxRun
        self.maxFrameBytes = maxFrameBytes
        self.avgBitRate = avgBitRate
        self.sampleRate = sampleRate
    }

    /// Reads the config from a magic cookie in any of its forms (bare, in an `'alac'` atom,
    /// after a `'frma'` atom; trailing atoms ignored) and checks it with ``validate()``.
    /// `formatNotSupported` for a cookie shorter than the config or with values this decoder
    /// cannot use.
    public init(magicCookie bytes: [UInt8]) throws(AudioCodecError) {
        var start = 0
        func atom(at offset: Int, is type: String) -> Bool {
            guard offset + 8 <= bytes.count else { return false }
            return Array(bytes[offset + 4..<offset + 8]) == Array(type.utf8)
        }
        if atom(at: start, is: "frma") { start += 12 }
        if atom(at: start, is: "alac") { start += 12 }
        guard start + Self.byteCount <= bytes.count else {
            throw AudioCodecError(.formatNotSupported, "an ALAC magic cookie of \(bytes.count) bytes holds no ALACSpecificConfig")
        }
        func u32(_ at: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[start + at + $1]) }
        }
        self.init(
            frameLength: u32(0), compatibleVersion: bytes[start + 4], bitDepth: bytes[start + 5], pb: bytes[start + 6],
            mb: bytes[start + 7], kb: bytes[start + 8], numChannels: bytes[start + 9],
            maxRun: UInt16(bytes[start + 10]) << 8 | UInt16(bytes[start + 11]), maxFrameBytes: u32(12),
            avgBitRate: u32(16), sampleRate: u32(20))
        try validate()
    }

    /// The 24 bytes of the bare config, big-endian.
    public var bytes: [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return be(frameLength) + [compatibleVersion, bitDepth, pb, mb, kb, numChannels, UInt8(maxRun >> 8), UInt8(maxRun & 0xFF)]
            + be(maxFrameBytes) + be(avgBitRate) + be(sampleRate)
    }

    /// Checks what decoding relies on: version 0, a bit depth of 16, 20, 24 or 32, 1…8
    /// channels, a frame length of 1…``maximumFrameLength`` and a Rice limit of at least 1.
    /// Throws `formatNotSupported` naming the field otherwise.
    public func validate() throws(AudioCodecError) {
        guard compatibleVersion == 0 else {
            throw AudioCodecError(.formatNotSupported, "ALAC compatible version \(compatibleVersion); only 0 is known")
        }
        guard [16, 20, 24, 32].contains(bitDepth) else {
            throw AudioCodecError(.formatNotSupported, "ALAC bit depth \(bitDepth); 16, 20, 24 or 32 are defined")
        }
        guard (1...8).contains(numChannels) else {
            throw AudioCodecError(.formatNotSupported, "ALAC with \(numChannels) channels; 1 to 8 are defined")
        }
        guard (1...Self.maximumFrameLength).contains(frameLength) else {
            throw AudioCodecError(.formatNotSupported, "ALAC frame length \(frameLength); 1 to \(Self.maximumFrameLength) are decoded")
        }
        guard kb > 0 else {
            throw AudioCodecError(.formatNotSupported, "ALAC Rice limit (kb) 0")
        }
    }
}

extension ALACSpecificConfig {
    /// `kAppleLosslessFormatFlag_16BitSourceData` … `_32BitSourceData`: the format flags of an
    /// `'alac'` stream description, 1…4 for 16, 20, 24 and 32 bits.
    public static func bitDepth(formatFlags: AudioFormatFlags) -> UInt8? {
        switch formatFlags.rawValue {
        case 1: 16
        case 2: 20
        case 3: 24
        case 4: 32
        default: nil
        }
    }
}
