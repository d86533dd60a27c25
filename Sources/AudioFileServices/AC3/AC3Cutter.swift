import AudioCore

/// Cuts a raw AC-3 or E-AC-3 stream into packets by its syncframe headers, with the rules
/// ``AC3Format`` walks files by: the first frame, and the first after junk, counts when the next
/// frame's header agrees with it; then each frame follows the last; a packet is an AC-3 frame or
/// an E-AC-3 independent frame with the frames up to the next independent frame of substream 0.
/// The properties (`'ac-3'` or `'ec-3'`, the `dac3`/`dec3` body as magic cookie, the channel
/// layout) are announced with the first packet. At the end of the stream a last packet cut
/// short is delivered as it is, as the file reader keeps it.
final class AC3Cutter: EndingStreamCutter {
    private var synced = false
    private var stream: AC3FrameHeader?
    private var announced = false
    /// Set while the parser is told the stream ends with the bytes it has.
    private var atEnd = false
    private var packetBytes: Int64 = 0
    private var packetCount: Int64 = 0

    /// For AC-3 inside a container (a WAVE data chunk): what its header says, announced with the
    /// first packet's format.
    private let container: StreamProperties?
    /// Where the container's audio data ends (nil: at the end of the stream).
    private let dataEnd: Int64?

    init() {
        container = nil
        dataEnd = nil
    }

    /// A cutter for AC-3 frames in a container's audio data, from `facts.dataOffset` to
    /// `dataEnd` (nil: to the end of the stream). `facts` are the container header's properties.
    init(in facts: StreamProperties, dataEnd: Int64?) {
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
        try announceWithoutPackets(sink: sink)
        return CutStep(consumed: b.count, need: 1)  // the data's end or after it
    }

    /// A container whose data held no frame is ready with no packets, as its header says.
    private func announceWithoutPackets(sink: PacketSink) throws(AudioFileStreamError) {
        guard !announced, var facts = container, let stream = sink.stream else { return }
        announced = true
        facts.packetCount = 0
        facts.ready = true
        try stream.announce(facts)
    }

    private func cutFrames(_ b: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        let lookahead = AC3FrameHeader.parsedLength
        while true {
            let available = b.count - c
            if !synced {
                // The next sync word whose header parses and starts a packet, confirmed by the
                // header after its frame (or the end of the stream).
                var j = c
                var found = false
                while j + 1 < b.count {
                    if b[j] == 0x0B && b[j + 1] == 0x77 {
                        if b.count - j < lookahead && !atEnd { return CutStep(consumed: j, need: lookahead) }
                        if let header = AC3FrameHeader(b, j), header.streamType != .dependent, header.substreamID == 0,
                           stream.map({ header.isEnhanced == $0.isEnhanced && header.sampleRate == $0.sampleRate }) ?? true
                        {
                            let next = j + header.frameSize
                            if atEnd && next >= b.count {
                                found = true
                            } else if b.count - next < lookahead && !atEnd {
                                return CutStep(consumed: j, need: header.frameSize + lookahead)
                            } else if next < b.count, let following = AC3FrameHeader(b, next), following.isEnhanced == header.isEnhanced,
                                      following.sampleRate == header.sampleRate
                            {
                                found = true
                            }
                            if found {
                                if stream == nil { stream = header }
                                break
                            }
                        }
                    }
                    j += 1
                }
                guard found else { return CutStep(consumed: max(c, b.count - 1), need: lookahead) }
                c = j
                synced = true
                continue
            }
            guard let first = stream else { synced = false; continue }
            if available < lookahead && !(atEnd && available >= 6) {
                if atEnd { return CutStep(consumed: b.count, need: 1) }
                return CutStep(consumed: c, need: lookahead)
            }
            guard let header = AC3FrameHeader(b, c), header.isEnhanced == first.isEnhanced, header.sampleRate == first.sampleRate else {
                synced = false
                c += 1
                continue
            }
            guard !header.isEnhanced || (header.streamType != .dependent && header.substreamID == 0) else {
                // A dependent or other substream with no packet open: not this stream's.
                if available < header.frameSize { return CutStep(consumed: c, need: header.frameSize) }
                c += header.frameSize
                continue
            }
            // The packet: this frame, and for E-AC-3 the frames up to the next packet's start.
            var end = c + header.frameSize
            var headers = [header]
            if header.isEnhanced {
                while true {
                    if b.count - end < lookahead {
                        if atEnd { break }
                        return CutStep(consumed: c, need: end - c + lookahead)
                    }
                    guard let next = AC3FrameHeader(b, end), next.isEnhanced, next.sampleRate == first.sampleRate,
                          next.streamType == .dependent || next.substreamID != 0
                    else { break }
                    headers.append(next)
                    end += next.frameSize
                }
            }
            if end > b.count {
                guard atEnd else { return CutStep(consumed: c, need: end - c) }
                end = b.count  // a last packet cut short
            }
            try announceIfNeeded(headers, at: base + Int64(c), sink: sink)
            sink.append(UnsafeRawBufferPointer(rebasing: b[c..<end]), frames: header.frameCount == first.frameCount ? 0 : UInt32(header.frameCount))
            packetBytes += Int64(end - c)
            packetCount += 1
            c = end
        }
    }

    func finish(_ held: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> Int {
        atEnd = true
        defer { atEnd = false }
        return try cut(held, at: base, sink: sink).consumed
    }

    private func announceIfNeeded(_ headers: [AC3FrameHeader], at offset: Int64, sink: PacketSink) throws(AudioFileStreamError) {
        guard !announced, let stream = sink.stream else { return }
        announced = true
        let description: (format: AudioStreamBasicDescription, layout: AudioChannelLayout, cookie: [UInt8])
        do {
            description = try AC3FrameScan.describe(headers, chunk: "ac-3", offset: offset)
        } catch {
            throw AudioFileStreamError(error)
        }
        var facts = container ?? StreamProperties()
        facts.fileType = container?.fileType ?? .ac3
        facts.dataFormat = description.format
        facts.magicCookie = description.cookie
        facts.channelLayout = description.layout
        facts.dataOffset = container?.dataOffset ?? offset
        facts.packetCount = nil
        let bound = UInt32(AC3FrameHeader.maximumFrameSize * headers.count)
        facts.packetSizeUpperBound = bound
        facts.maximumPacketSize = bound
        facts.ready = true
        try stream.announce(facts)
    }

    func restart(at offset: Int64, packet: Int64?) {
        synced = false
    }

    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        guard packet >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is negative") }
        guard packetCount > 0 else { throw AudioFileStreamError(.dataUnavailable, "no frame has been parsed yet") }
        let estimate = Double(packet) * Double(packetBytes) / Double(packetCount)
        guard estimate < 9e18 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is too far") }
        return (Int64(estimate.rounded()), packetBytes % packetCount != 0)
    }
}

/// A cutter that is told when the stream ends, to cut what it holds (a last packet it could not
/// tell was complete).
protocol EndingStreamCutter: StreamCutter {
    /// The stream ended with `held` (from stream offset `base`): cut what can be; returns the bytes used.
    func finish(_ held: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> Int
}
