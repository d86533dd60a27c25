/// A file's metadata as Apple's `kAudioFilePropertyInfoDictionary` gives it, typed: the
/// entries under Apple's keys (`kAFInfoDictionary_…`), with a property for each key.
///
/// Values are strings, as in Apple's dictionary (`track number` may read `3/12`); the typed
/// accessors ``trackNumber`` and ``approximateDuration`` parse the ones that are numbers.
public struct AudioFileInfo: Sendable, Equatable {
    /// An info dictionary key: Apple's `kAFInfoDictionary_…` strings. An open set: a file may
    /// carry keys of its own (a CAF `info` chunk's, a RIFF `INFO` ID Apple has no name for).
    public struct Key: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The key string.
        public var rawValue: String
        /// The key `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The key a string literal spells.
        public init(stringLiteral value: String) { rawValue = value }

        /// `kAFInfoDictionary_Artist`.
        public static let artist: Key = "artist"
        /// `kAFInfoDictionary_Album`.
        public static let album: Key = "album"
        /// `kAFInfoDictionary_Tempo`.
        public static let tempo: Key = "tempo"
        /// `kAFInfoDictionary_KeySignature`.
        public static let keySignature: Key = "key signature"
        /// `kAFInfoDictionary_TimeSignature`.
        public static let timeSignature: Key = "time signature"
        /// `kAFInfoDictionary_TrackNumber`.
        public static let trackNumber: Key = "track number"
        /// `kAFInfoDictionary_Year`.
        public static let year: Key = "year"
        /// `kAFInfoDictionary_Composer`.
        public static let composer: Key = "composer"
        /// `kAFInfoDictionary_Lyricist`.
        public static let lyricist: Key = "lyricist"
        /// `kAFInfoDictionary_Genre`.
        public static let genre: Key = "genre"
        /// `kAFInfoDictionary_Title`.
        public static let title: Key = "title"
        /// `kAFInfoDictionary_RecordedDate`.
        public static let recordedDate: Key = "recorded date"
        /// `kAFInfoDictionary_Comments`.
        public static let comments: Key = "comments"
        /// `kAFInfoDictionary_Copyright`.
        public static let copyright: Key = "copyright"
        /// `kAFInfoDictionary_SourceEncoder`.
        public static let sourceEncoder: Key = "source encoder"
        /// `kAFInfoDictionary_EncodingApplication`.
        public static let encodingApplication: Key = "encoding application"
        /// `kAFInfoDictionary_NominalBitRate`.
        public static let nominalBitRate: Key = "nominal bit rate"
        /// `kAFInfoDictionary_ChannelLayout`.
        public static let channelLayout: Key = "channel layout"
        /// `kAFInfoDictionary_ApproximateDurationInSeconds`.
        public static let approximateDurationInSeconds: Key = "approximate duration in seconds"
        /// `kAFInfoDictionary_SourceBitDepth`.
        public static let sourceBitDepth: Key = "source bit depth"
        /// `kAFInfoDictionary_ISRC`.
        public static let isrc: Key = "ISRC"
        /// `kAFInfoDictionary_SubTitle`.
        public static let subtitle: Key = "subtitle"
    }

    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        /// The key.
        public var key: Key
        /// Its value.
        public var value: String
    }

    /// The entries, one per key, in the order the file gives them; `approximate duration in
    /// seconds` last.
    public var entries: [Entry]

    /// Entries from key/value pairs; the first value of a repeated key is kept.
    public init(_ pairs: [(key: String, value: String)]) {
        var seen: Set<String> = []
        entries = []
        for (key, value) in pairs where !seen.contains(key) {
            seen.insert(key)
            entries.append(Entry(key: Key(rawValue: key), value: value))
        }
    }

    /// The value of `key`, or nil.
    public subscript(key: Key) -> String? { entries.first { $0.key == key }?.value }

    /// The entries as Apple's dictionary holds them.
    public var dictionary: [String: String] {
        Dictionary(entries.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The `title` entry.
    public var title: String? { self[.title] }
    /// The `artist` entry.
    public var artist: String? { self[.artist] }
    /// The `album` entry.
    public var album: String? { self[.album] }
    /// The `year` entry.
    public var year: String? { self[.year] }
    /// The `genre` entry.
    public var genre: String? { self[.genre] }
    /// The `comments` entry.
    public var comments: String? { self[.comments] }
    /// The `composer` entry.
    public var composer: String? { self[.composer] }
    /// The `lyricist` entry.
    public var lyricist: String? { self[.lyricist] }
    /// The `copyright` entry.
    public var copyright: String? { self[.copyright] }
    /// The `tempo` entry.
    public var tempo: String? { self[.tempo] }
    /// The `key signature` entry.
    public var keySignature: String? { self[.keySignature] }
    /// The `time signature` entry.
    public var timeSignature: String? { self[.timeSignature] }
    /// The `recorded date` entry.
    public var recordedDate: String? { self[.recordedDate] }
    /// The `source encoder` entry.
    public var sourceEncoder: String? { self[.sourceEncoder] }
    /// The `encoding application` entry.
    public var encodingApplication: String? { self[.encodingApplication] }
    /// The `nominal bit rate` entry.
    public var nominalBitRate: String? { self[.nominalBitRate] }
    /// The `channel layout` entry.
    public var channelLayout: String? { self[.channelLayout] }
    /// The `source bit depth` entry.
    public var sourceBitDepth: String? { self[.sourceBitDepth] }
    /// The `ISRC` entry.
    public var isrc: String? { self[.isrc] }
    /// The `subtitle` entry.
    public var subtitle: String? { self[.subtitle] }

    /// The `track number` entry as stored (`3` or `3/12`).
    public var trackNumberText: String? { self[.trackNumber] }

    /// The track's number: the digits before any `/` of `track number`.
    public var trackNumber: Int? {
        trackNumberText.flatMap { Int($0.split(separator: "/").first.map { $0.trimmingSpaces } ?? "") }
    }

    /// `approximate duration in seconds` as a number.
    public var approximateDuration: Double? { self[.approximateDurationInSeconds].flatMap(Double.init) }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension AudioFile {
    /// `kAudioFilePropertyInfoDictionary`, typed: the file's metadata in file order, then
    /// `approximate duration in seconds` (always there, as on a Mac).
    public var info: AudioFileInfo {
        let duration = AudioFileInfo.Key.approximateDurationInSeconds.rawValue
        var pairs = metadata.filter { $0.key != duration }
        pairs.append((duration, formatDuration(estimatedDuration)))
        return AudioFileInfo(pairs)
    }

    /// Every picture the file carries, in file order (read from the file on each call).
    public var pictures: [AudioFilePicture] { container.artwork(reading: source) }

    /// `kAudioFilePropertyAlbumArtwork`: the front cover, else the first picture (a file icon
    /// last); nil when the file has none.
    public var albumArtwork: AudioFilePicture? { AudioFilePicture.albumArtwork(pictures) }
}
