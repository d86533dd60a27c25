public import AudioCore
public import AudioDevices
public import Dispatch
import Locking

extension AudioInputQueue {
    /// What one buffer recorded: its bytes and packets, copied out of the queue's buffer, and
    /// when its first frame was recorded.
    public struct RecordedBuffer: Sendable, Hashable {
        /// The buffer's whole packets, in the queue's format (``AudioInputQueue/streamDescription``).
        public var bytes: [UInt8]
        /// The packets' descriptions for a format of variable-size packets; empty for one of
        /// constant-size packets (linear PCM, IMA4, µ-law, A-law).
        public var packetDescriptions: [AudioStreamPacketDescription]
        /// Whole packets in ``bytes``.
        public var packetCount: Int
        /// Frames in ``bytes``.
        public var frameCount: Int
        /// The sample time of the first frame on the queue's timeline (frames since the start,
        /// lost ones included), and the host time at which it was recorded.
        public var startTime: AudioTimeStamp
    }

    /// Creates a recording queue that needs no callback: it allocates `bufferCount` buffers
    /// of `bufferDuration` seconds each, keeps them enqueued, and hands what they record to
    /// ``recordedBuffers``.
    ///
    /// Other parameters as ``init(format:callbackQueue:device:callback:)``; `invalidParameter`
    /// for a count outside 1…64 or a duration outside 0.01…10 s.
    public convenience init(
        format: AudioStreamBasicDescription, callbackQueue: DispatchQueue? = nil, device: (any AudioInputDevice)? = nil,
        bufferCount: Int = 3, bufferDuration: Double = 0.25
    ) throws(AudioQueueError) {
        guard (1...64).contains(bufferCount), bufferDuration >= 0.01, bufferDuration <= 10 else {
            throw AudioQueueError(.invalidParameter, "\(bufferCount) buffers of \(bufferDuration) s: 1…64 buffers of 0.01…10 s")
        }
        let sink = RecordedBufferSink()
        try self.init(format: format, callbackQueue: callbackQueue, device: device, sink: sink) { queue, buffer, startTime, count, descriptions in
            if count > 0 {
                let descriptions = descriptions.map(Array.init) ?? []
                let perPacket = Int(queue.streamDescription.framesPerPacket)
                let frames = perPacket > 0 ? count * perPacket : descriptions.reduce(0) { $0 + Int($1.variableFramesInPacket) }
                sink.deliver(RecordedBuffer(
                    bytes: buffer.bytes, packetDescriptions: descriptions, packetCount: count, frameCount: frames, startTime: startTime))
            }
            // Back at once: the copy above is the program's. Refused during a stop or reset;
            // the next start or the reset enqueues it again.
            try? queue.enqueue(buffer)
        }
        let complete = streamDescription
        let perPacket = max(1, Int(complete.framesPerPacket))
        let packets = max(1, Int((bufferDuration * complete.sampleRate / Double(perPacket)).rounded(.up)))
        let packetSize = complete.bytesPerPacket > 0 ? Int(complete.bytesPerPacket) : max(1, try maximumOutputPacketSize)
        for _ in 0..<bufferCount {
            let buffer = try allocateBuffer(byteCapacity: packets * packetSize, packetDescriptionCapacity: packets)
            sink.keep(buffer)
            try enqueue(buffer)
        }
    }

    /// What the queue records, buffer by buffer, in order, as an `AsyncSequence` — for a queue
    /// made without a callback (``init(format:callbackQueue:device:bufferCount:bufferDuration:)``;
    /// empty for one with a callback).
    ///
    /// Ownership: each element is a copy (``RecordedBuffer``); the queue's buffer goes back to
    /// recording as soon as it has been copied, so a slow consumer never makes the queue lose
    /// audio — elements wait for it, in memory, as many as it lets pile up.
    ///
    /// One sequence per run: it holds what is recorded from a start until the queue stops, and
    /// ends once the queue has stopped (``stop()`` returns after it has ended) — or failed, or
    /// been disposed of. Taken while the queue records, or before it starts, it is that run's.
    /// Taken after a stop, it is the run that stopped — until that run's sequence has been
    /// iterated to its end; from then on it is the next run's. Iterate it from one task.
    ///
    /// Cancelling the consuming task ends its iteration and nothing else: the queue goes on
    /// recording, and what it records from then on goes to a new sequence.
    public var recordedBuffers: RecordedBuffers {
        guard let sink else { return RecordedBuffers(stream: AsyncStream { $0.finish() }, sink: nil, generation: 0) }
        let (stream, generation) = sink.current
        return RecordedBuffers(stream: stream, sink: sink, generation: generation)
    }

    /// An input queue's recordings as an `AsyncSequence` (``recordedBuffers``).
    public struct RecordedBuffers: AsyncSequence, Sendable {
        public typealias Element = RecordedBuffer
        public typealias Failure = Never
        let stream: AsyncStream<RecordedBuffer>
        let sink: RecordedBufferSink?
        let generation: Int

        /// Iterates the recorded buffers.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), sink: sink, generation: generation)
        }

        /// The iterator of ``RecordedBuffers``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<RecordedBuffer>.AsyncIterator
            let sink: RecordedBufferSink?
            let generation: Int

            /// The next buffer recorded; nil once the queue has stopped and every buffer has
            /// been given, or the task is cancelled.
            public mutating func next() async -> RecordedBuffer? {
                let next = await base.next()
                if next == nil { sink?.drained(generation) }
                return next
            }
        }
    }

    /// Enqueues the buffers of a queue made without a callback that are not enqueued (after a
    /// stop or reset handed them back and enqueueing was refused).
    func enqueueSinkBuffers() {
        for buffer in sink?.buffers ?? [] { try? enqueue(buffer) }
    }
}

/// Where an input queue made without a callback puts what it records: one `AsyncStream` per
/// run of the queue.
final class RecordedBufferSink: Sendable {
    typealias Stream = AsyncStream<AudioInputQueue.RecordedBuffer>

    private struct State {
        var stream: Stream
        var continuation: Stream.Continuation
        /// Which stream this is; a cancelled one is replaced only if still current.
        var generation = 0
        /// The stream was ended by a stop: the next start begins a new one.
        var finished = false
        /// A stream ended by a stop was iterated to its end: the next access begins a new one.
        var drained = false
        /// The queue has been disposed of or has gone away: no run follows.
        var closed = false
        /// The queue was started since the stream last ended.
        var armed = false
        var buffers: [AudioQueueBuffer] = []
    }

    private let state: Guarded<State>

    init() {
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .unbounded)
        state = Guarded(State(stream: stream, continuation: continuation))
        state.withLock { watch(&$0) }
    }

    /// The stream of the current run, or of the last one if it has not been iterated to its
    /// end, with its generation.
    var current: (Stream, Int) {
        state.withLock { s in
            if s.finished && s.drained {
                if s.closed { return (Stream { $0.finish() }, -1) }
                renew(&s)
            }
            return (s.stream, s.generation)
        }
    }

    /// Stream `generation` was iterated to its end.
    func drained(_ generation: Int) {
        state.withLock { s in if s.generation == generation && s.finished { s.drained = true } }
    }
    var buffers: [AudioQueueBuffer] { state.withLock { $0.buffers } }

    func keep(_ buffer: AudioQueueBuffer) { state.withLock { $0.buffers.append(buffer) } }

    /// A start (state lock held): a stream ended by the last stop makes way for a new one.
    func arm() {
        state.withLock { s in
            if s.finished { renew(&s) }
            s.armed = true
        }
    }

    /// On the callback queue, in order.
    func deliver(_ recorded: AudioInputQueue.RecordedBuffer) {
        let continuation = state.withLock { $0.continuation }
        continuation.yield(recorded)
    }

    /// The queue has stopped and every callback has run (state lock held): the run's stream
    /// ends (what it holds is still given to its consumer). `final`: the queue has been disposed of or has gone
    /// away, and the stream ends even if the queue never started.
    func queueStopped(final: Bool) {
        let ending = state.withLock { s -> Stream.Continuation? in
            guard s.armed || final else { return nil }
            if final { s.closed = true }
            s.armed = false
            s.finished = true
            return s.continuation
        }
        ending?.finish()
    }

    private func renew(_ s: inout State) {
        (s.stream, s.continuation) = Stream.makeStream(bufferingPolicy: .unbounded)
        s.generation += 1
        s.finished = false
        s.drained = false
        watch(&s)
    }

    /// When the consumer of stream `s` is cancelled, what is recorded next goes to a new one.
    private func watch(_ s: inout State) {
        let generation = s.generation
        s.continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination else { return }
            self?.state.withLock { s in
                if s.generation == generation, !s.finished { self?.renew(&s) }
            }
        }
    }
}
