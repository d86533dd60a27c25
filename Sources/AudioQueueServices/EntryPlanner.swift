import AudioCore
import Synchronization

/// A buffer in the buffer queue, with everything enqueue-with-parameters said about it.
struct QueueEntry {
    let buffer: AudioQueueBuffer
    let byteCount: Int
    /// Per-packet descriptions (VBR or variable-duration data); nil when packets are constant.
    let descriptions: [AudioStreamPacketDescription]?
    /// Packets in the buffer (frames, for frame-stream formats such as PCM).
    let packetCount: Int
    /// Frames the buffer decodes to before trimming.
    let nominalFrames: Int
    let trimStart: Int
    let trimEnd: Int
    let events: [AudioQueueParameterEvent]
    /// Queue sample time at which its first untrimmed frame plays.
    let startTime: Int64
}

/// The buffer queue: entries waiting to play, and where the last one will end. Guarded by the
/// audio queue's state lock (enqueue never waits for decoding).
struct PendingBuffers {
    private var entries: [QueueEntry] = []
    private var head = 0
    /// Queue sample time at which the last enqueued buffer ends.
    private(set) var scheduledEnd: Int64 = 0
    /// The last start time a program asked for (they must ascend).
    private(set) var lastRequestedStart: Int64?

    var isEmpty: Bool { head >= entries.count }

    mutating func append(_ entry: QueueEntry, requestedStart: Int64?) {
        if head > 32 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        entries.append(entry)
        if let requestedStart { lastRequestedStart = requestedStart }
        scheduledEnd = entry.startTime + Int64(max(0, entry.nominalFrames - entry.trimStart - entry.trimEnd))
    }

    mutating func popFirst() -> QueueEntry? {
        guard head < entries.count else { return nil }
        defer { head += 1 }
        return entries[head]
    }

    /// Empties the queue, returning the buffers in order; scheduling restarts at `position`.
    mutating func removeAll(restartingAt position: Int64) -> [AudioQueueBuffer] {
        let buffers = entries[head...].map(\.buffer)
        entries.removeAll()
        head = 0
        scheduledEnd = position
        lastRequestedStart = nil
        return buffers
    }
}

/// The engine's progress, published for threads that do not hold the render lock.
final class PublishedProgress: Sendable {
    /// Queue sample time of the next frame the engine produces.
    let position = Atomic<Int64>(0)
    /// True while a buffer is being played.
    let busy = Atomic<Bool>(false)
}

/// Checks an enqueue and plans the entry: what the render engine's format fixes at creation,
/// and its published progress. Needs no lock beyond the state lock the caller holds.
struct EntryPlanner: Sendable {
    let input: AudioStreamBasicDescription
    /// One frame per packet and a fixed size (PCM, G.711).
    let isFrameStream: Bool
    /// Frames one packet decodes to, for packets without their own frame count.
    let framesPerPacket: Int
    /// Decoded frames per frame the stream description counts.
    let frameScale: Int
    /// The most frames one packet may claim.
    let maximumPacketFrames: Int
    let progress: PublishedProgress

    /// Checks an enqueue and works out the buffer's frames and start time. Throws without
    /// changing anything.
    func makeEntry(
        buffer: AudioQueueBuffer, descriptions explicit: [AudioStreamPacketDescription]?,
        trimStart: Int, trimEnd: Int, events: [AudioQueueParameterEvent], requestedStart: Int64?,
        pending: PendingBuffers
    ) throws(AudioQueueError) -> QueueEntry {
        let size = buffer.audioDataByteSize
        guard size > 0 else { throw AudioQueueError(.bufferEmpty, "the buffer holds no audio (audioDataByteSize is 0)") }
        guard size <= buffer.audioDataBytesCapacity else {
            throw AudioQueueError(.invalidParameter, "audioDataByteSize \(size) exceeds the buffer's capacity of \(buffer.audioDataBytesCapacity) bytes")
        }
        guard trimStart >= 0, trimEnd >= 0, trimStart <= Int(UInt32.max), trimEnd <= Int(UInt32.max) else {
            throw AudioQueueError(.invalidParameter, "trims are 0…\(UInt32.max) frames, not \(trimStart) and \(trimEnd)")
        }
        for event in events {
            try RenderEngine.check(event.parameter, event.value)
        }
        var descriptions: [AudioStreamPacketDescription]?
        let packets: Int
        var frames = 0
        if isFrameStream {
            let bpf = Int(input.bytesPerFrame)
            guard size % bpf == 0 else {
                throw AudioQueueError(.invalidParameter, "\(size) bytes is not a whole number of \(bpf)-byte frames")
            }
            packets = size / bpf
            frames = packets
        } else {
            var list = explicit
            if list == nil || list!.isEmpty, buffer.packetDescriptionCount > 0, let p = buffer.packetDescriptions {
                guard buffer.packetDescriptionCount <= buffer.packetDescriptionCapacity, buffer.packetDescriptionCount >= 0 else {
                    throw AudioQueueError(.invalidParameter, "packetDescriptionCount exceeds the buffer's packet description capacity")
                }
                list = Array(UnsafeBufferPointer(start: p, count: buffer.packetDescriptionCount))
            }
            if let list, !list.isEmpty {
                for (i, d) in list.enumerated() {
                    guard d.startOffset >= 0, d.dataByteSize > 0, d.startOffset <= Int64(size) - Int64(d.dataByteSize) else {
                        throw AudioQueueError(.invalidParameter, "packet description \(i) (\(d.dataByteSize) bytes at \(d.startOffset)) lies outside the buffer's \(size) bytes")
                    }
                    if d.variableFramesInPacket > 0 {
                        guard Int(d.variableFramesInPacket) * frameScale <= maximumPacketFrames else {
                            throw AudioQueueError(.invalidParameter, "packet description \(i) claims \(d.variableFramesInPacket) frames, more than a packet of this format holds")
                        }
                        frames += Int(d.variableFramesInPacket) * frameScale
                    } else {
                        frames += framesPerPacket
                    }
                }
                descriptions = list
                packets = list.count
            } else {
                guard input.bytesPerPacket > 0, input.framesPerPacket > 0 else {
                    throw AudioQueueError(.invalidParameter, "\(input.formatID.messageName) packets vary in size: enqueue them with packet descriptions")
                }
                let bpp = Int(input.bytesPerPacket)
                guard size % bpp == 0 else {
                    throw AudioQueueError(.invalidParameter, "\(size) bytes is not a whole number of \(bpp)-byte packets")
                }
                packets = size / bpp
                frames = packets * framesPerPacket
            }
        }
        let busy = !pending.isEmpty || progress.busy.load(ordering: .acquiring)
        let earliest = busy ? pending.scheduledEnd : progress.position.load(ordering: .acquiring)
        var start = earliest
        if let requested = requestedStart {
            if let last = pending.lastRequestedStart, requested < last {
                throw AudioQueueError(.invalidParameter, "start times must ascend: \(requested) is before the previous buffer's \(last)")
            }
            start = max(requested, earliest)
        }
        return QueueEntry(
            buffer: buffer, byteCount: size, descriptions: descriptions, packetCount: packets, nominalFrames: frames,
            trimStart: trimStart, trimEnd: trimEnd, events: events, startTime: start)
    }

}
