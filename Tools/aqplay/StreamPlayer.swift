import AudioQueueKit
import Dispatch
import Synchronization
import ToolSupport

/// The buffers not in the queue: handed back by the output callback, taken by the parser's
/// packets callback to fill.
final class BufferPool: Sendable {
    private let free = Mutex<[AudioQueueBuffer]>([])
    private let available = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)

    /// Gives a buffer back (from the output callback).
    func put(_ buffer: AudioQueueBuffer) {
        free.withLock { $0.append(buffer) }
        available.signal()
    }

    /// A free buffer at once, or nil.
    func tryTake() -> AudioQueueBuffer? {
        guard !cancelled.load(ordering: .relaxed), available.wait(timeout: .now()) == .success else { return nil }
        return free.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// A free buffer, waiting for one as long as `timeoutNanos` (for ever without it); nil on
    /// time-out or after ``cancel()``.
    func take(timeoutNanos: UInt64? = nil) -> AudioQueueBuffer? {
        while !cancelled.load(ordering: .relaxed) {
            let deadline: DispatchTime = .now() + .nanoseconds(Int(min(timeoutNanos ?? 100_000_000, 100_000_000)))
            if available.wait(timeout: deadline) == .success {
                return free.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            }
            if timeoutNanos != nil { return nil }
        }
        return nil
    }

    /// Makes takes return nil: a waiting take sees it within its 100 ms wait. (No signal: a
    /// signal without a buffer would let a take past the semaphore to an empty list.)
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}

/// Plays bytes that arrive over time, as Apple's streaming players do: the bytes go to an
/// ``AudioFileStream``; when it reports ReadyToProducePackets, the queue is created with the
/// stream's data format, magic cookie and channel layout and its buffers allocated (Listing 3-7
/// sizes, from the largest packet); each batch of packets is copied into buffers, with their
/// descriptions, and a buffer is enqueued when the next packet does not fit.
///
/// The parser and its callbacks run on the thread that feeds the bytes; the queue's callback
/// only hands buffers back to the pool. Where that thread waits for a free buffer, offline
/// rendering renders instead (see ``waitForBuffer``).
final class StreamPlayer: @unchecked Sendable {
    let options: Options
    let name: String
    /// Bytes read per parse.
    static let readSize = 32768

    // Set on the feeding thread, read by the main thread under the lock.
    private struct Shared {
        var queue: AudioQueue?
        /// The length the stream's header gives, in seconds.
        var duration: Double?
        var started = false
        /// Paused after an underrun until every buffer is filled again.
        var rebuffering = false
        var finished = false
        var failure: (any Error)?
    }
    private let shared = Mutex(Shared())

    let pool = BufferPool()
    /// Signalled when the queue stops running, the feeding ends, or Ctrl-C.
    let events = DispatchSemaphore(value: 0)
    let interrupted = Atomic<Bool>(false)

    // Owned by the feeding thread.
    private var parser: AudioFileStream?
    private var queue: AudioQueue?
    /// The stream's data format, once ready.
    private var format: AudioStreamBasicDescription?
    private var bufferByteSize = 0
    private var descriptionCapacity = 0
    /// Packets per buffer: Listing 3-7's count, at most half a second of them.
    private var packetsPerBuffer = 1
    /// The buffer being filled, its packet count and whether its packets carry descriptions.
    private var current: AudioQueueBuffer?
    private var currentPackets = 0
    private var currentHasDescriptions = false
    private var primingLeft = 0
    private var remainderFrames = 0
    /// Packets enqueued so far.
    private var packetsDelivered = 0
    /// Set when a callback failed: the feeding stops.
    private var callbackFailure: (any Error)?

    /// The file an offline render writes, once the queue exists (made and started by
    /// ``ready(_:)`` when rendering offline); renders while the feeding thread waits for a buffer.
    private(set) var offline: OfflineOutput?
    /// Whether the queue meters levels (for the status line).
    var metersLevels = false

    init(options: Options, name: String) {
        self.options = options
        self.name = name
    }

    var queueIfCreated: AudioQueue? { shared.withLock { $0.queue } }
    var hasStarted: Bool { shared.withLock { $0.started } }
    var isRebuffering: Bool { shared.withLock { $0.rebuffering } }
    var duration: Double? { shared.withLock { $0.duration } }
    var feedingFinished: Bool { shared.withLock { $0.finished } }
    var failure: (any Error)? { shared.withLock { $0.failure } }

    // MARK: Feeding

    /// Reads `stream` to its end through the parser, then enqueues the last buffer and asks
    /// the queue to stop once all is played. An error reading or parsing ends the feeding the
    /// same way (what arrived still plays) and is kept in ``failure``.
    func feed(_ stream: any ByteStream, typeHint: AudioFileType?) {
        var failure: (any Error)?
        do {
            try parse(stream, typeHint: typeHint)
        } catch let error as ByteStreamError {
            failure = CommandError(message: "\(name): \(error.message)")
        } catch let error as AudioFileStreamError {
            failure = CommandError(message: "\(name): \(error)")
        } catch {
            failure = error
        }
        if let error = callbackFailure { failure = error }
        do {
            try finishFeeding(complete: failure == nil)
        } catch {
            if failure == nil { failure = error }
        }
        if queue == nil && failure == nil {
            failure = CommandError(message: "\(name): the stream ended before its audio format was known")
        }
        parser?.close()
        shared.withLock {
            $0.finished = true
            if $0.failure == nil { $0.failure = failure }
        }
        events.signal()
    }

    private func parse(_ stream: any ByteStream, typeHint: AudioFileType?) throws {
        let parser = try AudioFileStream(
            fileTypeHint: typeHint,
            propertyListener: { [unowned self] parser, property, _ in
                if property == .readyToProducePackets { self.ready(parser) }
            },
            packets: { [unowned self] _, bytes, descriptions in
                self.packets(bytes, descriptions)
            })
        self.parser = parser
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { chunk.deallocate() }
        while callbackFailure == nil && !interrupted.load(ordering: .relaxed) {
            let n = try stream.read(into: chunk)
            // No bytes tell the parser the stream has ended (a last frame after junk counts).
            try parser.parse(bytes: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            if n == 0 { break }
        }
    }

    /// The last buffer, then a stop once everything is played (Listing 3-5); the queue starts
    /// here when the stream was too short to fill its buffers. The remainder frames are
    /// trimmed only from a `complete` stream that delivered every packet its header counts (or
    /// does not count them): a stream cut short did not reach the padding.
    private func finishFeeding(complete: Bool) throws {
        guard let queue, !interrupted.load(ordering: .relaxed) else { return }
        let count = parser?.audioDataPacketCount
        try enqueueCurrent(isLast: complete && (count == nil || count == Int64(packetsDelivered + currentPackets)))
        if offline == nil && !hasStarted {
            // Everything is enqueued before the start, as when the file path's priming reaches
            // the end: asked to stop first, the queue plays it all and ends without padding.
            try queue.stop(immediate: false)
            try startIfNeeded()
        } else {
            try startIfNeeded()
            try queue.stop(immediate: false)
        }
    }

    // MARK: The parser's callbacks

    /// ReadyToProducePackets: creates the queue (Listing 3-11) with the stream's format, magic
    /// cookie and channel layout, and allocates its buffers.
    private func ready(_ parser: AudioFileStream) {
        guard queue == nil, let format = parser.dataFormat else { return }
        do {
            self.format = format
            let pool = self.pool
            let queue = try AudioQueue(format: format, callbackQueue: nil, device: nil) { _, buffer in pool.put(buffer) }
            self.queue = queue
            if let cookie = parser.magicCookie, !cookie.isEmpty {
                try queue.setMagicCookie(cookie)
            }
            if let layout = parser.channelLayout, layout.numberOfChannels == Int(queue.renderFormat.channelsPerFrame) {
                try? queue.setChannelLayout(layout)
            }
            let offlineFormat = try chooseOutput(queue, options: options, name: name)
            if metersLevels { try queue.setLevelMeteringEnabled(true) }
            let events = self.events
            try queue.addPropertyListener(.isRunning) { queue, _ in
                if !queue.isRunning { events.signal() }
            }
            let maxPacketSize = parser.maximumPacketSize ?? parser.packetSizeUpperBound ?? 0
            let sizes = deriveBufferSize(format, maxPacketSize: maxPacketSize > 0 ? maxPacketSize : 0x10000, seconds: 0.5)
            bufferByteSize = sizes.bufferByteSize
            // A buffer holds Listing 3-7's packet count, but no more than half a second of them:
            // at a low bit rate its 16 KiB floor would hold many seconds, and a stream arriving in
            // real time would start that much later and fill each buffer that slowly.
            var packets = sizes.numPacketsToRead
            if format.framesPerPacket > 0 {
                packets = min(packets, Int((format.sampleRate / Double(format.framesPerPacket) * 0.5).rounded(.up)))
            }
            packetsPerBuffer = max(1, packets)
            descriptionCapacity = format.isPCM ? 0 : packetsPerBuffer
            for _ in 0..<numberOfBuffers {
                pool.put(try queue.allocateBuffer(byteCapacity: bufferByteSize, packetDescriptionCapacity: descriptionCapacity))
            }
            let table = parser.packetTableInfo
            primingLeft = max(0, Int(table?.primingFrames ?? 0))
            remainderFrames = max(0, Int(table?.remainderFrames ?? 0))
            try queue.setParameter(.volume, options.volume)
            if let offlineFormat, let path = options.offlinePath {
                try queue.start()
                offline = try OfflineOutput(queue, format: offlineFormat, path: path)
            }
            let duration = Self.duration(of: parser, format: format)
            shared.withLock {
                $0.queue = queue
                $0.duration = duration
            }
            events.signal()
        } catch {
            fail(error)
        }
    }

    /// The stream's length from its header's packet (or byte) count, less the priming and
    /// remainder; nil when the header does not say.
    private static func duration(of parser: AudioFileStream, format: AudioStreamBasicDescription) -> Double? {
        var frames: Double
        if let table = parser.packetTableInfo, table.numberValidFrames > 0 {
            frames = Double(table.numberValidFrames)
        } else if let packets = parser.audioDataPacketCount, format.framesPerPacket > 0 {
            frames = Double(packets) * Double(format.framesPerPacket)
        } else if let bytes = parser.audioDataByteCount, format.isPCM, format.bytesPerFrame > 0 {
            frames = Double(bytes / Int64(format.bytesPerFrame))
        } else {
            return nil
        }
        frames = max(0, frames)
        return format.sampleRate > 0 && frames > 0 ? frames / format.sampleRate : nil
    }

    /// Copies a batch of packets into buffers, enqueueing each buffer the next packet does not fit.
    private func packets(_ bytes: UnsafeRawBufferPointer, _ descriptions: [AudioStreamPacketDescription]?) {
        guard callbackFailure == nil, queue != nil, let format else { return }
        do {
            if let descriptions {
                for description in descriptions {
                    let start = Int(description.startOffset), size = Int(description.dataByteSize)
                    guard start >= 0, size >= 0, start + size <= bytes.count else { continue }
                    try append(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)]), description)
                }
            } else {
                // Constant-size packets back to back: as many whole packets as fit, per buffer.
                let packetSize = max(1, Int(format.bytesPerPacket))
                guard packetSize <= bufferByteSize else {
                    throw CommandError(message: "\(name): packets of \(packetSize) bytes are larger than the stream's largest packet")
                }
                var offset = 0
                while bytes.count - offset >= packetSize {
                    let buffer = try currentBuffer()
                    var room = min(
                        (buffer.audioDataBytesCapacity - buffer.audioDataByteSize) / packetSize,
                        packetsPerBuffer - currentPackets)
                    if room == 0 || currentHasDescriptions {
                        try enqueueCurrent(isLast: false)
                        continue
                    }
                    room = min(room, (bytes.count - offset) / packetSize)
                    let count = room * packetSize
                    (buffer.audioData + buffer.audioDataByteSize).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
                    buffer.audioDataByteSize += count
                    currentPackets += room
                    offset += count
                }
            }
        } catch {
            fail(error)
        }
    }

    /// Adds one described packet to the current buffer, enqueueing it first when full.
    private func append(_ packet: UnsafeRawBufferPointer, _ description: AudioStreamPacketDescription) throws {
        guard packet.count <= bufferByteSize else {
            throw CommandError(message: "\(name): a packet of \(packet.count) bytes is larger than the stream's largest packet")
        }
        var buffer = try currentBuffer()
        if buffer.audioDataByteSize + packet.count > buffer.audioDataBytesCapacity
            || currentPackets >= buffer.packetDescriptionCapacity || (currentPackets > 0 && !currentHasDescriptions) {
            try enqueueCurrent(isLast: false)
            buffer = try currentBuffer()
        }
        guard let list = buffer.packetDescriptions, currentPackets < buffer.packetDescriptionCapacity else {
            throw CommandError(message: "\(name): packets with descriptions in a linear PCM stream")
        }
        let offset = buffer.audioDataByteSize
        if let base = packet.baseAddress {
            (buffer.audioData + offset).copyMemory(from: base, byteCount: packet.count)
        }
        list[currentPackets] = AudioStreamPacketDescription(
            startOffset: Int64(offset), variableFramesInPacket: description.variableFramesInPacket,
            dataByteSize: UInt32(packet.count))
        buffer.audioDataByteSize += packet.count
        currentPackets += 1
        currentHasDescriptions = true
    }

    /// The buffer being filled, taking a free one (and waiting for it) when there is none.
    private func currentBuffer() throws -> AudioQueueBuffer {
        if let current { return current }
        let buffer = try waitForBuffer()
        buffer.audioDataByteSize = 0
        buffer.packetDescriptionCount = 0
        current = buffer
        currentPackets = 0
        currentHasDescriptions = false
        return buffer
    }

    /// A free buffer. Playing, the queue hands buffers back as it plays them, and it is
    /// started once every buffer has been filled. Rendering offline, the queue plays only when
    /// rendered: this thread renders until a buffer comes back.
    private func waitForBuffer() throws -> AudioQueueBuffer {
        if let buffer = pool.tryTake() { return buffer }
        if let offline {
            var idle = 0
            while true {
                if let buffer = pool.tryTake() { return buffer }
                if interrupted.load(ordering: .relaxed) { throw Interrupted() }
                if try offline.render() == 0 {
                    // Dry: the played buffers' callbacks are on their way.
                    if let buffer = pool.take(timeoutNanos: 100_000_000) { return buffer }
                    idle += 1
                    guard idle < 100 else { throw CommandError(message: "\(name): the queue stopped handing buffers back") }
                } else {
                    idle = 0
                }
            }
        }
        try startIfNeeded()
        guard let buffer = pool.take() else { throw Interrupted() }
        return buffer
    }

    /// Starts the live queue, or resumes it after an underrun: called when every buffer is
    /// enqueued, and at the end of the stream.
    private func startIfNeeded() throws {
        guard offline == nil, let queue else { return }
        let failure = shared.withLock { s -> AudioQueueError? in
            guard !s.started || s.rebuffering else { return nil }
            do throws(AudioQueueError) {
                try queue.start()
            } catch {
                return error
            }
            s.started = true
            s.rebuffering = false
            return nil
        }
        if let failure { throw failure }
        events.signal()
    }

    /// After an underrun while the stream is still arriving, pauses the queue until its buffers
    /// are full again (as Apple's streaming players do), so that it does not play on in spurts.
    /// False when it was not playing.
    func pauseToRebuffer() -> Bool {
        guard let queue = queueIfCreated else { return false }
        return shared.withLock { s in
            guard s.started, !s.finished, !s.rebuffering, (try? queue.pause()) != nil else { return false }
            s.rebuffering = true
            return true
        }
    }

    /// Enqueues the buffer being filled with the priming frames still to trim at its start
    /// and, when it is the last, the remainder at its end (QA1636).
    private func enqueueCurrent(isLast: Bool) throws {
        guard let queue, let buffer = current else { return }
        current = nil
        guard currentPackets > 0 else {
            pool.put(buffer)
            return
        }
        let frames = frameCount(of: buffer)
        let trimStart = frames.map { min(primingLeft, $0) } ?? primingLeft
        primingLeft -= trimStart
        var trimEnd = 0
        if isLast {
            trimEnd = frames.map { min(remainderFrames, $0 - trimStart) } ?? remainderFrames
        }
        buffer.packetDescriptionCount = currentHasDescriptions ? currentPackets : 0
        try queue.enqueue(buffer, packetDescriptions: nil, trimFramesAtStart: trimStart, trimFramesAtEnd: trimEnd)
        packetsDelivered += currentPackets
    }

    /// Frames the buffer's packets decode to; nil when the format does not say.
    private func frameCount(of buffer: AudioQueueBuffer) -> Int? {
        guard let format else { return nil }
        return aqplay.frameCount(
            format: format, packets: currentPackets, bytes: buffer.audioDataByteSize,
            descriptions: currentHasDescriptions ? buffer.packetDescriptions : nil)
    }

    /// Records a failure inside a callback and stops the parse.
    private func fail(_ error: any Error) {
        if callbackFailure == nil { callbackFailure = error }
        parser?.close()
    }

    /// Ends the feeding from another thread: waits for a buffer stop waiting.
    func cancel() {
        interrupted.store(true, ordering: .relaxed)
        pool.cancel()
    }
}

/// Ctrl-C while feeding.
struct Interrupted: Error {}
