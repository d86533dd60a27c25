public import AudioCore

/// A push parser for audio arriving a piece at a time (Apple's Audio File Stream Services):
/// bytes from a network connection or a pipe go in through ``parse(_:flags:)`` (any collection of
/// bytes) or ``parse(bytes:flags:)`` (Apple's form, a raw buffer), and the
/// parser calls back with each property as it becomes known and with whole packets.
///
/// Both callbacks are called synchronously from inside ``parse(bytes:flags:)``, as Apple's
/// `AudioFileStream_PropertyListenerProc` and `AudioFileStream_PacketsProc` are. Properties are
/// reported in Apple's order — file format, data format, magic cookie, data offset, audio data
/// byte count, audio data packet count, packet table info, packet size upper bound — each where
/// the stream says it, then ``AudioFileStreamPropertyID/readyToProducePackets``: the moment to
/// create an audio queue with ``dataFormat`` and ``magicCookie``. Packets follow.
///
/// Streams read: ADTS, MPEG audio (Layers I–III, ID3v2 tags skipped, the Xing/Info frame left out
/// and its LAME tag turned into ``packetTableInfo``), CAF (with a data size of -1 too; a `pakt`
/// must come before the data), WAVE, RF64 and BW64 (MPEG audio in them cut into its frames as
/// ``AudioFile`` walks them, up to the end of the data chunk, with the data format announced
/// from the first frame's header), AIFF and AIFF-C, and MPEG-4 files whose
/// `moov` comes before `mdat` (others end in `AudioFileStreamError.Code.notOptimized`).
/// The container headers are parsed by the same ``AudioFileFormat`` conformers ``AudioFile``
/// uses, and the packets delivered are exactly those ``AudioFile`` reads from the same file,
/// whatever the pieces the bytes arrive in. The format is found by magic bytes after the first
/// 64 bytes, else by the type hint; a stream neither places is searched for ADTS or MPEG audio
/// frames.
///
/// **Memory.** Between calls the parser keeps at most the container header it is waiting for
/// (everything before the audio data of a chunked file — bounded at
/// ``maximumHeaderBytes`` — or ID3v2 tags of up to 1 MiB in all) or else one packet plus the header
/// that confirms it: for CAF, WAVE, AIFF and MPEG-4, less than the largest packet; for ADTS, less
/// than one frame plus 7 bytes; for MPEG audio (in WAVE too), one frame plus 4 bytes. While
/// ``parse(bytes:flags:)`` runs, packets of variable size are copied into a batch of at most 64 KiB (or one packet)
/// handed to the packets callback; constant-size packets are handed over in the caller's memory.
///
/// **A change of format.** MPEG audio that goes on in another version, layer, rate or channel
/// count (MP3 files
/// joined end to end) is taken up once two more frames of the new format follow its first: the
/// packets before it are delivered, then ``AudioFileStreamPropertyID/dataFormat`` and
/// ``AudioFileStreamPropertyID/readyToProducePackets`` are reported again, and the new format's
/// packets follow; no frame is dropped. Confirming a new format keeps up to three frames. MPEG
/// audio inside a WAVE file keeps its header's format.
///
/// **Junk and discontinuities.** Junk before an ADTS or MPEG audio stream, between its frames and
/// after ``AudioFileStreamParseFlags/discontinuity`` is skipped: a frame counts after junk when the
/// next frame's header confirms it, as ``AudioFile`` counts them. After a
/// ``seek(toPacket:)`` the next bytes are those at the offset it returned, passed with the
/// discontinuity flag.
///
/// A parser is used from one thread at a time, as Apple's is. The callbacks may read the
/// parser's properties and call ``close()``; ``parse(bytes:flags:)``
/// and ``seek(toPacket:)`` from inside them fail with
/// `AudioFileStreamError.Code.illegalOperation`. A malformed stream ends in an
/// `AudioFileStreamError`; the parser then refuses further bytes with the same error.
public final class AudioFileStream {
    /// The property listener: the parser, the property now known, and the flags (see
    /// ``AudioFileStreamPropertyFlags``).
    public typealias PropertyListener = (AudioFileStream, AudioFileStreamPropertyID, inout AudioFileStreamPropertyFlags) -> Void
    /// The packets callback: the parser, the packets' bytes (valid only during the call) and their
    /// descriptions, whose offsets are relative to those bytes; nil for constant-size packets.
    public typealias PacketsHandler = (AudioFileStream, UnsafeRawBufferPointer, [AudioStreamPacketDescription]?) -> Void

    /// The most bytes of container header (everything before the audio data) the parser keeps
    /// while waiting for the audio data to start: 64 MiB.
    public static let maximumHeaderBytes = 64 << 20

    let typeHint: AudioFileType?
    let propertyListener: PropertyListener
    let packetsHandler: PacketsHandler

    /// What is known so far.
    var known = StreamProperties()
    /// Flags the listener set (``AudioFileStreamPropertyFlags/cacheProperty``), by property.
    var listenerFlags: [AudioFileStreamPropertyID: AudioFileStreamPropertyFlags] = [:]

    /// Before the audio data: the container header being gathered (nil once the packets phase
    /// has begun).
    var header: HeaderGatherer? = HeaderGatherer()
    /// Cuts packets once the audio data has started.
    var cutter: (any StreamCutter)?
    let sink = PacketSink()

    /// Bytes kept between calls: the header being gathered or a packet being completed.
    var pending: [UInt8] = []
    /// Bytes ``pending`` must hold before parsing goes on.
    var pendingNeed = 0
    /// Stream offset of the next byte to parse (of `pending[0]` when `pending` is not empty).
    var position: Int64 = 0
    /// Where the next bytes start after a seek, and the packet there.
    var seekTarget: (offset: Int64, packet: Int64)?

    var isClosed = false
    var inCallback = false
    var failure: AudioFileStreamError?

    /// The most bytes ``pending`` has held (for tests of the memory bound).
    package private(set) var maximumRetainedBytes = 0

    /// Opens a parser (Apple's `AudioFileStreamOpen`). `fileTypeHint` names the container where
    /// the bytes cannot (a stream of MPEG audio or ADTS frames after junk, say); `propertyListener`
    /// and `packets` are called from inside ``parse(bytes:flags:)``.
    public init(
        fileTypeHint: AudioFileType? = nil,
        propertyListener: @escaping (AudioFileStream, AudioFileStreamPropertyID, inout AudioFileStreamPropertyFlags) -> Void,
        packets: @escaping (AudioFileStream, UnsafeRawBufferPointer, [AudioStreamPacketDescription]?) -> Void
    ) throws(AudioFileStreamError) {
        typeHint = fileTypeHint
        self.propertyListener = propertyListener
        packetsHandler = packets
        pendingNeed = HeaderGatherer.detectionBytes
        sink.stream = self
    }

    /// Parses the next bytes of the stream (Apple's `AudioFileStreamParseBytes`), calling the
    /// property listener and the packets callback as properties become known and packets
    /// complete. Pass ``AudioFileStreamParseFlags/discontinuity`` when the bytes do not follow the
    /// previous ones (after ``seek(toPacket:)``, or when some were lost).
    ///
    /// At the end of the stream, call it once with no bytes: an ADTS or MPEG audio frame after
    /// junk that no following header can confirm then counts if it ends exactly there, as
    /// ``AudioFile`` counts a file's last frame; a FLAC stream's last frame, which no header
    /// follows, is delivered then.
    ///
    /// Throws a malformed stream's error (the parser is unusable afterwards),
    /// `AudioFileStreamError.Code.illegalOperation` after ``close()`` or from inside a callback.
    public func parse(bytes: UnsafeRawBufferPointer, flags: AudioFileStreamParseFlags = []) throws(AudioFileStreamError) {
        guard !isClosed else { throw AudioFileStreamError(.illegalOperation, "the stream is closed") }
        guard !inCallback else { throw AudioFileStreamError(.illegalOperation, "parse called from inside a callback of the same stream") }
        if let failure { throw failure }
        do {
            if flags.contains(.discontinuity) || seekTarget != nil { discontinuity() }
            if bytes.isEmpty {
                try endStream()
            } else {
                try feed(bytes)
            }
            sink.flush()
            if isClosed { close() }
        } catch {
            sink.flush()  // the packets before the failure
            failure = error
            pending = []
            throw error
        }
    }

    /// Closes the parser (Apple's `AudioFileStreamClose`): later calls fail with
    /// `AudioFileStreamError.Code.illegalOperation`. Closing from inside a callback stops the
    /// parse that called it.
    public func close() {
        isClosed = true
        // From inside a callback the parse under way still reads these; it drops them on return.
        guard !inCallback else { return }
        pending = []
        cutter = nil
        header = nil
    }

    // MARK: Properties

    /// `kAudioFileStreamProperty_FileFormat`, once known.
    public var fileFormat: AudioFileType? { known.fileType }
    /// `kAudioFileStreamProperty_DataFormat`, once known.
    public var dataFormat: AudioStreamBasicDescription? { known.dataFormat }
    /// `kAudioFileStreamProperty_MagicCookieData`, where the stream has one.
    public var magicCookie: [UInt8]? { known.magicCookie }
    /// `kAudioFileStreamProperty_ReadyToProducePackets`.
    public var readyToProducePackets: Bool { known.ready }
    /// `kAudioFileStreamProperty_PacketTableInfo`, where the stream records one.
    public var packetTableInfo: AudioFilePacketTableInfo? { known.packetTableInfo }
    /// `kAudioFileStreamProperty_DataOffset`: where the audio data starts in the stream.
    public var dataOffset: Int64? { known.dataOffset }
    /// `kAudioFileStreamProperty_AudioDataByteCount`, where the header says it.
    public var audioDataByteCount: Int64? { known.byteCount.map { Int64(clamping: $0) } }
    /// `kAudioFileStreamProperty_AudioDataPacketCount`, where the header says it.
    public var audioDataPacketCount: Int64? { known.packetCount.map { Int64(clamping: $0) } }
    /// `kAudioFileStreamProperty_ChannelLayout`, where the stream records one.
    public var channelLayout: AudioChannelLayout? { known.channelLayout }
    /// `kAudioFileStreamProperty_MaximumPacketSize`: the largest packet (the format's bound where
    /// the header does not list the packets).
    public var maximumPacketSize: Int? { known.maximumPacketSize.map { Int($0) } }
    /// `kAudioFileStreamProperty_PacketSizeUpperBound`: the largest packet the format allows.
    public var packetSizeUpperBound: Int? { known.packetSizeUpperBound.map { Int($0) } }
    /// `kAudioFileStreamProperty_InfoDictionary`'s entries: the stream's metadata under Apple's
    /// keys (`title`, `artist`, …), in stream order.
    public var metadata: [(key: String, value: String)] { known.info }

    /// The flags the property listener left for `property` (``AudioFileStreamPropertyFlags/cacheProperty``
    /// where it asked the parser to keep the value).
    public func listenerFlags(for property: AudioFileStreamPropertyID) -> AudioFileStreamPropertyFlags {
        listenerFlags[property] ?? []
    }

    // MARK: Driving

    /// Drops what was held from before a discontinuity and tells the cutter where the bytes now
    /// come from.
    private func discontinuity() {
        pending.removeAll(keepingCapacity: true)
        guard let cutter else {
            // Still gathering the header: a jump there cannot be followed; start over.
            if header != nil {
                header = HeaderGatherer()
                pendingNeed = HeaderGatherer.detectionBytes
                position = 0
            }
            seekTarget = nil
            return
        }
        if let target = seekTarget {
            position = target.offset
            cutter.restart(at: target.offset, packet: target.packet)
        } else {
            cutter.restart(at: position, packet: nil)
        }
        pendingNeed = 0
        seekTarget = nil
    }

    /// Feeds `input` to the header gatherer and then the cutter, keeping what neither can use yet.
    private func feed(_ input: UnsafeRawBufferPointer) throws(AudioFileStreamError) {
        var start = 0
        while start < input.count, !isClosed {
            if header != nil {
                let take = min(max(pendingNeed - pending.count, 0), input.count - start)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start..<(start + take)]))
                start += take
                noteRetained()
                guard pending.count >= pendingNeed else { return }
                try advanceHeader()
                continue
            }
            guard let cutter else { return }
            if pending.isEmpty {
                let rest = UnsafeRawBufferPointer(rebasing: input[start...])
                let step = try cutter.cut(rest, at: position, sink: sink)
                try check(step, available: rest.count)
                start += step.consumed
                position += Int64(step.consumed)
                if start < input.count {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start...]))
                    pendingNeed = step.need
                    start = input.count
                    noteRetained()
                }
            } else {
                let take = min(max(pendingNeed - pending.count, 0), input.count - start)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start..<(start + take)]))
                start += take
                noteRetained()
                guard pending.count >= pendingNeed else { return }
                let step = try pending.withStreamBytes { held throws(AudioFileStreamError) in
                    try cutter.cut(held, at: position, sink: sink)
                }
                try check(step, available: pending.count)
                position += Int64(step.consumed)
                let left = pending.count - step.consumed
                if left <= take {
                    // What is left came from `input`: go on parsing it in place.
                    start -= left
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.removeFirst(step.consumed)
                    pendingNeed = step.need
                }
            }
        }
    }

    /// The end of the stream: what the cutter holds is all there is.
    private func endStream() throws(AudioFileStreamError) {
        // A stream shorter than the bytes the container is recognised by: recognise it by them.
        if header != nil, !pending.isEmpty, pending.count < pendingNeed, pendingNeed == HeaderGatherer.detectionBytes {
            pendingNeed = pending.count
            try advanceHeader()
        }
        if let flac = cutter as? FLACStreamCutter {
            // The frames the bytes held hold, then the last one, which ends with the stream.
            let step = try pending.withStreamBytes { held throws(AudioFileStreamError) in
                try flac.cut(held, at: position, sink: sink)
            }
            pending.removeFirst(step.consumed)
            pending.withUnsafeBytes { flac.finish($0, sink: sink) }
            position += Int64(step.consumed + pending.count)
            pending.removeAll()
            return
        }
        if let ending = cutter as? any EndingStreamCutter {
            if !pending.isEmpty {
                let used = try pending.withStreamBytes { held throws(AudioFileStreamError) in
                    try ending.finish(held, at: position, sink: sink)
                }
                position += Int64(used)
                pending.removeAll()
            }
            return
        }
        guard let cutter = cutter as? FrameCutter else { return }
        if !pending.isEmpty {
            cutter.atEnd = true
            let step = try pending.withStreamBytes { held throws(AudioFileStreamError) in
                try cutter.cut(held, at: position, sink: sink)
            }
            cutter.atEnd = false
            position += Int64(step.consumed)
            pending.removeFirst(step.consumed)
        }
        try cutter.streamEnded(sink: sink)
    }

    /// Refuses a cutter step that would make no progress (a cutter bug, never the data's).
    private func check(_ step: CutStep, available: Int) throws(AudioFileStreamError) {
        guard step.consumed <= available, step.consumed == available || step.need > available - step.consumed else {
            throw AudioFileStreamError(.unspecified, "the parser made no progress", offset: position)
        }
    }

    private func noteRetained() {
        if pending.count > maximumRetainedBytes { maximumRetainedBytes = pending.count }
    }

    /// Runs the header gatherer over ``pending``; once the audio data starts, reports the
    /// properties and hands what follows the header to the cutter.
    private func advanceHeader() throws(AudioFileStreamError) {
        guard var gatherer = header else { return }
        let result = try pending.withStreamBytes { held throws(AudioFileStreamError) in
            try gatherer.advance(held, typeHint: typeHint)
        }
        header = gatherer
        switch result {
        case .needMore(let count):
            guard count > pending.count else {
                throw AudioFileStreamError(.unspecified, "the header parser made no progress", offset: 0)
            }
            guard count <= Self.maximumHeaderBytes else {
                throw AudioFileStreamError(
                    .invalidFile, "the header before the audio data is larger than \(Self.maximumHeaderBytes) bytes", offset: 0)
            }
            pendingNeed = count
        case .frames(let cutter):
            // ADTS or MPEG audio: the frame cutter finds the stream itself, from byte 0.
            header = nil
            self.cutter = cutter
            try replayPending(from: 0)
        case .container(let facts, let cutter, let headerEnd):
            header = nil
            self.cutter = cutter
            if let facts { try announce(facts) }
            try replayPending(from: headerEnd)
        }
    }

    /// Parses what ``pending`` holds from `offset` on with the cutter that now exists.
    private func replayPending(from offset: Int) throws(AudioFileStreamError) {
        let rest = Array(pending[min(offset, pending.count)...])
        pending.removeAll(keepingCapacity: true)
        pendingNeed = 0
        position = Int64(offset)
        try rest.withStreamBytes { bytes throws(AudioFileStreamError) in try feed(bytes) }
    }

    /// Records what the header says and tells the listener, in Apple's order, then says the
    /// parser is ready to produce packets.
    func announce(_ facts: StreamProperties) throws(AudioFileStreamError) {
        sink.flush()
        let ready = facts.ready
        known = facts
        known.ready = false
        let order: [(AudioFileStreamPropertyID, Bool)] = [
            (.fileFormat, facts.fileType != nil), (.dataFormat, facts.dataFormat != nil),
            (.magicCookieData, facts.magicCookie != nil), (.dataOffset, facts.dataOffset != nil),
            (.audioDataByteCount, facts.byteCount != nil), (.audioDataPacketCount, facts.packetCount != nil),
            (.packetTableInfo, facts.packetTableInfo != nil), (.packetSizeUpperBound, facts.packetSizeUpperBound != nil),
        ]
        for (property, isKnown) in order where isKnown && !isClosed { tell(property) }
        if ready && !isClosed {
            known.ready = true
            tell(.readyToProducePackets)
        }
    }

    /// The stream goes on in another data format (MPEG audio files of other rates joined end to
    /// end): the packets of the old format are delivered, then the new ``dataFormat`` is
    /// reported and ``AudioFileStreamPropertyID/readyToProducePackets`` again, before the first
    /// packet of the new format.
    func announceFormatChange(_ format: AudioStreamBasicDescription, packetSizeUpperBound bound: UInt32) {
        sink.flush()
        guard !isClosed else { return }
        known.dataFormat = format
        known.packetSizeUpperBound = bound
        known.maximumPacketSize = max(known.maximumPacketSize ?? 0, bound)
        known.ready = false
        tell(.dataFormat)
        guard !isClosed else { return }
        known.ready = true
        tell(.readyToProducePackets)
    }

    private func tell(_ property: AudioFileStreamPropertyID) {
        var flags: AudioFileStreamPropertyFlags = [.propertyIsCached]
        inCallback = true
        propertyListener(self, property, &flags)
        inCallback = false
        flags.remove(.propertyIsCached)
        if !flags.isEmpty { listenerFlags[property] = flags }
    }

    /// Hands packets to the packets callback.
    func deliver(_ bytes: UnsafeRawBufferPointer, _ descriptions: [AudioStreamPacketDescription]?) {
        guard !isClosed else { return }
        inCallback = true
        packetsHandler(self, bytes, descriptions)
        inCallback = false
    }
}
