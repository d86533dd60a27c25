public import AudioCore
public import AudioFileServices

/// Apple's afconvert data format names: `LEI16`, `BEI24`, `LEF32`, `BEF64`, `UI8`, `I8`, and the
/// four-character codes `ima4`, `ulaw`, `alaw`, `aac`, `alac`, `flac`, `opus`, each optionally
/// followed by `@RATE` (`LEI16@48000`, `aac@44100`), then as Apple's afconvert takes them
/// `/FLAGS` (the description's format flags, decimal or `0x` hex: `flac/3` is FLAC from a
/// 24-bit source) and `#FRAMES` (frames per packet).
public struct DataFormatSpecifier: Equatable, Sendable {
    /// What the name says, before a rate and channel count are known.
    public enum Kind: Equatable, Sendable {
        case pcm(bits: UInt32, isFloat: Bool, isBigEndian: Bool, isSigned: Bool)
        case ima4
        case uLaw
        case aLaw
        /// A codec whose encoder fills in the packet sizes (`aac`, `alac`, `flac`, `opus`).
        case codec(AudioFormatID)
    }

    public let kind: Kind
    /// The rate after `@`, if given.
    public let sampleRate: Double?
    /// The format flags after `/`, if given (codecs only).
    public let formatFlags: UInt32?
    /// The frames per packet after `#`, if given (codecs only).
    public let framesPerPacket: UInt32?

    /// Parses `text`; nil when it is not a name this accepts.
    public init?(_ text: String) {
        var name = Substring(text)
        var frames: UInt32?
        if let hash = name.firstIndex(of: "#") {
            guard let n = UInt32(name[name.index(after: hash)...]), n > 0 else { return nil }
            frames = n
            name = name[..<hash]
        }
        var flags: UInt32?
        if let slash = name.firstIndex(of: "/") {
            let value = name[name.index(after: slash)...]
            guard let f = value.hasPrefix("0x") ? UInt32(value.dropFirst(2), radix: 16) : UInt32(value) else { return nil }
            flags = f
            name = name[..<slash]
        }
        var rate: Double?
        if let at = name.firstIndex(of: "@") {
            guard let r = Double(name[name.index(after: at)...]), r >= 1, r <= 1_536_000, r.rounded() == r else { return nil }
            rate = r
            name = name[..<at]
        }
        sampleRate = rate
        formatFlags = flags
        framesPerPacket = frames
        switch name {
        case "ima4": kind = .ima4
        case "ulaw": kind = .uLaw
        case "alaw": kind = .aLaw
        case "aac", "aac ": kind = .codec(.mpeg4AAC)
        case "alac": kind = .codec(.appleLossless)
        case "flac": kind = .codec(AudioFormatID(rawValue: 0x666C_6163))
        case "opus": kind = .codec(AudioFormatID(rawValue: 0x6F70_7573))
        case "UI8", "ui8": kind = .pcm(bits: 8, isFloat: false, isBigEndian: false, isSigned: false)
        case "I8", "i8": kind = .pcm(bits: 8, isFloat: false, isBigEndian: false, isSigned: true)
        default:
            let upper = Array(name.uppercased())
            guard upper.count >= 5 else { return nil }
            let big: Bool
            switch String(upper[0..<2]) {
            case "LE": big = false
            case "BE": big = true
            default: return nil
            }
            let isFloat: Bool
            switch upper[2] {
            case "I": isFloat = false
            case "F": isFloat = true
            default: return nil
            }
            guard let bits = UInt32(String(upper[3...])) else { return nil }
            if isFloat {
                guard bits == 32 || bits == 64 else { return nil }
            } else {
                guard [8, 16, 24, 32].contains(bits) else { return nil }
            }
            kind = .pcm(bits: bits, isFloat: isFloat, isBigEndian: big, isSigned: true)
        }
    }

    /// The complete description for `channels` at `rate` (the specifier's own rate wins).
    public func format(sampleRate rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        let r = sampleRate ?? rate
        switch kind {
        case .pcm(let bits, let isFloat, let big, let signed):
            return .linearPCM(sampleRate: r, channels: channels, bitsPerChannel: bits, isFloat: isFloat, isBigEndian: big, isSigned: signed)
        case .ima4:
            return AudioStreamBasicDescription(
                sampleRate: r, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: 34 * channels, framesPerPacket: 64,
                bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        case .codec(let id):
            return AudioStreamBasicDescription(
                sampleRate: r, formatID: id, formatFlags: AudioFormatFlags(rawValue: formatFlags ?? 0), bytesPerPacket: 0,
                framesPerPacket: framesPerPacket ?? 0,
                bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        case .uLaw, .aLaw:
            return AudioStreamBasicDescription(
                sampleRate: r, formatID: kind == .uLaw ? .uLaw : .aLaw, formatFlags: [], bytesPerPacket: channels,
                framesPerPacket: 1, bytesPerFrame: channels, channelsPerFrame: channels, bitsPerChannel: 8)
        }
    }
}

/// Apple's file type names as afconvert's `-f` and aqrecord's take them (`WAVE`, `caff`, `AIFF`,
/// `AIFC`, `m4af`, `adts`, `mp4f`, `flac`, …: the codes of the types the package writes), and
/// the type a path's extension suggests, from the container formats' descriptors
/// (`AudioFileFormats.fileTypes`).
public enum FileTypeName {
    /// The types the package writes, in the descriptors' order.
    static let writable = AudioFileFormats.fileTypes.filter { !$0.writableFormats.isEmpty }

    /// The written type `name` names (any letter case): its four-character code, else an
    /// extension of it (the first type listing it: `aif` is AIFF, `aac` ADTS); nil for none.
    public static func type(_ name: String) -> AudioFileType? {
        let lower = name.lowercased()
        return (writable.first { $0.type.description.lowercased() == lower } ?? writable.first { $0.extensions.contains(lower) })?.type
    }

    /// The types whose default data format is AAC (MPEG-4 and ADTS: AAC first among the
    /// formats they hold).
    public static func holdsAAC(_ type: AudioFileType) -> Bool {
        writable.first { $0.type == type }?.writableFormats.first == .mpeg4AAC
    }

    /// The type the extension of `path` suggests; nil for an extension none has.
    public static func type(forPath path: String) -> AudioFileType? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return type(String(path[path.index(after: dot)...]))
    }
}
