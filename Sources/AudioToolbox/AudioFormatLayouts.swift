import CAudioToolbox
import AudioCore

// Audio Format Services' channel layout answers: expanding a tag or a bitmap into channel
// descriptions, a tag's bitmap, channel counts, the tags for a channel count, and the names of
// layouts and channels. The layouts known are AudioCore's (the tags afinfo names).

enum FormatLayouts {
    typealias Tag = AudioCore.AudioChannelLayoutTag

    /// The predefined tags expanded here (every tag whose channels AudioCore knows), in Core
    /// Audio's numeric order.
    static let tags: [Tag] = AudioCore.AudioChannelLayout.knownLayoutTags

    /// The channel labels of `tag` in order: a predefined layout's, `Discrete_n` for
    /// DiscreteInOrder, `HOA_ACN_n` (SN3D) or `HOA_N3D | n` for the ambisonic tags, `Unknown` for
    /// the Unknown tag; `unsupportedData` for any other.
    static func labels(for tag: Tag) throws(FormatFailure) -> [AudioCore.AudioChannelLabel] {
        switch tag.rawValue >> 16 {
        case 147: return (0..<UInt16(tag.numberOfChannels)).map(AudioCore.AudioChannelLabel.discrete)
        case 190, 191:
            let kind: UInt32 = tag.rawValue >> 16 == 190 ? 2 : 3
            return (0..<tag.numberOfChannels).map { AudioCore.AudioChannelLabel(rawValue: kind << 16 | $0) }
        case 0xFFFF: return Array(repeating: .unknown, count: Int(tag.numberOfChannels))
        default:
            guard tag != .useChannelBitmap, tag != .useChannelDescriptions,
                  let labels = AudioCore.AudioChannelLayout(tag: tag).labels else { throw .unsupportedData }
            return labels
        }
    }

    /// A layout of channel descriptions (tag `UseChannelDescriptions`), as a Mac's
    /// ChannelLayoutForTag and ChannelLayoutForBitmap give it.
    static func expanded(_ labels: [AudioCore.AudioChannelLabel]) -> [UInt8] {
        AudioCore.AudioChannelLayout(tag: .useChannelDescriptions, descriptions: labels.map { AudioCore.AudioChannelDescription(label: $0) }).nativeBytes
    }

    /// `kAudioFormatProperty_ChannelLayoutForBitmap`; `unsupportedData` for an empty bitmap or
    /// bits past Top Back Right.
    static func layout(forBitmap bitmap: UInt32) throws(FormatFailure) -> [UInt8] {
        guard bitmap != 0, bitmap < 1 << 18 else { throw .unsupportedData }
        return expanded(AudioCore.AudioChannelBitmap(rawValue: bitmap).labels)
    }

    /// `kAudioFormatProperty_BitmapForLayoutTag`: the bits of the tag's channels; `unsupportedData`
    /// when a channel has no bit (Lt, Rt, rear surrounds, discrete channels).
    static func bitmap(for tag: Tag) throws(FormatFailure) -> UInt32 {
        var bitmap: UInt32 = 0
        for label in try labels(for: tag) {
            guard (1...18).contains(label.rawValue) else { throw .unsupportedData }
            bitmap |= 1 << (label.rawValue - 1)
        }
        return bitmap
    }

    /// `kAudioFormatProperty_TagForChannelLayout`: a predefined layout's own tag; for channel
    /// descriptions or a bitmap, the first predefined tag with the same channels in the same
    /// order; `unsupportedData` when there is none.
    static func tag(for layout: AudioCore.AudioChannelLayout) throws(FormatFailure) -> UInt32 {
        guard layout.tag == .useChannelDescriptions || layout.tag == .useChannelBitmap else { return layout.tag.rawValue }
        guard let labels = layout.labels, !labels.isEmpty,
              let match = tags.first(where: { (try? Self.labels(for: $0)) == labels }) else { throw .unsupportedData }
        return match.rawValue
    }

    /// `kAudioFormatProperty_TagsForNumberOfChannels`: the predefined tags of `count` channels,
    /// then DiscreteInOrder and Unknown of that count.
    static func tags(forChannels count: UInt32) -> [UInt32] {
        guard count > 0, count <= 0xFFFF else { return [] }
        return tags.filter { $0.numberOfChannels == count }.map(\.rawValue) + [147 << 16 | count, 0xFFFF_0000 | count]
    }

    /// A layout from a specifier: Apple's struct, whose 12-byte header and descriptions must
    /// fit in `size` bytes (`badSpecifierSize` otherwise).
    static func layout(from specifier: UnsafeRawPointer?, size: UInt32) throws(FormatFailure) -> AudioCore.AudioChannelLayout {
        guard let specifier, size >= 12,
              let layout = AudioCore.AudioChannelLayout(nativeBytes: UnsafeRawBufferPointer(start: specifier, count: Int(size)), maximumDescriptions: 4096)
        else { throw .badSpecifierSize }
        return layout
    }

    /// `kAudioFormatProperty_ChannelLayoutName` (`Stereo (L R)`, `5.1 (C L R Ls Rs LFE)`, as
    /// afinfo prints) or, `simple`, ChannelLayoutSimpleName (`Stereo`, `5.1`).
    static func name(of layout: AudioCore.AudioChannelLayout, simple: Bool) throws(FormatFailure) -> String {
        let name = layout.name
        guard !name.isEmpty, !name.hasPrefix("layout tag") else { throw .unsupportedData }
        guard simple, let open = name.firstRange(of: " (") else { return name }
        return String(name[..<open.lowerBound])
    }

    /// `kAudioFormatProperty_ChannelName`: `Left`, `Right`, `Center`, …; `Discrete 3`.
    static func channelName(_ label: AudioCore.AudioChannelLabel) throws(FormatFailure) -> String {
        if label.rawValue >> 16 == 1 { return "Discrete \(label.rawValue & 0xFFFF)" }
        guard let name = channelNames[label.rawValue] else { throw .unsupportedData }
        return name
    }

    /// `kAudioFormatProperty_ChannelShortName`: AudioCore's abbreviation (`L`, `Ls`, `LFE`).
    static func channelShortName(_ label: AudioCore.AudioChannelLabel) throws(FormatFailure) -> String {
        guard label.rawValue >> 16 == 1 || channelNames[label.rawValue] != nil else { throw .unsupportedData }
        return label.abbreviation
    }

    static let channelNames: [UInt32: String] = [
        1: "Left", 2: "Right", 3: "Center", 4: "LFE Screen", 5: "Left Surround", 6: "Right Surround",
        7: "Left Center", 8: "Right Center", 9: "Center Surround", 10: "Left Surround Direct", 11: "Right Surround Direct",
        12: "Top Center Surround", 13: "Vertical Height Left", 14: "Vertical Height Center", 15: "Vertical Height Right",
        16: "Top Back Left", 17: "Top Back Center", 18: "Top Back Right", 33: "Rear Surround Left", 34: "Rear Surround Right",
        35: "Left Wide", 36: "Right Wide", 37: "LFE 2", 38: "Left Total", 39: "Right Total", 40: "Hearing Impaired",
        41: "Narration", 42: "Mono", 43: "Dialog Centric Mix", 44: "Center Surround Direct", 45: "Haptic",
        49: "Left Top Middle", 51: "Right Top Middle", 52: "Left Top Rear", 53: "Center Top Rear", 54: "Right Top Rear",
        55: "Left Side Surround", 56: "Right Side Surround", 57: "Left Bottom", 58: "Right Bottom", 59: "Center Bottom",
        60: "Left Top Surround", 61: "Right Top Surround", 62: "LFE3", 63: "Left Back Surround", 64: "Right Back Surround",
        65: "Left Edge of Screen", 66: "Right Edge of Screen", 200: "Ambisonic W", 201: "Ambisonic X", 202: "Ambisonic Y",
        203: "Ambisonic Z", 204: "MS Mid", 205: "MS Side", 206: "XY X", 207: "XY Y", 208: "Binaural Left",
        209: "Binaural Right", 301: "Headphones Left", 302: "Headphones Right", 304: "Click Track", 305: "Foreign Language",
    ]
}
