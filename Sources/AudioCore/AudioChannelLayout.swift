/// Identifies a channel layout (Core Audio's `AudioChannelLayoutTag`). The low 16 bits of a
/// predefined tag are its channel count.
public struct AudioChannelLayoutTag: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    private static func tag(_ index: UInt32, _ channels: UInt32) -> AudioChannelLayoutTag {
        AudioChannelLayoutTag(rawValue: index << 16 | channels)
    }

    /// The layout is given by the channel descriptions.
    public static let useChannelDescriptions = AudioChannelLayoutTag(rawValue: 0)
    /// The layout is given by the channel bitmap.
    public static let useChannelBitmap = AudioChannelLayoutTag(rawValue: 1 << 16)
    /// Core Audio's `kAudioChannelLayoutTag_Mono`.
    public static let mono = tag(100, 1)
    /// Core Audio's `kAudioChannelLayoutTag_Stereo`.
    public static let stereo = tag(101, 2)
    /// Core Audio's `kAudioChannelLayoutTag_StereoHeadphones`.
    public static let stereoHeadphones = tag(102, 2)
    /// Core Audio's `kAudioChannelLayoutTag_MatrixStereo`.
    public static let matrixStereo = tag(103, 2)
    /// Core Audio's `kAudioChannelLayoutTag_MidSide`.
    public static let midSide = tag(104, 2)
    /// Core Audio's `kAudioChannelLayoutTag_XY`.
    public static let xy = tag(105, 2)
    /// Core Audio's `kAudioChannelLayoutTag_Binaural`.
    public static let binaural = tag(106, 2)
    /// Core Audio's `kAudioChannelLayoutTag_AmbisonicBFormat`.
    public static let ambisonicBFormat = tag(107, 4)
    /// Core Audio's `kAudioChannelLayoutTag_Quadraphonic`.
    public static let quadraphonic = tag(108, 4)
    /// Core Audio's `kAudioChannelLayoutTag_Pentagonal`.
    public static let pentagonal = tag(109, 5)
    /// Core Audio's `kAudioChannelLayoutTag_Hexagonal`.
    public static let hexagonal = tag(110, 6)
    /// Core Audio's `kAudioChannelLayoutTag_Octagonal`.
    public static let octagonal = tag(111, 8)
    /// Core Audio's `kAudioChannelLayoutTag_Cube`.
    public static let cube = tag(112, 8)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_3_0_A`.
    public static let mpeg_3_0_A = tag(113, 3)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_3_0_B`.
    public static let mpeg_3_0_B = tag(114, 3)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_4_0_A`.
    public static let mpeg_4_0_A = tag(115, 4)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_4_0_B`.
    public static let mpeg_4_0_B = tag(116, 4)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_0_A`.
    public static let mpeg_5_0_A = tag(117, 5)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_0_B`.
    public static let mpeg_5_0_B = tag(118, 5)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_0_C`.
    public static let mpeg_5_0_C = tag(119, 5)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_0_D`.
    public static let mpeg_5_0_D = tag(120, 5)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_1_A`.
    public static let mpeg_5_1_A = tag(121, 6)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_1_B`.
    public static let mpeg_5_1_B = tag(122, 6)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_1_C`.
    public static let mpeg_5_1_C = tag(123, 6)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_5_1_D`.
    public static let mpeg_5_1_D = tag(124, 6)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_6_1_A`.
    public static let mpeg_6_1_A = tag(125, 7)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_7_1_A`.
    public static let mpeg_7_1_A = tag(126, 8)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_7_1_B`.
    public static let mpeg_7_1_B = tag(127, 8)
    /// Core Audio's `kAudioChannelLayoutTag_MPEG_7_1_C`.
    public static let mpeg_7_1_C = tag(128, 8)
    /// Core Audio's `kAudioChannelLayoutTag_AAC_3_0`.
    public static let aac_3_0 = mpeg_3_0_B
    /// Core Audio's `kAudioChannelLayoutTag_AAC_4_0`.
    public static let aac_4_0 = mpeg_4_0_B
    /// Core Audio's `kAudioChannelLayoutTag_AAC_5_0`.
    public static let aac_5_0 = mpeg_5_0_D
    /// Core Audio's `kAudioChannelLayoutTag_AAC_5_1`.
    public static let aac_5_1 = mpeg_5_1_D
    /// Core Audio's `kAudioChannelLayoutTag_AAC_6_0`.
    public static let aac_6_0 = tag(141, 6)
    /// Core Audio's `kAudioChannelLayoutTag_AAC_6_1`.
    public static let aac_6_1 = tag(142, 7)
    /// Core Audio's `kAudioChannelLayoutTag_AAC_7_0`.
    public static let aac_7_0 = tag(143, 7)
    /// Core Audio's `kAudioChannelLayoutTag_AAC_7_1`.
    public static let aac_7_1 = mpeg_7_1_B
    /// Core Audio's `kAudioChannelLayoutTag_AAC_octagonal`.
    public static let aac_octagonal = tag(144, 8)
    /// `n` channels in order, without roles (`kAudioChannelLayoutTag_DiscreteInOrder | n`).
    public static func discreteInOrder(_ channels: UInt32) -> AudioChannelLayoutTag { tag(147, channels & 0xFFFF) }
    /// An unknown layout of `n` channels (`kAudioChannelLayoutTag_Unknown | n`).
    public static func unknown(_ channels: UInt32) -> AudioChannelLayoutTag {
        AudioChannelLayoutTag(rawValue: 0xFFFF_0000 | (channels & 0xFFFF))
    }

    /// Channels the tag implies (its low 16 bits); 0 for descriptions and bitmap tags.
    public var numberOfChannels: UInt32 { rawValue & 0xFFFF }

    /// The AAC layout for an MPEG-4 channel configuration (1…7), as ADTS and AudioSpecificConfig use.
    public static func aac(channelConfiguration: Int) -> AudioChannelLayoutTag? {
        switch channelConfiguration {
        case 1: .mono
        case 2: .stereo
        case 3: .aac_3_0
        case 4: .aac_4_0
        case 5: .aac_5_0
        case 6: .aac_5_1
        case 7: .aac_7_1
        default: nil
        }
    }
}

/// A channel's role (Core Audio's `AudioChannelLabel`).
public struct AudioChannelLabel: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Core Audio's `kAudioChannelLabel_Unknown`.
    public static let unknown = AudioChannelLabel(rawValue: 0xFFFF_FFFF)
    /// Core Audio's `kAudioChannelLabel_Unused`.
    public static let unused = AudioChannelLabel(rawValue: 0)
    /// Core Audio's `kAudioChannelLabel_UseCoordinates`.
    public static let useCoordinates = AudioChannelLabel(rawValue: 100)
    /// Core Audio's `kAudioChannelLabel_Left`.
    public static let left = AudioChannelLabel(rawValue: 1)
    /// Core Audio's `kAudioChannelLabel_Right`.
    public static let right = AudioChannelLabel(rawValue: 2)
    /// Core Audio's `kAudioChannelLabel_Center`.
    public static let center = AudioChannelLabel(rawValue: 3)
    /// Core Audio's `kAudioChannelLabel_LFEScreen`.
    public static let lfeScreen = AudioChannelLabel(rawValue: 4)
    /// Core Audio's `kAudioChannelLabel_LeftSurround`.
    public static let leftSurround = AudioChannelLabel(rawValue: 5)
    /// Core Audio's `kAudioChannelLabel_RightSurround`.
    public static let rightSurround = AudioChannelLabel(rawValue: 6)
    /// Core Audio's `kAudioChannelLabel_LeftCenter`.
    public static let leftCenter = AudioChannelLabel(rawValue: 7)
    /// Core Audio's `kAudioChannelLabel_RightCenter`.
    public static let rightCenter = AudioChannelLabel(rawValue: 8)
    /// Core Audio's `kAudioChannelLabel_CenterSurround`.
    public static let centerSurround = AudioChannelLabel(rawValue: 9)
    /// Core Audio's `kAudioChannelLabel_LeftSurroundDirect`.
    public static let leftSurroundDirect = AudioChannelLabel(rawValue: 10)
    /// Core Audio's `kAudioChannelLabel_RightSurroundDirect`.
    public static let rightSurroundDirect = AudioChannelLabel(rawValue: 11)
    /// Core Audio's `kAudioChannelLabel_TopCenterSurround`.
    public static let topCenterSurround = AudioChannelLabel(rawValue: 12)
    /// Core Audio's `kAudioChannelLabel_VerticalHeightLeft`.
    public static let verticalHeightLeft = AudioChannelLabel(rawValue: 13)
    /// Core Audio's `kAudioChannelLabel_VerticalHeightCenter`.
    public static let verticalHeightCenter = AudioChannelLabel(rawValue: 14)
    /// Core Audio's `kAudioChannelLabel_VerticalHeightRight`.
    public static let verticalHeightRight = AudioChannelLabel(rawValue: 15)
    /// Core Audio's `kAudioChannelLabel_TopBackLeft`.
    public static let topBackLeft = AudioChannelLabel(rawValue: 16)
    /// Core Audio's `kAudioChannelLabel_TopBackCenter`.
    public static let topBackCenter = AudioChannelLabel(rawValue: 17)
    /// Core Audio's `kAudioChannelLabel_TopBackRight`.
    public static let topBackRight = AudioChannelLabel(rawValue: 18)
    /// Core Audio's `kAudioChannelLabel_RearSurroundLeft`.
    public static let rearSurroundLeft = AudioChannelLabel(rawValue: 33)
    /// Core Audio's `kAudioChannelLabel_RearSurroundRight`.
    public static let rearSurroundRight = AudioChannelLabel(rawValue: 34)
    /// Core Audio's `kAudioChannelLabel_LeftWide`.
    public static let leftWide = AudioChannelLabel(rawValue: 35)
    /// Core Audio's `kAudioChannelLabel_RightWide`.
    public static let rightWide = AudioChannelLabel(rawValue: 36)
    /// Core Audio's `kAudioChannelLabel_LFE2`.
    public static let lfe2 = AudioChannelLabel(rawValue: 37)
    /// Core Audio's `kAudioChannelLabel_LeftTotal`.
    public static let leftTotal = AudioChannelLabel(rawValue: 38)
    /// Core Audio's `kAudioChannelLabel_RightTotal`.
    public static let rightTotal = AudioChannelLabel(rawValue: 39)
    /// Core Audio's `kAudioChannelLabel_Mono`.
    public static let mono = AudioChannelLabel(rawValue: 42)
    /// The `n`th discrete channel (`kAudioChannelLabel_Discrete_0 + n`).
    public static func discrete(_ index: UInt16) -> AudioChannelLabel {
        AudioChannelLabel(rawValue: 1 << 16 | UInt32(index))
    }

    /// The short name afinfo uses (`L`, `R`, `C`, `LFE`, `Ls`, …).
    public var abbreviation: String {
        switch rawValue {
        case 0: "Unused"
        case 1: "L"
        case 2: "R"
        case 3: "C"
        case 4: "LFE"
        case 5: "Ls"
        case 6: "Rs"
        case 7: "Lc"
        case 8: "Rc"
        case 9: "Cs"
        case 10: "Lsd"
        case 11: "Rsd"
        case 12: "Ts"
        case 13: "Vhl"
        case 14: "Vhc"
        case 15: "Vhr"
        case 16: "Tbl"
        case 17: "Tbc"
        case 18: "Tbr"
        case 33: "Rls"
        case 34: "Rrs"
        case 35: "Lw"
        case 36: "Rw"
        case 37: "LFE2"
        case 38: "Lt"
        case 39: "Rt"
        case 40: "HI"
        case 41: "VI"
        case 42: "M"
        case 43: "DLG"
        case 44: "Csd"
        case 45: "Haptic"
        case 49: "Ltm"
        case 51: "Rtm"
        case 52: "Ltr"
        case 53: "Ctr"
        case 54: "Rtr"
        case 55: "Lss"
        case 56: "Rss"
        case 57: "Lb"
        case 58: "Rb"
        case 59: "Cb"
        case 60: "Lts"
        case 61: "Rts"
        case 62: "LFE3"
        case 63: "Lbs"
        case 64: "Rbs"
        case 65: "Leos"
        case 66: "Reos"
        case 200: "W"
        case 201: "X"
        case 202: "Y"
        case 203: "Z"
        case 204: "Mid"
        case 205: "Side"
        case 206: "X"
        case 207: "Y"
        case 208: "BinL"
        case 209: "BinR"
        case 301: "Lh"
        case 302: "Rh"
        case 304: "Click"
        case 305: "Lang"
        case 400: "D"
        case 500: "ACN"
        case 100: "Coordinates"
        case 0xFFFF_FFFF: "?"
        case 0x1_0000...0x1_FFFF: "D\(rawValue & 0xFFFF)"
        case 0x2_0000...0x2_FFFF: "ACN\(rawValue & 0xFFFF)"
        case 0x3_0000...0x3_FFFF: "N3D\(rawValue & 0xFFFF)"
        case 0x4_0000...0x4_FFFF: "Obj\(rawValue & 0xFFFF)"
        default: "#\(rawValue)"
        }
    }
}

/// Speaker positions present in a stream, one bit per position (Core Audio's
/// `AudioChannelBitmap`); bit *n* is the channel label *n + 1*, the same order as WAVE's
/// `dwChannelMask`.
public struct AudioChannelBitmap: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Core Audio's `kAudioChannelBit_Left`.
    public static let left = AudioChannelBitmap(rawValue: 1 << 0)
    /// Core Audio's `kAudioChannelBit_Right`.
    public static let right = AudioChannelBitmap(rawValue: 1 << 1)
    /// Core Audio's `kAudioChannelBit_Center`.
    public static let center = AudioChannelBitmap(rawValue: 1 << 2)
    /// Core Audio's `kAudioChannelBit_LFEScreen`.
    public static let lfeScreen = AudioChannelBitmap(rawValue: 1 << 3)
    /// Core Audio's `kAudioChannelBit_LeftSurround`.
    public static let leftSurround = AudioChannelBitmap(rawValue: 1 << 4)
    /// Core Audio's `kAudioChannelBit_RightSurround`.
    public static let rightSurround = AudioChannelBitmap(rawValue: 1 << 5)
    /// Core Audio's `kAudioChannelBit_LeftCenter`.
    public static let leftCenter = AudioChannelBitmap(rawValue: 1 << 6)
    /// Core Audio's `kAudioChannelBit_RightCenter`.
    public static let rightCenter = AudioChannelBitmap(rawValue: 1 << 7)
    /// Core Audio's `kAudioChannelBit_CenterSurround`.
    public static let centerSurround = AudioChannelBitmap(rawValue: 1 << 8)
    /// Core Audio's `kAudioChannelBit_LeftSurroundDirect`.
    public static let leftSurroundDirect = AudioChannelBitmap(rawValue: 1 << 9)
    /// Core Audio's `kAudioChannelBit_RightSurroundDirect`.
    public static let rightSurroundDirect = AudioChannelBitmap(rawValue: 1 << 10)
    /// Core Audio's `kAudioChannelBit_TopCenterSurround`.
    public static let topCenterSurround = AudioChannelBitmap(rawValue: 1 << 11)
    /// Core Audio's `kAudioChannelBit_VerticalHeightLeft`.
    public static let verticalHeightLeft = AudioChannelBitmap(rawValue: 1 << 12)
    /// Core Audio's `kAudioChannelBit_VerticalHeightCenter`.
    public static let verticalHeightCenter = AudioChannelBitmap(rawValue: 1 << 13)
    /// Core Audio's `kAudioChannelBit_VerticalHeightRight`.
    public static let verticalHeightRight = AudioChannelBitmap(rawValue: 1 << 14)
    /// Core Audio's `kAudioChannelBit_TopBackLeft`.
    public static let topBackLeft = AudioChannelBitmap(rawValue: 1 << 15)
    /// Core Audio's `kAudioChannelBit_TopBackCenter`.
    public static let topBackCenter = AudioChannelBitmap(rawValue: 1 << 16)
    /// Core Audio's `kAudioChannelBit_TopBackRight`.
    public static let topBackRight = AudioChannelBitmap(rawValue: 1 << 17)

    /// The labels of the set bits, lowest bit first.
    public var labels: [AudioChannelLabel] {
        (0..<32).compactMap { bit in rawValue & (1 << bit) != 0 ? AudioChannelLabel(rawValue: UInt32(bit) + 1) : nil }
    }
}

/// Describes one channel of a layout (Core Audio's `AudioChannelDescription`).
public struct AudioChannelDescription: Hashable, Sendable {
    /// Coordinate flags (`AudioChannelFlags`).
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Coordinates are x, y, z (`kAudioChannelFlags_RectangularCoordinates`).
        public static let rectangularCoordinates = Flags(rawValue: 1 << 0)
        /// Coordinates are azimuth, elevation, distance (`kAudioChannelFlags_SphericalCoordinates`).
        public static let sphericalCoordinates = Flags(rawValue: 1 << 1)
        /// Distances are in meters (`kAudioChannelFlags_Meters`).
        public static let meters = Flags(rawValue: 1 << 2)
    }
    /// The channel's role.
    public var label: AudioChannelLabel
    /// How to read ``coordinates``.
    public var flags: Flags
    /// Three coordinates, meaning set by ``flags``.
    public var coordinates: (Float, Float, Float)

    /// A description of one channel.
    public init(label: AudioChannelLabel, flags: Flags = [], coordinates: (Float, Float, Float) = (0, 0, 0)) {
        self.label = label
        self.flags = flags
        self.coordinates = coordinates
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.label == b.label && a.flags == b.flags && a.coordinates == b.coordinates
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(label)
        hasher.combine(flags)
        hasher.combine(coordinates.0)
        hasher.combine(coordinates.1)
        hasher.combine(coordinates.2)
    }
}

/// Which speaker each channel feeds (Core Audio's `AudioChannelLayout`): a predefined tag, a
/// bitmap, or one description per channel.
public struct AudioChannelLayout: Hashable, Sendable, CustomStringConvertible {
    /// The predefined layout, or how the layout is given.
    public var tag: AudioChannelLayoutTag
    /// Set when ``tag`` is ``AudioChannelLayoutTag/useChannelBitmap``.
    public var bitmap: AudioChannelBitmap
    /// Set when ``tag`` is ``AudioChannelLayoutTag/useChannelDescriptions``.
    public var descriptions: [AudioChannelDescription]

    /// A layout with every field given.
    public init(tag: AudioChannelLayoutTag, bitmap: AudioChannelBitmap = [], descriptions: [AudioChannelDescription] = []) {
        self.tag = tag
        self.bitmap = bitmap
        self.descriptions = descriptions
    }

    /// A layout given by a bitmap (WAVE's channel mask).
    public init(bitmap: AudioChannelBitmap) { self.init(tag: .useChannelBitmap, bitmap: bitmap) }

    /// The layout of 1 to 8 channels in WAVE's default order, which FLAC (RFC 9639, 9.1.3) and
    /// Opus's channel mapping family 1 (once put in that order) use: mono, stereo, then channel
    /// bitmaps — L R C; L R Ls Rs; L R C Ls Rs; L R C LFE Ls Rs; L R C LFE Cs Lsd Rsd;
    /// L R C LFE Ls Rs Lsd Rsd. Nil for other counts.
    public static func waveOrder(channels: Int) -> AudioChannelLayout? {
        switch channels {
        case 1: AudioChannelLayout(tag: .mono)
        case 2: AudioChannelLayout(tag: .stereo)
        case 3: AudioChannelLayout(bitmap: [.left, .right, .center])
        case 4: AudioChannelLayout(bitmap: [.left, .right, .leftSurround, .rightSurround])
        case 5: AudioChannelLayout(bitmap: [.left, .right, .center, .leftSurround, .rightSurround])
        case 6: AudioChannelLayout(bitmap: [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround])
        case 7: AudioChannelLayout(bitmap: [.left, .right, .center, .lfeScreen, .centerSurround, .leftSurroundDirect, .rightSurroundDirect])
        case 8:
            AudioChannelLayout(bitmap: [
                .left, .right, .center, .lfeScreen, .leftSurround, .rightSurround, .leftSurroundDirect, .rightSurroundDirect,
            ])
        default: nil
        }
    }

    /// Channels of the layout, however it is given.
    public var numberOfChannels: Int {
        switch tag {
        case .useChannelDescriptions: descriptions.count
        case .useChannelBitmap: bitmap.rawValue.nonzeroBitCount
        default: Int(tag.numberOfChannels)
        }
    }

    /// The channel roles in order, where the layout names them.
    public var labels: [AudioChannelLabel]? {
        switch tag {
        case .useChannelDescriptions: return descriptions.map(\.label)
        case .useChannelBitmap: return bitmap.labels
        default: return Self.knownTags[tag.rawValue]?.labels
        }
    }

    /// The name afinfo prints, e.g. `Stereo (L R)` or `5.1 (C L R Ls Rs LFE)`.
    public var name: String {
        let roles = labels.map { $0.map(\.abbreviation).joined(separator: " ") }
        if let known = Self.knownTags[tag.rawValue] {
            return known.labels.count > 1 ? "\(known.name) (\(roles ?? ""))" : known.name
        }
        switch tag {
        case .useChannelDescriptions, .useChannelBitmap: return roles ?? ""
        default:
            switch tag.rawValue >> 16 {
            case 147: return "\(tag.numberOfChannels) channels, discrete in order"
            case 0xFFFF: return "\(tag.numberOfChannels) channels, unknown layout"
            default: return "layout tag 0x\(hex(UInt64(tag.rawValue), digits: 8))"
            }
        }
    }

    public var description: String { name }
}

extension AudioChannelLayout {
    /// The layout as Apple's `AudioChannelLayout` struct lays it out in memory (native byte
    /// order): tag, bitmap and description count (12 bytes), then 20 bytes per description
    /// (label, flags, three coordinates). The form property calls pass it in.
    public var nativeBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(12 + 20 * descriptions.count)
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        put(tag.rawValue); put(bitmap.rawValue); put(UInt32(descriptions.count))
        for d in descriptions {
            put(d.label.rawValue); put(d.flags.rawValue)
            put(d.coordinates.0); put(d.coordinates.1); put(d.coordinates.2)
        }
        return out
    }

    /// A layout from Apple's in-memory form (see ``nativeBytes``); nil when `data` is shorter
    /// than the descriptions it counts, or it counts more than `maximumDescriptions`.
    public init?(nativeBytes data: UnsafeRawBufferPointer, maximumDescriptions: Int) {
        guard data.count >= 12 else { return nil }
        let count = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard count <= maximumDescriptions, data.count >= 12 + 20 * count else { return nil }
        let descriptions = (0..<count).map { i -> AudioChannelDescription in
            let o = 12 + 20 * i
            return AudioChannelDescription(
                label: AudioChannelLabel(rawValue: data.loadUnaligned(fromByteOffset: o, as: UInt32.self)),
                flags: AudioChannelDescription.Flags(rawValue: data.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self)),
                coordinates: (data.loadUnaligned(fromByteOffset: o + 8, as: Float.self),
                              data.loadUnaligned(fromByteOffset: o + 12, as: Float.self),
                              data.loadUnaligned(fromByteOffset: o + 16, as: Float.self)))
        }
        self.init(
            tag: AudioChannelLayoutTag(rawValue: data.loadUnaligned(as: UInt32.self)),
            bitmap: AudioChannelBitmap(rawValue: data.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
            descriptions: descriptions)
    }
}
