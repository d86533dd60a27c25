import AudioCore

extension AudioFileWriter {
    /// The info dictionary the file records (`kAudioFilePropertyInfoDictionary`), as
    /// ``setInfo(_:)`` kept it.
    public var info: AudioFileInfo { state.withLock { $0.metadata.info } }

    /// Sets the file's info dictionary (Apple's `kAudioFilePropertyInfoDictionary`, settable on
    /// a file being written): its entries under Apple's keys replace those set before.
    ///
    /// `approximate duration in seconds` is not recorded (readers work it out from the audio),
    /// keys and values are cut at a NUL, and empty ones are dropped; ``info`` gives what is
    /// kept. Each container records the keys under the names its readers map them from, as
    /// ``AudioFile/info`` reads them back:
    ///
    /// - CAF: an `info` chunk of the keys as they are.
    /// - WAVE: an `id3 ` chunk (an ID3v2.4 tag) of every key and the pictures, and before it a
    ///   `LIST` chunk of type `INFO` (`INAM`, `IART`, `IPRD`, `ICRD`, `IGNR`, `ICMT`, `ICOP`,
    ///   `ISFT`, `ITRK`, `ICMP`, …) when INFO has an ID for every key: ffmpeg ignores an `id3 `
    ///   chunk's text beside an INFO list, so keys INFO cannot hold leave it out.
    /// - AIFF: an `ID3 ` chunk (the `NAME`, `AUTH`, `ANNO` and `(c) ` chunks hold ASCII, and ffmpeg
    ///   reads `AUTH` as `author`).
    /// - ADTS: an ID3v2.4 tag before the first frame.
    /// - MPEG-4: iTunes items in `moov/udta/meta/ilst` (`©nam`, `©ART`, `©alb`, `©day`, `©gen`,
    ///   `©wrt`, `trkn`, `©cmt`, `cprt`, `©too`, …; other keys as `----` items).
    /// - FLAC: a VORBIS_COMMENT block (``VorbisComment/fields(info:)``).
    /// - Ogg Opus: the `OpusTags` comment header (``VorbisComment/fields(info:pictures:)``).
    ///
    /// When they can change: MPEG-4 at any time until ``close()`` (the `moov` box is written
    /// then). CAF, WAVE and AIFF as the magic cookie: in the header before the first packet,
    /// afterwards in place when the chunk keeps its size, else after the audio at close. FLAC,
    /// ADTS and Ogg keep their tags before the audio: set before the first packet, the header is
    /// made again; afterwards FLAC rewrites its blocks in place where they fit the space before
    /// the frames (the 8192-byte PADDING block leaves room), and otherwise, as ADTS and Ogg
    /// always, the change fails with `operationNotSupported`. Tags larger than the container's size fields
    /// hold (a FLAC block's 16 MiB, an ID3v2 tag's 256 MiB) fail with `parameter`.
    public func setInfo(_ info: AudioFileInfo) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.setInfo(info) }
    }

    /// The pictures the file records, as ``setPictures(_:)`` kept them.
    public var pictures: [AudioFilePicture] { state.withLock { $0.metadata.pictures } }

    /// Sets the pictures the file records (album artwork: what ``AudioFile/pictures`` and
    /// ``AudioFile/albumArtwork`` read back), replacing those set before; they change when and
    /// as ``setInfo(_:)`` says.
    ///
    /// WAVE, AIFF and ADTS record them as ID3v2 `APIC` frames, FLAC as PICTURE blocks, Ogg Opus
    /// as `METADATA_BLOCK_PICTURE` comments, MPEG-4
    /// as the values of a `covr` item (JPEG, PNG and BMP: MPEG-4 has no data type for other
    /// images, which are left out). CAF has no chunk for pictures: `unsupportedProperty`, unless
    /// `pictures` is empty.
    public func setPictures(_ pictures: [AudioFilePicture]) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.setPictures(pictures) }
    }
}
