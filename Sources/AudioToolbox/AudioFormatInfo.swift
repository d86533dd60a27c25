import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioCodecFAAD

// Audio Format Services' answers about stream descriptions: completing a partly filled
// description (kAudioFormatProperty_FormatInfo), the formats a magic cookie describes
// (FormatList, ASBDFromESDS, ChannelLayoutFromESDS), whether packets vary (FormatIsVBR,
// FormatIsExternallyFramed) and a format's name (FormatName).

/// An Audio Format Services result code thrown by the property answers.
struct FormatFailure: Error {
    let status: OSStatus
    static let unsupportedData = FormatFailure(status: OSStatus(kAudioFormatUnsupportedDataFormatError))
    static let unspecified = FormatFailure(status: OSStatus(kAudioFormatUnspecifiedError))
    static let badSpecifierSize = FormatFailure(status: OSStatus(kAudioFormatBadSpecifierSizeError))
    static let badPropertySize = FormatFailure(status: OSStatus(kAudioFormatBadPropertySizeError))
    static let unsupportedProperty = FormatFailure(status: OSStatus(kAudioFormatUnsupportedPropertyError))
}

enum FormatInfo {
    /// The AAC family, whose cookie is an ES descriptor (or a bare AudioSpecificConfig).
    static let aacFamily: Set<AudioCore.AudioFormatID> = [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD]

    /// `format` with the fields its format ID fixes filled in, as a Mac's FormatInfo fills them
    /// (fields the caller set are kept); with a cookie, the rate, channels and packet length
    /// come from it. `unsupportedData` for a format ID this library knows nothing of or a
    /// cookie it cannot read.
    static func complete(_ format: SwiftASBD, cookie: [UInt8]?) throws(FormatFailure) -> SwiftASBD {
        var f = format
        let channels = f.channelsPerFrame
        func fill(_ field: WritableKeyPath<SwiftASBD, UInt32>, _ value: UInt32) {
            if f[keyPath: field] == 0 { f[keyPath: field] = value }
        }
        /// A product of fields; `unsupportedData` when it does not fit a UInt32 (a description
        /// from untrusted input).
        func product(_ a: UInt32, _ b: UInt32) throws(FormatFailure) -> UInt32 {
            let (p, overflow) = a.multipliedReportingOverflow(by: b)
            guard !overflow else { throw .unsupportedData }
            return p
        }
        switch f.formatID {
        case .linearPCM:
            if f.bitsPerChannel > 0, channels > 0 {
                let word = f.bitsPerChannel / 8 + (f.bitsPerChannel % 8 == 0 ? 0 : 1)
                fill(\.bytesPerFrame, f.formatFlags.contains(.isNonInterleaved) ? word : try product(word, channels))
            }
            fill(\.framesPerPacket, 1)
            fill(\.bytesPerPacket, try product(f.bytesPerFrame, f.framesPerPacket))
        case .aLaw, .uLaw:
            fill(\.framesPerPacket, 1); fill(\.bytesPerFrame, channels); fill(\.bytesPerPacket, channels); fill(\.bitsPerChannel, 8)
        case .appleIMA4:
            fill(\.framesPerPacket, 64); fill(\.bytesPerPacket, try product(34, channels))
        case .mace3:
            fill(\.framesPerPacket, 6); fill(\.bytesPerPacket, try product(2, channels))
        case .mace6:
            fill(\.framesPerPacket, 6); fill(\.bytesPerPacket, channels)
        case .mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD:
            if let cookie { return try aacList(format, cookie: cookie).last!.format }
            fill(\.framesPerPacket, [.mpeg4AAC_HE, .mpeg4AAC_HE_V2].contains(f.formatID) ? 2048 : f.formatID == .mpeg4AAC ? 1024 : 512)
        case .appleLossless:
            if let cookie {
                guard let config = try? ALACSpecificConfig(magicCookie: cookie) else { throw .unsupportedData }
                f.sampleRate = Double(config.sampleRate)
                f.channelsPerFrame = UInt32(config.numChannels)
                f.framesPerPacket = config.frameLength
                let depths: [UInt8: UInt32] = [16: 1, 20: 2, 24: 3, 32: 4]
                f.formatFlags = AudioCore.AudioFormatFlags(rawValue: depths[config.bitDepth] ?? 0)
            }
            fill(\.framesPerPacket, 4096)
        case .mpegLayer1: fill(\.framesPerPacket, 384)
        case .mpegLayer2: fill(\.framesPerPacket, 1152)
        case .mpegLayer3: fill(\.framesPerPacket, f.sampleRate > 0 && f.sampleRate < 32000 ? 576 : 1152)
        case .ac3, .enhancedAC3: fill(\.framesPerPacket, 1536)
        case .opus: fill(\.framesPerPacket, 960)
        case .flac: break
        default: throw .unsupportedData
        }
        return f
    }

    /// The formats an AAC cookie describes, richest first (HE-AAC v2, HE-AAC, then the AAC
    /// core), each with its channel layout tag.
    static func aacList(_ format: SwiftASBD, cookie: [UInt8]) throws(FormatFailure) -> [(format: SwiftASBD, tag: UInt32)] {
        guard let bytes = try? AACMagicCookie.audioSpecificConfig(from: cookie), let config = try? AudioSpecificConfig(bytes: bytes),
              config.channelCount > 0 else { throw .unsupportedData }
        var core = format
        core.formatID = config.audioObjectType == 23 ? .mpeg4AAC_LD : config.audioObjectType == 39 ? .mpeg4AAC_ELD : .mpeg4AAC
        core.sampleRate = Double(config.samplingFrequency)
        core.channelsPerFrame = UInt32(config.channelCount)
        core.framesPerPacket = UInt32(config.coreFrameLength)
        core.bytesPerPacket = 0; core.bytesPerFrame = 0; core.bitsPerChannel = 0
        let coreTag = AudioCore.AudioChannelLayoutTag.aac(channelConfiguration: config.channelConfiguration)?.rawValue ?? unknownTag(core.channelsPerFrame)
        var list = [(format: core, tag: coreTag)]
        if config.sbr == .present, let rate = config.extensionSamplingFrequency {
            var he = core
            he.formatID = .mpeg4AAC_HE
            he.sampleRate = Double(rate)
            he.framesPerPacket = core.framesPerPacket * 2
            list.insert((he, coreTag), at: 0)
            if config.ps == .present, core.channelsPerFrame == 1 {
                var v2 = he
                v2.formatID = .mpeg4AAC_HE_V2
                v2.channelsPerFrame = 2
                list.insert((v2, AudioCore.AudioChannelLayoutTag.stereo.rawValue), at: 0)
            }
        }
        return list
    }

    /// `kAudioFormatProperty_FormatList`: the AAC cookie's formats, or the completed format alone.
    static func formatList(_ format: SwiftASBD, cookie: [UInt8]?) throws(FormatFailure) -> [(format: SwiftASBD, tag: UInt32)] {
        if let cookie, aacFamily.contains(format.formatID) { return try aacList(format, cookie: cookie) }
        let f = try complete(format, cookie: cookie)
        let tag: UInt32 = switch f.channelsPerFrame {
        case 1: AudioCore.AudioChannelLayoutTag.mono.rawValue
        case 2: AudioCore.AudioChannelLayoutTag.stereo.rawValue
        default: unknownTag(f.channelsPerFrame)
        }
        return [(f, tag)]
    }

    /// `kAudioChannelLayoutTag_Unknown` with a channel count.
    static func unknownTag(_ channels: UInt32) -> UInt32 { 0xFFFF_0000 | (channels & 0xFFFF) }

    /// `kAudioFormatProperty_ASBDFromESDS`: the AAC core an ES descriptor describes, its audio
    /// object type in `mFormatFlags`.
    static func fromESDS(_ esds: [UInt8]) throws(FormatFailure) -> (format: SwiftASBD, tag: UInt32) {
        guard let bytes = try? AACMagicCookie.audioSpecificConfig(from: esds), let config = try? AudioSpecificConfig(bytes: bytes) else {
            throw .unsupportedData
        }
        let base = SwiftASBD(
            sampleRate: 0, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
            channelsPerFrame: 0, bitsPerChannel: 0)
        var item = try aacList(base, cookie: esds).last!
        item.format.formatFlags = AudioCore.AudioFormatFlags(rawValue: UInt32(config.audioObjectType))
        return item
    }

    /// `kAudioFormatProperty_FormatIsVBR`: packets of the (completed) format vary in size.
    static func isVBR(_ format: SwiftASBD) -> Bool {
        ((try? complete(format, cookie: nil)) ?? format).bytesPerPacket == 0
    }

    /// `kAudioFormatProperty_FormatIsExternallyFramed`: packets need packet descriptions
    /// (their size or their frame count varies).
    static func isExternallyFramed(_ format: SwiftASBD) -> Bool {
        let f = (try? complete(format, cookie: nil)) ?? format
        return f.bytesPerPacket == 0 || f.framesPerPacket == 0
    }

    /// Names of the formats this library knows.
    static let names: [AudioCore.AudioFormatID: String] = [
        .linearPCM: "Linear PCM", .mpeg4AAC: "AAC", .mpeg4AAC_HE: "HE-AAC", .mpeg4AAC_HE_V2: "HE-AAC v2",
        .mpeg4AAC_LD: "AAC-LD", .mpeg4AAC_ELD: "AAC-ELD", .appleIMA4: "Apple IMA 4:1", .uLaw: "µLaw 2:1", .aLaw: "aLaw 2:1",
        .appleLossless: "Apple Lossless", .mpegLayer1: "MPEG Layer 1", .mpegLayer2: "MPEG Layer 2", .mpegLayer3: "MPEG Layer 3",
        .ac3: "AC-3", .enhancedAC3: "Enhanced AC-3", .flac: "FLAC", .opus: "Opus", .mace3: "MACE 3:1", .mace6: "MACE 6:1",
    ]

    /// `kAudioFormatProperty_FormatName`: `AAC, 2 channels, 44100 Hz`; linear PCM names its
    /// samples (`Linear PCM, 16 bit little-endian signed integer, 2 channels, 44100 Hz`). Fields
    /// left 0 are left out. `unsupportedData` for a format ID with no name here.
    static func name(_ format: SwiftASBD) throws(FormatFailure) -> String {
        guard let base = names[format.formatID] else { throw .unsupportedData }
        var parts = [base]
        if format.formatID == .linearPCM, format.bitsPerChannel > 0 {
            let endian = format.formatFlags.contains(.isBigEndian) ? "big-endian" : "little-endian"
            let kind = format.formatFlags.contains(.isFloat) ? "float"
                : format.formatFlags.contains(.isSignedInteger) ? "signed integer" : "unsigned integer"
            let interleaving = format.formatFlags.contains(.isNonInterleaved) ? ", deinterleaved" : ""
            parts.append("\(format.bitsPerChannel) bit \(endian) \(kind)\(interleaving)")
        }
        if format.channelsPerFrame > 0 {
            parts.append(format.channelsPerFrame == 1 ? "1 channel" : "\(format.channelsPerFrame) channels")
        }
        if format.sampleRate.isFinite, format.sampleRate > 0 {
            let rate = format.sampleRate
            parts.append(rate == rate.rounded() && rate < 1e9 ? "\(Int(rate)) Hz" : "\(rate) Hz")
        }
        return parts.joined(separator: ", ")
    }

    /// `kAudioFormatProperty_DecodeFormatIDs` / `EncodeFormatIDs`: what the codec registries
    /// hold, after the package's codecs are registered.
    static func formatIDs(encode: Bool) -> [UInt32] {
        AudioToolboxSetUp.once()
        return (encode ? AudioEncoders.formatIDs : AudioDecoders.formatIDs).map(\.rawValue)
    }
}
