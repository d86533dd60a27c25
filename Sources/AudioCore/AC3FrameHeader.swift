/// The header of one AC-3 or E-AC-3 syncframe (ETSI TS 102 366: `syncinfo()` and the start of
/// `bsi()`, 4.3 for AC-3 and E.1.2 for Enhanced AC-3): what a reader needs to find frames, group
/// them into packets and describe the stream.
///
/// A frame starts with the sync word 0x0B77. The bitstream identification (`bsid`, bits 40–44 in
/// both syntaxes) tells them apart: 0–8 is AC-3 (9 and 10, the half- and quarter-rate AC-3 that
/// decoders also take, are read too), 11–16 Enhanced AC-3; other values are refused.
public struct AC3FrameHeader: Hashable, Sendable {
    /// E-AC-3 stream types (`strmtyp`).
    public enum StreamType: Int, Sendable {
        /// An independent substream (type 0), or any AC-3 frame.
        case independent = 0
        /// A dependent substream (type 1): more channels for the independent substream before it.
        case dependent = 1
        /// An independent substream converted from AC-3 (type 2).
        case converted = 2
    }

    /// Bitstream identification: 0–10 AC-3, 11–16 E-AC-3.
    public var bsid: Int
    /// The stream type; ``StreamType/independent`` for AC-3.
    public var streamType: StreamType
    /// The substream ID (0–7); 0 for AC-3.
    public var substreamID: Int
    /// Bytes of the whole frame, sync word included.
    public var frameSize: Int
    /// The sampling rate in hertz.
    public var sampleRate: Int
    /// The sample rate code (`fscod`, 0–3; 3 in E-AC-3 means a reduced rate given by `fscod2`).
    public var fscod: Int
    /// Audio blocks of 256 frames in the frame: 6 for AC-3; 1, 2, 3 or 6 for E-AC-3.
    public var blocks: Int
    /// The audio coding mode (0: 1+1, 1: 1/0, 2: 2/0, 3: 3/0, 4: 2/1, 5: 3/1, 6: 2/2, 7: 3/2).
    public var acmod: Int
    /// True when the frame carries the low-frequency effects channel.
    public var lfeOn: Bool
    /// The bitstream mode (`bsmod`, AC-3 only; 0 for E-AC-3, whose `bsmod` is optional metadata).
    public var bsmod: Int
    /// The frame size code (`frmsizecod`, AC-3 only; 0 for E-AC-3).
    public var frameSizeCode: Int
    /// A dependent substream's custom channel map (`chanmap`, ETSI TS 102 366 Table E.1.4), nil
    /// where the frame has none.
    public var channelMap: UInt16?

    /// True for Enhanced AC-3 (`bsid` 11–16).
    public var isEnhanced: Bool { bsid > 10 }
    /// Frames (samples per channel) the syncframe decodes to: 256 per block.
    public var frameCount: Int { 256 * blocks }
    /// Full-bandwidth channels of the audio coding mode.
    public var fullBandwidthChannels: Int { Self.channelsByMode[acmod] }
    /// Channels of this frame: the full-bandwidth channels and the LFE channel.
    public var channels: Int { fullBandwidthChannels + (lfeOn ? 1 : 0) }
    /// The AC-3 bit rate in kbit/s (from `frmsizecod`); for E-AC-3, the rate the frame size implies.
    public var bitRate: Int {
        isEnhanced ? frameSize * 8 * sampleRate / (frameCount * 1000) : Self.bitRates[frameSizeCode >> 1]
    }

    /// Full-bandwidth channels by audio coding mode.
    public static let channelsByMode = [2, 1, 2, 3, 3, 4, 4, 5]
    /// AC-3 bit rates in kbit/s by `frmsizecod >> 1`.
    public static let bitRates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]
    /// Sampling rates by `fscod` (0–2).
    public static let sampleRates = [48000, 44100, 32000]
    /// E-AC-3 reduced rates by `fscod2` (0–2).
    public static let reducedSampleRates = [24000, 22050, 16000]
    /// The most bytes a syncframe can take: E-AC-3's 2048 16-bit words.
    public static let maximumFrameSize = 4096
    /// Bytes a header needs to be parsed (the channel map of a dependent substream included).
    public static let parsedLength = 16

    /// True when `bytes` start with the sync word at `p`.
    public static func hasSync<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ p: Int) -> Bool where Bytes.Index == Int {
        p >= bytes.startIndex && p + 2 <= bytes.endIndex && bytes[p] == 0x0B && bytes[p + 1] == 0x77
    }

    /// AC-3 frame bytes for a `frmsizecod` (0–37) at a sampling rate code (0–2): 16-bit words
    /// of 1536 frames at the code's bit rate (rounded down at 44.1 kHz, where odd codes add a word).
    public static func ac3FrameSize(frameSizeCode: Int, fscod: Int) -> Int? {
        guard (0..<38).contains(frameSizeCode), (0..<3).contains(fscod) else { return nil }
        let rate = sampleRates[fscod]
        let words = bitRates[frameSizeCode >> 1] * 1000 * 96 / rate + (fscod == 1 ? frameSizeCode & 1 : 0)
        return 2 * words
    }

    /// Parses the header at `p` (``parsedLength`` bytes are enough; fewer where the frame's
    /// fields end sooner); nil without the sync word, with a `bsid` of neither syntax, or with
    /// reserved or impossible fields (a reserved rate or frame size code, a stream type of 3).
    public init?<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ p: Int) where Bytes.Index == Int {
        guard Self.hasSync(bytes, p), p + 6 <= bytes.endIndex else { return nil }
        var bits = HeaderBits(bytes, from: p + 2)
        // bsid sits at bits 40–44 of both syntaxes.
        let bsid = Int(bytes[p + 5] >> 3)
        self.bsid = bsid
        channelMap = nil
        if bsid <= 10 {
            streamType = .independent
            substreamID = 0
            _ = bits.read(16)  // crc1
            fscod = Int(bits.read(2))
            frameSizeCode = Int(bits.read(6))
            guard let size = Self.ac3FrameSize(frameSizeCode: frameSizeCode, fscod: fscod) else { return nil }
            frameSize = size
            // bsid 9 and 10: half and quarter rate.
            sampleRate = Self.sampleRates[fscod] >> max(0, bsid - 8)
            blocks = 6
            _ = bits.read(5)  // bsid
            bsmod = Int(bits.read(3))
            acmod = Int(bits.read(3))
            if acmod & 1 != 0 && acmod != 1 { _ = bits.read(2) }  // cmixlev
            if acmod & 4 != 0 { _ = bits.read(2) }  // surmixlev
            if acmod == 2 { _ = bits.read(2) }  // dsurmod
            lfeOn = bits.read(1) == 1
        } else if bsid <= 16 {
            guard let type = StreamType(rawValue: Int(bits.read(2))) else { return nil }
            streamType = type
            substreamID = Int(bits.read(3))
            frameSize = 2 * (Int(bits.read(11)) + 1)
            fscod = Int(bits.read(2))
            if fscod == 3 {
                let fscod2 = Int(bits.read(2))
                guard fscod2 < 3 else { return nil }
                sampleRate = Self.reducedSampleRates[fscod2]
                blocks = 6
            } else {
                sampleRate = Self.sampleRates[fscod]
                blocks = [1, 2, 3, 6][Int(bits.read(2))]
            }
            acmod = Int(bits.read(3))
            lfeOn = bits.read(1) == 1
            _ = bits.read(5)  // bsid
            bsmod = 0
            frameSizeCode = 0
            _ = bits.read(5)  // dialnorm
            if bits.read(1) == 1 { _ = bits.read(8) }  // compre, compr
            if acmod == 0 {
                _ = bits.read(5)  // dialnorm2
                if bits.read(1) == 1 { _ = bits.read(8) }  // compr2e, compr2
            }
            if type == .dependent, bits.read(1) == 1 { channelMap = UInt16(bits.read(16)) }
            guard frameSize >= 6 else { return nil }
        } else {
            return nil
        }
        guard !bits.overrun else { return nil }
    }

    /// True when `other` can follow this frame in the same stream: the same syntax and rate (the
    /// channels may change, as a broadcast's do between programmes).
    public func sameStream(as other: AC3FrameHeader) -> Bool {
        isEnhanced == other.isEnhanced && sampleRate == other.sampleRate
    }
}

/// Reads the bits of a header, most significant first; reads past the end give zeros and set
/// ``overrun``.
struct HeaderBits<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    let bytes: Bytes
    var position: Int
    private(set) var overrun = false

    init(_ bytes: Bytes, from byte: Int) {
        self.bytes = bytes
        position = byte * 8
    }

    mutating func read(_ count: Int) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = position >> 3
            var bit: UInt32 = 0
            if byte >= bytes.startIndex && byte < bytes.endIndex {
                bit = UInt32(bytes[byte] >> (7 - UInt8(position & 7)) & 1)
            } else {
                overrun = true
            }
            value = value << 1 | bit
            position += 1
        }
        return value
    }
}
