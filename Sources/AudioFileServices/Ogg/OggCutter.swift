import AudioCore

/// Cuts the packets out of an Ogg stream (`aqplay -`, internet radio), page by page, from
/// byte 0: the first logical stream whose beginning-of-stream page holds the identification
/// header of a mapped codec (``OggCodecMapping``: an `OpusHead`) is read, pages of other serial
/// numbers are skipped, packets continued across pages are gathered.
///
/// The properties are announced once the header packets have passed: for Opus `'opus'` at
/// 48 kHz, the `OpusHead` packet as magic cookie, the pre-skip as priming frames (the valid
/// frames are not known until the last page; a stream reports none). For Vorbis they wait for
/// the first audio packet, whose quarter block is the priming: `'vorb'` at the stream's rate,
/// the three headers as magic cookie. A page whose CRC fails after the headers
/// is skipped (its packets are lost, as a radio stream's would be) and the cutter finds the next
/// capture pattern; before the identification header it fails the stream. Bytes that are not a
/// page end the stream, as they end the file reader's walk. A packet that gives no duration (an
/// Opus TOC that says none) is dropped. Reading ends at the stream's end-of-stream page: a
/// chained stream's later links are not played.
final class OggCutter: StreamCutter {
    private var serial: UInt32?
    /// The stream's codec, once its identification header is parsed.
    private var mapping: (any OggCodecMapping)?
    /// True once every header packet has passed.
    private var tagsDone = false
    /// The header packet being gathered (1: the comment header).
    private var headerIndex = 1
    /// True once the properties have been reported.
    private var announced = false
    /// Where the audio packets start: the end of the page the last header ends on.
    private var dataOffset: Int64?
    /// The packet in progress (it may continue on the next page).
    private var packet: [UInt8] = []
    /// True while ``packet`` holds the start of a packet whose rest is to come.
    private var open = false
    private var ended = false
    /// True while looking for the capture pattern after a damaged page.
    private var resyncing = false
    /// Packets handed over.
    private var delivered: Int64 = 0

    func cut(_ b: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        while c < b.count {
            if ended { return CutStep(consumed: b.count, need: 1) }
            let rest = UnsafeRawBufferPointer(rebasing: b[c...])
            switch OggPageHeader.parse(rest) {
            case .needMore(let n):
                return CutStep(consumed: c, need: n)
            case .invalid(let reason):
                guard mapping != nil else {
                    throw AudioFileStreamError(.invalidFile, reason, offset: base + Int64(c))
                }
                dropPacket()
                guard resyncing || OggPageHeader.hasCapturePattern(rest) else {
                    // Bytes that are not a page after the stream's pages (a tag, junk): the end,
                    // as for the file reader.
                    sink.flush()
                    ended = true
                    return CutStep(consumed: b.count, need: 1)
                }
                // A damaged page: on to the next capture pattern.
                resyncing = true
                var j = c + 1
                while j + 4 <= b.count && !OggPageHeader.hasCapturePattern(UnsafeRawBufferPointer(rebasing: b[j...])) { j += 1 }
                if j + 4 > b.count { return CutStep(consumed: max(c, b.count - 3), need: 4) }
                c = j
            case .page(let page):
                resyncing = false
                try take(page, UnsafeRawBufferPointer(rebasing: rest[0..<page.pageLength]), at: base + Int64(c), sink: sink)
                c += page.pageLength
            }
        }
        return CutStep(consumed: c, need: OggPageHeader.fixedSize)
    }

    /// Handles one whole page at stream offset `offset`.
    private func take(_ page: OggPageHeader, _ b: UnsafeRawBufferPointer, at offset: Int64, sink: PacketSink) throws(AudioFileStreamError) {
        guard let serial, let codec = mapping.map({ type(of: $0) }) else {
            guard page.isBeginning else {
                throw AudioFileStreamError(.unsupportedDataFormat, "the Ogg stream has no \(OggCodecMappings.names) stream", offset: offset)
            }
            let body = UnsafeRawBufferPointer(rebasing: b[page.headerLength...])
            guard let codec = OggCodecMappings.mapping(for: body) else { return }  // another codec's stream
            do {
                mapping = try codec.init(identificationHeader: Array(body))
            } catch {
                throw AudioFileStreamError(.unsupportedDataFormat, error.reason, offset: offset)
            }
            self.serial = page.serial
            return
        }
        guard page.serial == serial, !page.isBeginning else { return }
        var first = true
        var failure: AudioFileStreamError?
        page.pieces(b) { start, length, endsPacket in
            let continues = first && page.isContinued
            first = false
            if continues && !open { return }  // the rest of a packet whose start was lost
            if !continues { packet.removeAll(keepingCapacity: true) }
            packet.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[start..<(start + length)]))
            open = !endsPacket
            if packet.count > OggFormat.maximumPacketSize {
                dropPacket()
                return
            }
            guard endsPacket else { return }
            if !tagsDone {
                do throws(AudioFileStreamError) {
                    try takeHeader(codec, at: offset)
                    if tagsDone { dataOffset = offset + Int64(page.pageLength) }
                    if tagsDone && !codec.primingNeedsFirstPacket {
                        try announce(sink: sink)
                    }
                } catch {
                    failure = error
                }
                return
            }
            if !packet.isEmpty, let frames = packet.withUnsafeBytes({ mapping?.frames(inPacketStartingWith: $0) }) ?? nil {
                if !announced {
                    do throws(AudioFileStreamError) {
                        try announce(sink: sink)
                    } catch {
                        failure = error
                        return
                    }
                }
                packet.withUnsafeBytes { sink.append($0, frames: UInt32(frames)) }
                delivered += 1
            }
        }
        if let failure { throw failure }
        if page.isEnd {
            sink.flush()
            ended = true
        }
    }

    /// Takes the header packet just gathered: the comment header, or one after it (the mapping's).
    private func takeHeader(_ codec: any OggCodecMapping.Type, at offset: Int64) throws(AudioFileStreamError) {
        defer {
            headerIndex += 1
            if headerIndex >= codec.headerPacketCount { tagsDone = true }
        }
        if headerIndex == 1 {
            guard codec.isCommentHeader(packet) else {
                throw AudioFileStreamError(
                    .invalidFile, "the packet after \(codec.identificationName) is not \(codec.commentName)", offset: offset)
            }
            return
        }
        do {
            try mapping?.takeHeader(packet, index: headerIndex)
        } catch {
            throw AudioFileStreamError(.unsupportedDataFormat, error.reason, offset: offset)
        }
    }

    /// Reports the stream's properties, once, before its first packet: after the headers, or
    /// where the priming needs it (Vorbis), with the first audio packet.
    private func announce(sink: PacketSink) throws(AudioFileStreamError) {
        announced = true
        guard let mapping, let stream = sink.stream else { return }
        var facts = StreamProperties()
        facts.fileType = OggFormat.fileType
        facts.dataFormat = mapping.dataFormat(framesPerPacket: mapping.streamFramesPerPacket)
        facts.magicCookie = mapping.magicCookie
        facts.channelLayout = mapping.channelLayout
        facts.dataOffset = dataOffset
        facts.packetTableInfo = AudioFilePacketTableInfo(
            numberValidFrames: 0, primingFrames: Int32(clamping: mapping.primingFrames + mapping.uncountedFrames), remainderFrames: 0)
        facts.ready = true
        try stream.announce(facts)
    }

    private func dropPacket() {
        packet.removeAll(keepingCapacity: true)
        open = false
    }

    func restart(at offset: Int64, packet: Int64?) {
        dropPacket()
        mapping?.restart()
        resyncing = true
        ended = false
    }

    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        throw AudioFileStreamError(.illegalOperation, "an Ogg stream has no packet table to seek by")
    }
}
