#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import AudioCore
import Locking

/// Flags for creating an audio file (Apple's `AudioFileFlags`).
public struct AudioFileFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Replace a file that exists at the path (`kAudioFileFlags_EraseFile`); without it,
    /// creating over an existing file fails with `duplicateFileName` (`dupFNErr`, -48).
    public static let eraseFile = AudioFileFlags(rawValue: 1)
    /// Start the audio data right after the header (`kAudioFileFlags_DontPageAlignAudioData`)
    /// rather than on a 4096-byte boundary.
    public static let dontPageAlignAudioData = AudioFileFlags(rawValue: 2)
}

/// An audio file created for writing: Apple's `AudioFileCreateWithURL`, `AudioFileWritePackets`,
/// `AudioFileWriteBytes`, `AudioFileSetProperty` and `AudioFileClose`.
///
/// Writes CAF (linear PCM, G.711, IMA4, and variable-size formats such as AAC with their packet
/// table), AIFF and AIFF-C (PCM, G.711, IMA4), WAVE (PCM, G.711; RF64 past 4 GiB), MPEG-4 (AAC,
/// ALAC, FLAC and Opus; `moov` at close), ADTS (AAC), native FLAC (`fLaC`, STREAMINFO completed at
/// close from the magic cookie, PADDING, the frames) and Ogg Opus (`OpusHead` and `OpusTags`
/// pages, then the audio pages, the last one at close), to a path or into any ``AudioByteSink``. See
/// <doc:WritingFiles>.
///
/// The header is written at creation and completed by ``close()``. Until then the file can be
/// read at any time: a CAF data chunk runs to the end of the file, and WAVE and AIFF sizes are
/// brought up to date at least every ``headerUpdateInterval`` while packets arrive, so a process
/// killed while recording leaves a file that opens with what it wrote up to then.
///
/// A writer is `Sendable`: an internal lock lets a recording callback write while other threads
/// read its properties.
public final class AudioFileWriter: Sendable {
    /// The container being written (`'AIFC'` where plain AIFF cannot hold the format).
    public let fileType: AudioFileType
    /// The format of the audio data as the file records it (`kAudioFilePropertyDataFormat`):
    /// what ``AudioFile`` reports when it opens the file.
    public let dataFormat: AudioStreamBasicDescription
    /// The path being written.
    public let path: String
    /// The flags the file was created with.
    public let flags: AudioFileFlags

    /// How often, at least, a WAVE or AIFF header's sizes are rewritten while packets arrive.
    public static let headerUpdateInterval: Duration = .nanoseconds(Int64(WriterState.headerUpdateNanoseconds))

    let state: Guarded<WriterState>

    /// Creates the file at `path` for audio of `format` in a container of `type` (Apple's
    /// `AudioFileCreateWithURL`): `caf`, `wave`, `aiff` (AIFF-C where plain AIFF cannot hold the
    /// format), `aifc`, `m4a`, `m4b`, `mpeg4` (AAC, ALAC, FLAC or Opus), `adts` (AAC), `flac`
    /// (FLAC) or `ogg` (Opus).
    ///
    /// Without ``AudioFileFlags/eraseFile`` an existing file is left alone and creation fails
    /// with `duplicateFileName` (`dupFNErr`, -48). A `channelLayout` is set as
    /// ``setChannelLayout(_:)`` would. Throws `unsupportedDataFormat` for a format the container
    /// cannot hold and `unsupportedFileType` for other containers.
    public init(
        path: String, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags = [],
        channelLayout: AudioChannelLayout? = nil
    ) throws(AudioFileError) {
        var created = try WriterState(path: path, type: type, format: format, flags: flags)
        if let channelLayout {
            do {
                try created.setChannelLayout(channelLayout)
            } catch {
                created.sink.close()
                unlink(path)
                throw error
            }
        }
        self.path = path
        self.flags = flags
        fileType = created.header.fileType
        dataFormat = created.format
        state = Guarded(created)
    }

    /// Creates a file of `type` for audio of `format` in `sink`, storage the program provides
    /// (as Apple's `AudioFileInitializeWithCallbacks` writes through a program's callbacks): the
    /// storage is emptied (its size set to 0) and the header written, as the path initializer
    /// does. ``path`` is the sink's name. The sink is closed by ``close()``, or at once when
    /// creation fails.
    public init(
        sink: any AudioByteSink, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags = [],
        channelLayout: AudioChannelLayout? = nil
    ) throws(AudioFileError) {
        var created = try WriterState(storage: sink, type: type, format: format, flags: flags)
        if let channelLayout {
            do {
                try created.setChannelLayout(channelLayout)
            } catch {
                created.sink.close()
                throw error
            }
        }
        path = sink.name
        self.flags = flags
        fileType = created.header.fileType
        dataFormat = created.format
        state = Guarded(created)
    }

    /// Appends to the CAF file `file` has read, writing through `sink`, storage holding the
    /// same bytes (as Apple's `AudioFileOpenWithCallbacks` and `AudioFileOpenURL` open a file
    /// for writing): packets continue after the last one, and priming and remainder frames, the
    /// magic cookie, the channel layout and the info dictionary carry over and can be set again. At the first change,
    /// what follows the audio data (the packet table; a cookie or layout written after the data)
    /// is cut off, and ``close()`` writes it again; a file closed unchanged is left as it was. A
    /// chunk of another kind after the data fails with `notOptimized`; files other than CAF with
    /// `operationNotSupported`. The sink is closed when this fails.
    public init(appendingTo file: AudioFile, sink: any AudioByteSink) throws(AudioFileError) {
        let resumed: WriterState
        do {
            resumed = try WriterState(resuming: file, storage: sink)
        } catch {
            sink.close()
            throw error
        }
        path = sink.name
        flags = []
        fileType = resumed.header.fileType
        dataFormat = resumed.format
        state = Guarded(resumed)
    }

    deinit {
        state.withLock { _ = try? $0.close() }
    }

    // MARK: Writing

    /// Writes `packetCount` packets from `bytes` starting at packet `startingPacket` (Apple's
    /// `AudioFileWritePackets`) and returns how many were written.
    ///
    /// - Constant-size formats (PCM, G.711, IMA4): as many whole packets as `bytes` holds, at most
    ///   `packetCount`; `descriptions` are not needed. Packets before the end are overwritten in
    ///   place; a `startingPacket` past the end would leave a gap and fails with
    ///   `invalidPacketOffset`.
    /// - Variable-size or variable-duration formats (AAC, …): one description per packet, whose
    ///   `startOffset` and `dataByteSize` say where it lies in `bytes` and whose
    ///   `variableFramesInPacket` gives its frames where the format's frames per packet is 0.
    ///   Packets are appended: `startingPacket` must be ``packetCount``. Missing descriptions,
    ///   or one that runs past `bytes`, fail with `invalidPacketOffset` (as Apple's CAF writer).
    ///
    /// Zero packets write nothing and return 0. A negative count fails with `parameter`
    /// (`kAudio_ParamError`).
    @discardableResult
    public func writePackets(
        startingPacket: Int64, bytes: UnsafeRawBufferPointer,
        descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>? = nil, packetCount: Int
    ) throws(AudioFileError) -> Int {
        try state.withLock { s throws(AudioFileError) in
            try s.writePackets(startingPacket: startingPacket, bytes: bytes, descriptions: descriptions, packetCount: packetCount)
        }
    }

    /// ``writePackets(startingPacket:bytes:descriptions:packetCount:)-(_,UnsafeRawBufferPointer,_,_)`` for arrays.
    @discardableResult
    public func writePackets(
        startingPacket: Int64, bytes: [UInt8], descriptions: [AudioStreamPacketDescription]? = nil, packetCount: Int
    ) throws(AudioFileError) -> Int {
        try bytes.withBytes { raw throws(AudioFileError) in
            guard let descriptions else {
                return try writePackets(startingPacket: startingPacket, bytes: raw, descriptions: nil, packetCount: packetCount)
            }
            return try descriptions.withBuffer { d throws(AudioFileError) in
                try writePackets(startingPacket: startingPacket, bytes: raw, descriptions: d, packetCount: packetCount)
            }
        }
    }

    /// Appends `count` whole packets of a constant-size format held in `bytes`. Throws
    /// `badPropertySize` when `bytes` holds fewer.
    public func writePackets(_ bytes: UnsafeRawBufferPointer, count: Int) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in
            try s.checkOpen()
            guard !s.isDescribed else {
                throw AudioFileError(.invalidPacketOffset, "'\(s.format.formatID)' packets vary in size or duration and need packet descriptions")
            }
            let size = Int(s.format.bytesPerPacket)
            let (n, overflow) = count.multipliedReportingOverflow(by: size)
            guard count >= 0, !overflow, n <= bytes.count else {
                throw AudioFileError(.badPropertySize, "\(count) packets of \(size) bytes need more than the \(bytes.count) given")
            }
            _ = try s.writePackets(startingPacket: s.packets, bytes: bytes, descriptions: nil, packetCount: count)
        }
    }

    /// Writes `bytes` of audio data starting `startingByte` bytes into the data (Apple's
    /// `AudioFileWriteBytes`) and returns how many were written. For constant-size formats only
    /// (variable-size packets need their descriptions: `operationNotSupported`). Writing past the
    /// end extends the data; bytes skipped over read as zeros. A negative offset fails with
    /// `position`.
    @discardableResult
    public func writeBytes(startingByte: Int64, _ bytes: UnsafeRawBufferPointer) throws(AudioFileError) -> Int {
        try state.withLock { s throws(AudioFileError) in try s.writeBytes(startingByte: startingByte, bytes) }
    }

    /// ``writeBytes(startingByte:_:)-(_,UnsafeRawBufferPointer)`` for an array.
    @discardableResult
    public func writeBytes(startingByte: Int64, _ bytes: [UInt8]) throws(AudioFileError) -> Int {
        try bytes.withBytes { raw throws(AudioFileError) in try writeBytes(startingByte: startingByte, raw) }
    }

    /// Writes everything buffered and brings the header's sizes up to date, leaving the file
    /// open for more packets: a reader opening it now sees every packet written so far. Writing
    /// does this by itself at least every ``headerUpdateInterval``.
    public func updateHeader() throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.updateHeader() }
    }

    /// Writes everything buffered, completes the header (sizes, the CAF packet table, chunks
    /// that follow the data) and closes the file (Apple's `AudioFileClose`). Closing again does
    /// nothing; writing after it fails with `notOpen`.
    public func close() throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.close() }
    }

    // MARK: Properties

    /// False once ``close()`` has run.
    public var isOpen: Bool { state.withLock { !$0.isClosed } }

    /// Packets written (`kAudioFilePropertyAudioDataPacketCount`).
    public var packetCount: Int64 { state.withLock { $0.packets } }

    /// Bytes of audio data written (`kAudioFilePropertyAudioDataByteCount`).
    public var dataByteCount: Int64 { state.withLock { $0.dataBytes } }

    /// Frames in the packets written, before priming and remainder are taken off.
    public var totalFrames: Int64 { state.withLock { $0.frames } }

    /// Where the audio data starts in the file (`kAudioFilePropertyDataOffset`).
    public var dataOffset: Int64 { state.withLock { $0.header.dataOffset } }

    /// The largest packet written (`kAudioFilePropertyMaximumPacketSize`); the packet size for
    /// constant-size formats.
    public var maximumPacketSize: Int { state.withLock { Int($0.maximumPacketSize) } }

    /// The magic cookie (`kAudioFilePropertyMagicCookieData`), nil when none is set.
    public var magicCookie: [UInt8]? { state.withLock { $0.metadata.magicCookie } }

    /// Sets the magic cookie (`kAudioFilePropertyMagicCookieData`); an empty cookie removes it.
    /// CAF stores it in a `kuki` chunk: before the audio data when set before the first packet,
    /// in place when a later cookie has the same size, else after the data at close. MPEG-4 and
    /// ADTS take the codec configuration from it (AAC: an ES_Descriptor or a bare
    /// AudioSpecificConfig; ALAC: its ALACSpecificConfig), and refuse a cookie that holds none
    /// or describes other audio with `parameter`. In .flac and MPEG-4 files FLAC's cookie (the
    /// `dfLa` box) must hold a STREAMINFO of the file's channels and depth (else `parameter`),
    /// written at close as the file's STREAMINFO or in the `dfLa` box. WAVE and AIFF hold no cookie: `invalidChunk`,
    /// as Apple's file objects answer for types without one.
    public func setMagicCookie(_ cookie: [UInt8]) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.setMagicCookie(cookie) }
    }

    /// The channel layout (`kAudioFilePropertyChannelLayout`) as a reader of the file reports
    /// it: as set for CAF and AIFF; WAVE's speaker mask as a bitmap layout.
    public var channelLayout: AudioChannelLayout? { state.withLock { $0.channelLayout } }

    /// Sets the channel layout (`kAudioFilePropertyChannelLayout`); nil removes it. CAF writes a
    /// `chan` chunk and AIFF Apple's `CHAN` chunk (the same body), placed as the magic cookie is.
    /// WAVE records a speaker mask in `WAVE_FORMAT_EXTENSIBLE`: the layout must name each channel
    /// by one of the 18 WAVE speakers in WAVE's order (a bitmap, or labels or a layout tag that
    /// do), and once audio is written it can change only where the header is extensible
    /// (`operationNotSupported`). MPEG-4 and ADTS keep the layout and report it but do not
    /// write it (the codec configuration gives the channels). A layout of another channel
    /// count, or one WAVE cannot record, fails with `parameter`.
    public func setChannelLayout(_ layout: AudioChannelLayout?) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.setChannelLayout(layout) }
    }

    /// Priming, remainder and valid frames (`kAudioFilePropertyPacketTableInfo`) as the CAF
    /// `pakt` chunk or the MPEG-4 edit list records them: for variable-size data always
    /// (everything valid unless set), for constant-size data once set. Valid frames follow the
    /// packets written after setting. Nil for WAVE, AIFF and ADTS, which have no packet table.
    public var packetTableInfo: AudioFilePacketTableInfo? { state.withLock { $0.packetTableInfo } }

    /// Sets priming and remainder frames (`kAudioFilePropertyPacketTableInfo`): valid, priming
    /// and remainder frames must add up to ``totalFrames``, else `parameter` (Apple's
    /// `kAudio_ParamError`). CAF writes them in its `pakt` chunk at close — for constant-size data
    /// such as IMA4 too, whose last packet was padded. MPEG-4 writes AAC's as iTunes does (an edit
    /// list and `iTunSMPB`), ALAC's remainder as the last packet's duration. WAVE, AIFF and ADTS:
    /// `unsupportedProperty`.
    public func setPacketTableInfo(_ info: AudioFilePacketTableInfo) throws(AudioFileError) {
        try state.withLock { s throws(AudioFileError) in try s.setPacketTableInfo(info) }
    }
}
