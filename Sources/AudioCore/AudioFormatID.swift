/// Identifies an audio data format, as Core Audio's `AudioFormatID` does: a four-character code.
public struct AudioFormatID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The format whose four-character code is `code`.
    public init(_ code: FourCharCode) { rawValue = code.rawValue }

    /// The four-character code of this format.
    public var code: FourCharCode { FourCharCode(rawValue: rawValue) }
    public var description: String { code.description }

    /// Uncompressed linear PCM (`'lpcm'`).
    public static let linearPCM = AudioFormatID("lpcm")
    /// AC-3 (`'ac-3'`).
    public static let ac3 = AudioFormatID("ac-3")
    /// Enhanced AC-3 (`'ec-3'`).
    public static let enhancedAC3 = AudioFormatID("ec-3")
    /// AC-3 packaged for transport over an IEC 60958 digital audio interface (`'cac3'`).
    public static let ac3_60958 = AudioFormatID("cac3")
    /// Apple IMA 4:1 ADPCM (`'ima4'`): 34-byte packets of 64 frames per channel.
    public static let appleIMA4 = AudioFormatID("ima4")
    /// MPEG-4 AAC (`'aac '`); the format flags carry the MPEG-4 audio object type.
    public static let mpeg4AAC = AudioFormatID("aac ")
    /// MPEG-4 HE-AAC (`'aach'`).
    public static let mpeg4AAC_HE = AudioFormatID("aach")
    /// MPEG-4 HE-AAC v2 (`'aacp'`).
    public static let mpeg4AAC_HE_V2 = AudioFormatID("aacp")
    /// MPEG-4 AAC Low Delay (`'aacl'`).
    public static let mpeg4AAC_LD = AudioFormatID("aacl")
    /// MPEG-4 AAC Enhanced Low Delay (`'aace'`).
    public static let mpeg4AAC_ELD = AudioFormatID("aace")
    /// MACE 3:1 (`'MAC3'`).
    public static let mace3 = AudioFormatID("MAC3")
    /// MACE 6:1 (`'MAC6'`).
    public static let mace6 = AudioFormatID("MAC6")
    /// ITU-T G.711 µ-law (`'ulaw'`).
    public static let uLaw = AudioFormatID("ulaw")
    /// ITU-T G.711 A-law (`'alaw'`).
    public static let aLaw = AudioFormatID("alaw")
    /// QDesign (`'QDMC'`).
    public static let qDesign = AudioFormatID("QDMC")
    /// QDesign 2 (`'QDM2'`).
    public static let qDesign2 = AudioFormatID("QDM2")
    /// QUALCOMM PureVoice (`'Qclp'`).
    public static let qualcomm = AudioFormatID("Qclp")
    /// MPEG-1/2 Layer I (`'.mp1'`).
    public static let mpegLayer1 = AudioFormatID(".mp1")
    /// MPEG-1/2 Layer II (`'.mp2'`).
    public static let mpegLayer2 = AudioFormatID(".mp2")
    /// MPEG-1/2 Layer III (`'.mp3'`).
    public static let mpegLayer3 = AudioFormatID(".mp3")
    /// Apple Lossless (`'alac'`).
    public static let appleLossless = AudioFormatID("alac")
    /// AMR narrow band (`'samr'`).
    public static let amr = AudioFormatID("samr")
    /// iLBC (`'ilbc'`).
    public static let iLBC = AudioFormatID("ilbc")
    /// FLAC (`'flac'`).
    public static let flac = AudioFormatID("flac")
    /// Opus (`'opus'`).
    public static let opus = AudioFormatID("opus")
    /// Vorbis (`'vorb'`: the ID Apple's AudioToolbox decodes Vorbis under; it declares no
    /// constant for it).
    public static let vorbis = AudioFormatID("vorb")
    /// Microsoft/DVI IMA ADPCM in WAVE (`0x6D730011`).
    public static let dviIntelIMA = AudioFormatID(rawValue: 0x6D73_0011)
    /// Microsoft GSM 6.10 in WAVE (`0x6D730031`).
    public static let microsoftGSM = AudioFormatID(rawValue: 0x6D73_0031)

    /// The ID Apple gives a WAVE format tag it has no name for: `'ms'` followed by the tag.
    public static func waveFormatTag(_ tag: UInt16) -> AudioFormatID {
        AudioFormatID(rawValue: 0x6D73_0000 | UInt32(tag))
    }
}

/// Flags of an ``AudioStreamBasicDescription``; for linear PCM they say how samples are stored.
public struct AudioFormatFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Samples are IEEE floating point (`kAudioFormatFlagIsFloat`).
    public static let isFloat = AudioFormatFlags(rawValue: 1 << 0)
    /// Samples are big-endian (`kAudioFormatFlagIsBigEndian`).
    public static let isBigEndian = AudioFormatFlags(rawValue: 1 << 1)
    /// Integer samples are signed (`kAudioFormatFlagIsSignedInteger`).
    public static let isSignedInteger = AudioFormatFlags(rawValue: 1 << 2)
    /// Samples fill their bytes completely (`kAudioFormatFlagIsPacked`).
    public static let isPacked = AudioFormatFlags(rawValue: 1 << 3)
    /// Unpacked samples sit in the high bits of their word (`kAudioFormatFlagIsAlignedHigh`).
    public static let isAlignedHigh = AudioFormatFlags(rawValue: 1 << 4)
    /// Each channel is in its own buffer (`kAudioFormatFlagIsNonInterleaved`).
    public static let isNonInterleaved = AudioFormatFlags(rawValue: 1 << 5)
    /// The stream is not mixable (`kAudioFormatFlagIsNonMixable`).
    public static let isNonMixable = AudioFormatFlags(rawValue: 1 << 6)

    /// Shift of the fixed-point fraction bit count (`kLinearPCMFormatFlagsSampleFractionShift`).
    public static let sampleFractionShift: UInt32 = 7
    /// Mask of the fixed-point fraction bit count (`kLinearPCMFormatFlagsSampleFractionMask`).
    public static let sampleFractionMask = AudioFormatFlags(rawValue: 0x3F << 7)

    /// Packed native-endian (little-endian here) float (`kAudioFormatFlagsNativeFloatPacked`).
    public static let nativeFloatPacked: AudioFormatFlags = [.isFloat, .isPacked]
    /// Packed native-endian signed integer (`kAudioFormatFlagsCanonical` for 16-bit).
    public static let nativeSignedIntegerPacked: AudioFormatFlags = [.isSignedInteger, .isPacked]
}

/// Constants of MPEG-4 audio (ISO/IEC 14496-3) that containers and codecs share.
public enum MPEG4Audio {
    /// Sampling rates by sampling frequency index (ISO/IEC 14496-3, Table 1.18); index 15 means
    /// the rate is given explicitly.
    public static let samplingFrequencies: [Int] = [
        96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
    ]
}

/// MPEG-4 audio object types, carried in the format flags of AAC formats (`kMPEG4Object_…`).
public enum MPEG4ObjectID: UInt32, Sendable {
    /// AAC Main.
    case aacMain = 1
    /// AAC Low Complexity.
    case aacLC = 2
    /// AAC Scalable Sample Rate.
    case aacSSR = 3
    /// AAC Long Term Prediction.
    case aacLTP = 4
    /// Spectral Band Replication (HE-AAC).
    case aacSBR = 5
    /// AAC Scalable.
    case aacScalable = 6
    /// TwinVQ.
    case twinVQ = 7
    /// CELP.
    case celp = 8
    /// HVXC.
    case hvxc = 9
}
