import AudioCore

/// Cuts an ADTS or MPEG audio stream into packets by its frame headers, with the header parsers
/// and rules ``ADTSFormat`` and ``MP3Format`` walk files with:
///
/// - ID3v2 tags at the start are skipped (the first, up to 16 tags and 1 MiB in all, are read
///   for the metadata and `iTunSMPB`);
/// - the first frame, and the first after junk or a discontinuity, counts when the next frame's
///   header agrees with it (same stream); a free-format MPEG stream is `'fmt?'`;
/// - then each frame follows the last; an ADTS header with the sync word but impossible fields,
///   or one that changes the stream, is `'dta?'`, as it makes the file invalid for ``AudioFile``;
/// - MPEG audio: a Xing/Info or VBRI first frame is not a packet; its frame count and LAME tag
///   give the packet count and the packet table info ``MP3Format`` derives;
/// - ADTS packets are the raw data blocks without the header; MPEG packets are whole frames.
///
/// MPEG audio inside a container (a WAVE data chunk) is cut as ``WAVEFormat`` walks it: no ID3v2
/// tags, nothing past the end of the data (chunks after it are not scanned), a frame running
/// past that end stops the walk, and the container's properties are announced with the first
/// frame's data format (or as the header gives them once the data ends without a frame).
final class FrameCutter: StreamCutter {
    enum Kind {
        case adts, mpeg, either
    }

    private enum State {
        /// At the start: ID3v2 tags may come first.
        case tags
        /// Looking for a frame the next one confirms.
        case search
        /// Frames follow one another.
        case walk
    }

    private var kind: Kind
    private var state = State.tags
    /// Bytes of a large tag still to skip.
    private var skip: Int64 = 0
    private(set) var tags: [[UInt8]] = []
    /// Body bytes of the tags kept: at most ``maximumTagBytes`` in all.
    private(set) var tagBytes: Int64 = 0
    static let maximumTagBytes: Int64 = 1 << 20
    private var adts: ADTSFormat.Header?
    private var adtsPCE: ADTSFormat.BitSlice?
    private var mpeg: MPEGAudioHeader?
    private var encoder: MP3Tags.EncoderInfo?
    private var announced = false
    /// Set while the parser is told the stream ends with the bytes it has.
    var atEnd = false
    /// True once bytes before the first frame were passed over as junk.
    private var skippedJunk = false
    /// Where the first audio frame starts.
    private var dataOffset: Int64 = 0
    /// Whole frames (headers included) seen, for the average frame size seeks estimate with.
    private var frameBytes: Int64 = 0
    private var frameCount: Int64 = 0

    /// For MPEG audio inside a container: what its header says, announced with the first frame.
    private let container: StreamProperties?
    /// Where the container's audio data ends (nil: at the end of the stream).
    private let dataEnd: Int64?

    init(kind: Kind) {
        self.kind = kind
        container = nil
        dataEnd = nil
    }

    /// A cutter for MPEG audio frames in a container's audio data, from `facts.dataOffset` to
    /// `dataEnd` (nil: to the end of the stream). `facts` are the container header's properties.
    init(mpegIn facts: StreamProperties, dataEnd: Int64?) {
        kind = .mpeg
        state = .search
        container = facts
        self.dataEnd = dataEnd
    }

    func cut(_ b: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        guard let dataEnd else { return try cutFrames(b, at: base, sink: sink) }
        let left = dataEnd - base
        if left > Int64(b.count) { return try cutFrames(b, at: base, sink: sink) }
        if left > 0 {
            // The end of the data is in view: what the frames leave before it is not audio.
            let wasAtEnd = atEnd
            atEnd = true
            defer { atEnd = wasAtEnd }
            _ = try cutFrames(UnsafeRawBufferPointer(rebasing: b[0..<Int(left)]), at: base, sink: sink)
        }
        try announceIfNeeded(at: dataEnd, sink: sink, withoutFrame: true)
        return CutStep(consumed: b.count, need: 1)  // the data's end or after it
    }

    /// The stream ended: MPEG audio in a container that had no frame is ready with no packets.
    func streamEnded(sink: PacketSink) throws(AudioFileStreamError) {
        try announceIfNeeded(at: 0, sink: sink, withoutFrame: true)
    }

    private func cutFrames(_ b: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        while true {
            if skip > 0 {
                let n = Int(min(skip, Int64(b.count - c)))
                c += n
                skip -= Int64(n)
                if skip > 0 { return CutStep(consumed: c, need: 1) }
            }
            let available = b.count - c
            switch state {
            case .tags:
                if available < 10 { return CutStep(consumed: c, need: 10) }
                guard let size = MP3Tags.id3v2Size(Array(b[c..<(c + 10)])) else {
                    state = .search
                    continue
                }
                // Tags are kept for the metadata up to one of 1 MiB in all (and 16 of them);
                // the rest are skipped, as a larger one is.
                if tags.count < 16 && tagBytes + size - 10 <= Self.maximumTagBytes {
                    if Int64(available) < size { return CutStep(consumed: c, need: Int(size)) }
                    tags.append(Array(b[c..<(c + Int(size))]))
                    tagBytes += size - 10
                    c += Int(size)
                } else {
                    skip = size
                }
            case .search:
                switch try search(b, from: c, base: base, sink: sink) {
                case .found(let at):
                    c = at
                    state = .walk
                case .needMore(let at, let need):
                    return CutStep(consumed: at, need: need)
                }
            case .walk:
                if let stream = adts {
                    if available < 7 { return CutStep(consumed: c, need: 7) }
                    guard let header = ADTSFormat.Header(b, c) else {
                        if ADTSFormat.Header.hasSync(b, c) {
                            throw AudioFileStreamError(.invalidFile, "corrupt ADTS header (impossible sampling index or frame length)", offset: base + Int64(c))
                        }
                        c += 1  // junk where a frame should start
                        state = .search
                        continue
                    }
                    guard header.sameStream(as: stream) else {
                        throw AudioFileStreamError(
                            .invalidFile,
                            "ADTS header changes the stream (sampling index \(header.samplingIndex), channels \(header.channelConfiguration), profile \(header.profile))",
                            offset: base + Int64(c))
                    }
                    if available < header.frameLength { return CutStep(consumed: c, need: header.frameLength) }
                    try announceIfNeeded(at: base + Int64(c), sink: sink)
                    sink.append(
                        UnsafeRawBufferPointer(rebasing: b[(c + header.headerLength)..<(c + header.frameLength)]),
                        frames: header.rawDataBlocks == 1 ? 0 : UInt32(1024 * header.rawDataBlocks))
                    c += header.frameLength
                    frameBytes += Int64(header.frameLength)
                    frameCount += 1
                } else if let stream = mpeg {
                    if available < 4 { return CutStep(consumed: c, need: 4) }
                    guard let header = MPEGAudioHeader(b, c), header.sameStream(as: stream) else {
                        // Not this stream's frame: junk (an ID3v2 tag between files joined end
                        // to end, say), or a stream of another format joined on, which the
                        // search takes up when its frames confirm it.
                        state = .search
                        continue
                    }
                    if available < header.frameLength { return CutStep(consumed: c, need: header.frameLength) }
                    if header.channels != stream.channels, container == nil, announced {
                        // Mono after stereo or the reverse: a change of format once two more
                        // frames of the new channel count follow; else a frame of this stream.
                        switch confirm(b, frame: c, header, following: 2, sameChannels: true) {
                        case .needMore(let need): return CutStep(consumed: c, need: need)
                        case .confirmed: try changeFormat(to: header, at: base + Int64(c), sink: sink)
                        case .refuted: break
                        }
                    }
                    try announceIfNeeded(at: base + Int64(c), sink: sink)
                    sink.append(UnsafeRawBufferPointer(rebasing: b[c..<(c + header.frameLength)]), frames: 0)
                    c += header.frameLength
                    frameBytes += Int64(header.frameLength)
                    frameCount += 1
                } else {
                    state = .search
                }
            }
        }
    }

    private enum Search {
        case found(Int)
        case needMore(consumed: Int, need: Int)
    }

    /// The next frame at or after `from` that the following header confirms (and that continues
    /// the stream, once there is one). Bytes before a candidate are junk and consumed.
    private func search(_ b: UnsafeRawBufferPointer, from: Int, base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> Search {
        var j = from
        let count = b.count
        while true {
            // The next byte pair that could start a header of the kinds looked for.
            while j + 1 < count {
                if b[j] == 0xFF {
                    let second = b[j + 1]
                    let adtsSync = second & 0xF6 == 0xF0
                    let mpegSync = second & 0xE0 == 0xE0 && second & 0x06 != 0
                    switch kind {
                    case .adts where adtsSync: break
                    case .mpeg where mpegSync: break
                    case .either where adtsSync || mpegSync: break
                    default:
                        j += 1
                        continue
                    }
                    break
                }
                j += 1
            }
            if j > from { skippedJunk = true }
            if j + 1 >= count { return .needMore(consumed: j, need: 2) }
            let isADTS = b[j + 1] & 0x06 == 0
            let headerBytes = isADTS ? 7 : 4
            if count - j < headerBytes { return .needMore(consumed: j, need: headerBytes) }
            if isADTS {
                if let header = ADTSFormat.Header(b, j), adts.map({ header.sameStream(as: $0) }) ?? (mpeg == nil) {
                    let next = j + header.frameLength
                    let last = atEnd && next == count
                    if count - next < 7 && !last {
                        // No confirming header can follow: at the end, the candidate is not a frame.
                        if !atEnd { return .needMore(consumed: j, need: header.frameLength + 7) }
                    } else if last || ADTSFormat.Header(b, next).map({ $0.sameStream(as: header) }) == true {
                        if adts == nil { try begin(adts: header, frame: UnsafeRawBufferPointer(rebasing: b[j..<next]), at: base + Int64(j)) }
                        return .found(j)
                    }
                }
            } else {
                switch MPEGAudioHeader.parse(b, j) {
                case .header(let header) where adts == nil:
                    // A frame of another format than the stream's so far starts a new stream
                    // (MP3 files of other rates joined end to end) once two more frames of it
                    // follow; a frame of the stream's format needs one. Inside a container
                    // (WAVE), whose header gives the format, other frames are junk, as
                    // AudioFile walks them.
                    let changes = mpeg.map { !header.sameStream(as: $0) } ?? false
                    switch changes && container != nil ? .refuted : confirm(b, frame: j, header, following: changes ? 2 : 1, sameChannels: changes) {
                    case .needMore(let need):
                        return .needMore(consumed: j, need: need)
                    case .refuted:
                        break
                    case .confirmed:
                        if changes {
                            try changeFormat(to: header, at: base + Int64(j), sink: sink)
                            return .found(j)
                        }
                        if mpeg == nil {
                            mpeg = header
                            kind = .mpeg
                            // The first frame may be a Xing/Info or VBRI header rather than audio.
                            let frame = Array(b[j..<(j + min(header.frameLength, 4096))])
                            if let info = MP3Tags.encoderInfo(frame, header: header) {
                                encoder = info
                                return .found(j + header.frameLength)
                            }
                        }
                        return .found(j)
                    }
                case .freeFormat where mpeg == nil && adts == nil && !skippedJunk:
                    // At the start of the audio, as AudioFile refuses it; after junk it is junk.
                    throw AudioFileStreamError(
                        .unsupportedDataFormat, "free-format MPEG audio (bitrate index 0) is not supported", offset: base + Int64(j))
                default:
                    break
                }
            }
            j += 1
            skippedJunk = true
        }
    }

    private enum Confirmation {
        case confirmed, refuted
        case needMore(Int)
    }

    /// Whether `following` frames of `header`'s stream (and, with `sameChannels`, its channel
    /// count) follow the frame at `frame` (or the frames reach exactly the end of the stream):
    /// how a frame found after junk, or a new format, is told from a chance sync word.
    /// `needMore` counts from `frame`.
    private func confirm(
        _ b: UnsafeRawBufferPointer, frame: Int, _ header: MPEGAudioHeader, following: Int, sameChannels: Bool
    ) -> Confirmation {
        var p = frame + header.frameLength
        for _ in 0..<following {
            if atEnd && p == b.count { return .confirmed }
            if b.count - p < 4 { return atEnd ? .refuted : .needMore(p + 4 - frame) }
            guard let next = MPEGAudioHeader(b, p), next.sameStream(as: header), !sameChannels || next.channels == header.channels
            else { return .refuted }
            p += next.frameLength
        }
        return .confirmed
    }

    /// A stream of another format (version, layer, rate or channel count) follows (MP3 files
    /// joined end to end): the packets so far
    /// are delivered, then the new data format is reported and the parser says again that it
    /// is ready to produce packets, before the first packet of the new format.
    private func changeFormat(to header: MPEGAudioHeader, at offset: Int64, sink: PacketSink) throws(AudioFileStreamError) {
        mpeg = header
        encoder = nil
        frameBytes = 0
        frameCount = 0
        // Inside a container the container's flags are kept, as for the first format.
        var format = MP3Format.streamDescription(header, channels: header.channels).format
        if let flags = container?.dataFormat?.formatFlags { format.formatFlags = flags }
        guard announced, let stream = sink.stream else { return }
        stream.announceFormatChange(format, packetSizeUpperBound: UInt32(Self.largestFrame(header)))
    }

    /// Takes the first ADTS frame's header (and program config element) as the stream's.
    private func begin(adts header: ADTSFormat.Header, frame: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileStreamError) {
        if header.channelConfiguration == 0 {
            var reader = WindowReader(MemoryByteSource(Array(frame)))
            do {
                adtsPCE = try ADTSFormat.programConfig(&reader, at: 0, header: header)
            } catch {
                throw AudioFileStreamError(AudioFileError(error.code, error.reason, chunk: error.chunk, offset: offset))
            }
        }
        adts = header
        kind = .adts
    }

    /// Reports the stream's properties before its first packet (for a container whose data
    /// ends `withoutFrame`, those its header gives, with no packets).
    private func announceIfNeeded(at offset: Int64, sink: PacketSink, withoutFrame: Bool = false) throws(AudioFileStreamError) {
        guard !announced, let stream = sink.stream else { return }
        if withoutFrame {
            guard var facts = container else { return }
            announced = true
            facts.packetCount = 0
            facts.ready = true
            try stream.announce(facts)
            return
        }
        announced = true
        dataOffset = offset
        var facts = StreamProperties()
        for tag in tags { facts.info += ID3v2.parse(tag) }
        facts.dataOffset = offset
        facts.ready = true
        if let header = adts {
            let description: (format: AudioStreamBasicDescription, layout: AudioChannelLayout?, cookie: [UInt8])
            do {
                description = try ADTSFormat.streamDescription(header, pce: adtsPCE, offset: offset)
            } catch {
                throw AudioFileStreamError(error)
            }
            facts.fileType = .adts
            facts.dataFormat = description.format
            facts.magicCookie = description.cookie
            facts.channelLayout = description.layout
            // 6144 bits per channel per raw data block (ISO/IEC 14496-3, 4.5.3.2), as AudioFile bounds AAC.
            let bound = UInt32(768 * Int(description.format.channelsPerFrame))
            facts.packetSizeUpperBound = bound
            facts.maximumPacketSize = bound
        } else if let header = mpeg {
            let described = MP3Format.streamDescription(header, channels: header.channels)
            facts.fileType = described.fileType
            facts.dataFormat = described.format
            let bound = UInt32(Self.largestFrame(header))
            facts.packetSizeUpperBound = bound
            facts.maximumPacketSize = bound
            let smpb = tags.lazy.compactMap(MP3Tags.iTunSMPB).first
            var total: Int64?
            if let frames = encoder?.frames {
                facts.packetCount = UInt64(frames)
                total = Int64(frames) * Int64(header.samplesPerFrame)
            } else if let smpb {
                let fields = smpb.split(separator: " ").compactMap { UInt64($0, radix: 16) }
                if fields.count >= 4, fields[1] <= UInt64(Int32.max), fields[2] <= UInt64(Int32.max), fields[3] <= UInt64(Int32.max) {
                    total = Int64(fields[1] + fields[2] + fields[3])
                }
            }
            let lame = encoder.flatMap { e in
                e.delay.flatMap { delay in e.padding.map { MP3Gapless.LAME(delay: delay, padding: $0, declaredFrames: total) } }
            }
            if let total {
                facts.packetTableInfo = MP3Gapless.packetTableInfo(iTunSMPB: smpb, lame: lame, totalFrames: total)?.info
            }
            if let container {
                // The container's file type, data offset, sizes, layout and metadata; the frame's format.
                let format = facts.dataFormat.map { format in
                    var format = format
                    format.formatFlags = container.dataFormat?.formatFlags ?? format.formatFlags
                    return format
                }
                (facts.fileType, facts.dataFormat, facts.dataOffset) = (container.fileType, format, container.dataOffset)
                (facts.byteCount, facts.channelLayout, facts.info) = (container.byteCount, container.channelLayout, container.info)
            }
        }
        try stream.announce(facts)
    }

    /// The longest frame of `header`'s version and layer at its rate: the top bitrate, padded.
    static func largestFrame(_ header: MPEGAudioHeader) -> Int {
        var top = header
        top.bitrateIndex = 14
        top.padding = true
        return top.frameLength
    }

    func restart(at offset: Int64, packet: Int64?) {
        skip = 0
        // Before any frame the stream may still open with tags; after, frames are searched for.
        if adts != nil || mpeg != nil || state != .tags { state = .search }
    }

    /// The average frame's bytes so far (the first frame's bitrate before any): seeks in
    /// ADTS and MPEG audio are estimates.
    var averageBytesPerPacket: Double? {
        if frameCount > 0 { return Double(frameBytes) / Double(frameCount) }
        if let mpeg { return Double(mpeg.frameLength) }
        if let adts { return Double(adts.frameLength) }
        return nil
    }

    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        guard packet >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is negative") }
        if let estimate = tocOffset(ofPacket: packet) { return (estimate, true) }
        guard let average = averageBytesPerPacket else {
            throw AudioFileStreamError(.dataUnavailable, "no frame has been parsed yet")
        }
        let estimate = (Double(packet) * average).rounded()
        guard estimate < 9e18 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is too far") }
        return (Int64(estimate), true)
    }

    /// Where a Xing header's table of contents puts `packet`: its 100 entries give the byte
    /// position, in 256ths of the stream's bytes from the Xing frame on, at each percent of its
    /// frames; between entries the position is interpolated. Relative to the first audio frame.
    private func tocOffset(ofPacket packet: Int64) -> Int64? {
        guard let encoder, let toc = encoder.toc, toc.count == 100, let frames = encoder.frames, frames > 0,
              let bytes = encoder.bytes, bytes > 0, let stream = mpeg
        else { return nil }
        let percent = min(99.999, max(0, Double(packet) / Double(frames) * 100))
        let i = Int(percent)
        let a = Double(toc[i]), b = i < 99 ? Double(toc[i + 1]) : 256
        let position = (a + (b - a) * (percent - Double(i))) / 256 * Double(bytes)
        return max(0, Int64(position.rounded()) - Int64(stream.frameLength))
    }
}
