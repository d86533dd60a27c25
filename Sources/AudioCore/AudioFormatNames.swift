// The names people know audio formats by, for every message that names one: Apple's format IDs
// and the WAVE format tags (Microsoft's registered `wFormatTag` values), in one table each.

extension AudioFormatID {
    /// The name people know the format by: `AAC`, `Apple Lossless`, `GSM 6.10`, `Microsoft ADPCM`,
    /// `AC-3`, `DTS`; nil for an ID neither table knows. A WAVE format tag Apple gives an ID as
    /// `'ms'` and the tag (``waveFormatTag(_:)``) is named by ``WAVEFormatTag/name(_:)``.
    public var name: String? {
        if rawValue >> 16 == 0x6D73 { return WAVEFormatTag.name(UInt16(truncatingIfNeeded: rawValue)) }
        return Self.names[self]
    }

    /// What a message calls the format: its ``name``, else its four-character code in quotes
    /// (`'dtsx'`), or for a WAVE format tag no table names, `WAVE format 0x0161`; never a code
    /// with escaped bytes.
    public var displayName: String {
        if let name { return name }
        if rawValue >> 16 == 0x6D73 { return WAVEFormatTag.displayName(UInt16(truncatingIfNeeded: rawValue)) }
        if code.isPrintable { return "'\(code)'" }
        return "format 0x\(hex(UInt64(rawValue), digits: 8))"
    }

    /// How a message names the format: its ``displayName`` and the code that identifies it —
    /// `AC-3 ('ac-3')`, `GSM 6.10 (WAVE format 0x0031)` — or for a code no table names, the code
    /// alone (`'dtsx'`).
    public var messageName: String {
        guard let name else { return displayName }
        if rawValue >> 16 == 0x6D73 { return "\(name) (\(WAVEFormatTag.code(UInt16(truncatingIfNeeded: rawValue))))" }
        return code.isPrintable ? "\(name) ('\(code)')" : name
    }

    /// Apple's format IDs (and the sample entry codes of MPEG-4 and QuickTime files that name
    /// formats Apple has no ID for) by the names people know them by.
    static let names: [AudioFormatID: String] = {
        let table: [(FourCharCode, String)] = [
            ("lpcm", "linear PCM"), ("ac-3", "AC-3"), ("cac3", "AC-3"), ("ec-3", "E-AC-3"), ("ac-4", "AC-4"),
            ("ima4", "IMA 4:1 ADPCM"), ("aac ", "AAC"), ("aach", "HE-AAC"), ("aacp", "HE-AAC v2"),
            ("aacl", "AAC-LD"), ("aace", "AAC-ELD"), ("aacf", "AAC-ELD with SBR"), ("aacg", "AAC-ELD v2"),
            ("usac", "USAC"), ("aac1", "AAC"), ("mp4a", "MPEG-4 audio"),
            ("celp", "MPEG-4 CELP"), ("hvxc", "MPEG-4 HVXC"), ("twvq", "MPEG-4 TwinVQ"),
            ("MAC3", "MACE 3:1"), ("MAC6", "MACE 6:1"), ("ulaw", "µ-law"), ("alaw", "A-law"),
            ("QDMC", "QDesign Music"), ("QDM2", "QDesign Music 2"), ("Qclp", "Qualcomm PureVoice"),
            ("Qclq", "Qualcomm PureVoice"), (".mp1", "MPEG-1 Layer 1"), (".mp2", "MPEG-1 Layer 2"),
            (".mp3", "MP3"), ("alac", "Apple Lossless"), ("samr", "AMR"), ("sawb", "AMR-WB"),
            ("ilbc", "iLBC"), ("flac", "FLAC"), ("fLaC", "FLAC"), ("opus", "Opus"), ("Opus", "Opus"),
            ("vorb", "Vorbis"), ("agsm", "GSM 6.10"), ("dtsc", "DTS"), ("dtsh", "DTS-HD"),
            ("dtsl", "DTS-HD Master Audio"), ("dtse", "DTS Express"), ("dtsx", "DTS:X"), ("mlpa", "Dolby TrueHD"),
            ("sowt", "linear PCM"), ("twos", "linear PCM"), ("raw ", "linear PCM"), ("in24", "linear PCM"),
            ("in32", "linear PCM"), ("fl32", "linear PCM"), ("fl64", "linear PCM"), ("alas", "Apple Lossless"),
            ("spex", "Speex"), ("drms", "protected AAC"), ("enca", "encrypted audio"),
        ]
        var out: [AudioFormatID: String] = [:]
        for (code, name) in table { out[AudioFormatID(code)] = name }
        return out
    }()
}

/// WAVE format tags (`wFormatTag` of a `fmt ` chunk, or an extensible format's sub-format) by
/// name, as Microsoft registers them.
public enum WAVEFormatTag {
    /// The name of `tag`: `Microsoft ADPCM` for 0x0002, `GSM 6.10` for 0x0031, `AC-3` for
    /// 0x2000; nil for a tag the table does not list.
    public static func name(_ tag: UInt16) -> String? { names[tag] }

    /// ``name(_:)``, else ``code(_:)``: `WAVE format 0x0161`.
    public static func displayName(_ tag: UInt16) -> String { name(tag) ?? code(tag) }

    /// The tag as a number: `WAVE format 0x0031`.
    public static func code(_ tag: UInt16) -> String { "WAVE format 0x\(hex(UInt64(tag), digits: 4))" }

    static let names: [UInt16: String] = [
        0x0001: "linear PCM", 0x0002: "Microsoft ADPCM", 0x0003: "IEEE float", 0x0005: "IBM CVSD",
        0x0006: "A-law", 0x0007: "µ-law", 0x0008: "DTS", 0x000A: "Windows Media Audio Voice",
        0x0010: "OKI ADPCM", 0x0011: "IMA ADPCM", 0x0012: "MediaSpace ADPCM", 0x0013: "Sierra ADPCM",
        0x0014: "G.723 ADPCM", 0x0016: "ITU G.723 ADPCM", 0x0017: "Dialogic OKI ADPCM", 0x0020: "Yamaha ADPCM",
        0x0022: "DSP Group TrueSpeech", 0x0030: "Dolby AC-2", 0x0031: "GSM 6.10", 0x0040: "G.721 ADPCM",
        0x0042: "G.723.1", 0x0045: "G.726 ADPCM", 0x0050: "MPEG-1 Layer 2", 0x0055: "MP3",
        0x0061: "Duck DK4 ADPCM", 0x0062: "Duck DK3 ADPCM", 0x0064: "G.726 ADPCM", 0x0065: "G.722 ADPCM",
        0x0069: "Voxware", 0x0070: "Voxware", 0x0075: "Voxware RT29", 0x0092: "AC-3 (S/PDIF)",
        0x00FF: "AAC", 0x0130: "Sipro ACELP.net", 0x0160: "Windows Media Audio 1", 0x0161: "Windows Media Audio",
        0x0162: "Windows Media Audio Professional", 0x0163: "Windows Media Audio Lossless", 0x0200: "Creative ADPCM",
        0x0270: "ATRAC3", 0x0401: "Intel Music Coder", 0x1600: "AAC (ADTS)", 0x1602: "AAC (LATM)",
        0x1610: "HE-AAC", 0x2000: "AC-3", 0x2001: "DTS", 0x674F: "Vorbis", 0x6750: "Vorbis", 0x6751: "Vorbis",
        0x676F: "Vorbis", 0x6770: "Vorbis", 0x6771: "Vorbis", 0x704F: "Opus", 0xA109: "Speex", 0xF1AC: "FLAC",
        0xFFFE: "WAVE_FORMAT_EXTENSIBLE",
    ]
}
