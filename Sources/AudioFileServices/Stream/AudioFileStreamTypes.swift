public import AudioCore

/// A property of an ``AudioFileStream`` (Apple's `AudioFileStreamPropertyID`): a four-character code.
public struct AudioFileStreamPropertyID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The property whose four-character code is `code`.
    public init(_ code: FourCharCode) { rawValue = code.rawValue }
    public var description: String { FourCharCode(rawValue: rawValue).description }

    /// `kAudioFileStreamProperty_ReadyToProducePackets` (`'redy'`): the parser knows enough to
    /// deliver packets; the moment to create an audio queue.
    public static let readyToProducePackets = Self("redy")
    /// `kAudioFileStreamProperty_FileFormat` (`'ffmt'`): the container type.
    public static let fileFormat = Self("ffmt")
    /// `kAudioFileStreamProperty_DataFormat` (`'dfmt'`): the `AudioStreamBasicDescription`.
    public static let dataFormat = Self("dfmt")
    /// `kAudioFileStreamProperty_FormatList` (`'flst'`).
    public static let formatList = Self("flst")
    /// `kAudioFileStreamProperty_MagicCookieData` (`'mgic'`).
    public static let magicCookieData = Self("mgic")
    /// `kAudioFileStreamProperty_AudioDataByteCount` (`'bcnt'`).
    public static let audioDataByteCount = Self("bcnt")
    /// `kAudioFileStreamProperty_AudioDataPacketCount` (`'pcnt'`).
    public static let audioDataPacketCount = Self("pcnt")
    /// `kAudioFileStreamProperty_MaximumPacketSize` (`'psze'`, as Apple's header spells it).
    public static let maximumPacketSize = Self("psze")
    /// `kAudioFileStreamProperty_DataOffset` (`'doff'`).
    public static let dataOffset = Self("doff")
    /// `kAudioFileStreamProperty_ChannelLayout` (`'cmap'`).
    public static let channelLayout = Self("cmap")
    /// `kAudioFileStreamProperty_PacketToFrame` (`'pkfr'`).
    public static let packetToFrame = Self("pkfr")
    /// `kAudioFileStreamProperty_FrameToPacket` (`'frpk'`).
    public static let frameToPacket = Self("frpk")
    /// `kAudioFileStreamProperty_PacketToByte` (`'pkby'`).
    public static let packetToByte = Self("pkby")
    /// `kAudioFileStreamProperty_ByteToPacket` (`'bypk'`).
    public static let byteToPacket = Self("bypk")
    /// `kAudioFileStreamProperty_PacketTableInfo` (`'pnfo'`).
    public static let packetTableInfo = Self("pnfo")
    /// `kAudioFileStreamProperty_PacketSizeUpperBound` (`'pkub'`).
    public static let packetSizeUpperBound = Self("pkub")
    /// `kAudioFileStreamProperty_AverageBytesPerPacket` (`'abpp'`).
    public static let averageBytesPerPacket = Self("abpp")
    /// `kAudioFileStreamProperty_BitRate` (`'brat'`).
    public static let bitRate = Self("brat")
    /// `kAudioFileStreamProperty_InfoDictionary` (`'info'`).
    public static let infoDictionary = Self("info")
}

/// The flags a property listener gets and may set (`kAudioFileStreamPropertyFlag_…`).
public struct AudioFileStreamPropertyFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `kAudioFileStreamPropertyFlag_PropertyIsCached`: set on the way in when the parser keeps
    /// the value, so it can be read later (this parser keeps every value it reports).
    public static let propertyIsCached = Self(rawValue: 1)
    /// `kAudioFileStreamPropertyFlag_CacheProperty`: set by the listener to ask the parser to
    /// keep the value.
    public static let cacheProperty = Self(rawValue: 2)
}

/// Flags for ``AudioFileStream/parse(bytes:flags:)`` (`kAudioFileStreamParseFlag_…`).
public struct AudioFileStreamParseFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `kAudioFileStreamParseFlag_Discontinuity`: the bytes do not follow the previous ones (after
    /// a seek, or lost data). A partial packet held from before is dropped; MPEG audio and ADTS
    /// streams find their frames again by their sync words.
    public static let discontinuity = Self(rawValue: 1)
}

/// Flags ``AudioFileStream/seek(toPacket:)`` reports (`kAudioFileStreamSeekFlag_…`).
public struct AudioFileStreamSeekFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `kAudioFileStreamSeekFlag_OffsetIsEstimated`.
    public static let offsetIsEstimated = Self(rawValue: 1)
}
