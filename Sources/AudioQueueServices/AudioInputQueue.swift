public import AudioCore
public import AudioDevices
public import Dispatch
import AudioCodecs
import AudioConverterServices
import Locking
import Synchronization

/// A recording audio queue (Apple's `AudioQueueRef` made by `AudioQueueNewInput`).
///
/// The program allocates buffers, enqueues them empty and starts the queue; the queue records
/// from an `AudioInputDevice`, converts what it records to the queue's format (any linear PCM,
/// IMA4, µ-law or A-law: an encoder from the `AudioEncoders` registry), fills each buffer with
/// whole packets and hands it back through the input callback with its start time, which
/// writes it somewhere (`AudioFileWriter`) and enqueues it again.
///
/// Audio recorded while no buffer is enqueued has nowhere to go: it is dropped and counted
/// (``lostFrameCount``), the next buffer's start time jumps by the frames lost, and
/// ``converterError`` becomes `kAudioQueueErr_RecordUnderrun` with a notice to its listeners.
///
/// Threading: as ``AudioQueue``. The device's I/O thread only copies what it records into a
/// ring; a capture thread the queue owns encodes; callbacks and listeners run on the callback
/// queue, one at a time, in order.
///
/// `Sendable`, checked by the compiler, as ``AudioQueue`` is.
public final class AudioInputQueue: Sendable {
    /// The input callback (`AudioQueueInputCallback`): a buffer filled with `packetCount` whole
    /// packets (``AudioQueueBuffer/audioDataByteSize`` bytes) whose first frame was recorded at
    /// `startTime` (sample time on the queue's timeline, and host time), with the packets'
    /// descriptions for variable-size formats (nil for constant-size ones). A stop or reset
    /// hands back the buffers not filled yet with no packets.
    public typealias InputCallback = @Sendable (
        _ queue: AudioInputQueue, _ buffer: AudioQueueBuffer, _ startTime: AudioTimeStamp, _ packetCount: Int,
        _ packetDescriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
    ) -> Void
    /// The input callback with the packets as a collection (no pointers): a buffer filled with
    /// `packets.count` whole packets whose first frame was recorded at `startTime`. `packets`
    /// reads the buffer in place — for formats of constant-size packets too, computed — and is
    /// valid inside the callback (see ``AudioQueueBuffer/Packets``).
    public typealias InputHandler = @Sendable (
        _ queue: AudioInputQueue, _ buffer: AudioQueueBuffer, _ startTime: AudioTimeStamp, _ packets: AudioQueueBuffer.Packets
    ) -> Void
    /// A property listener (`AudioQueuePropertyListenerProc`).
    public typealias PropertyListener = @Sendable (_ queue: AudioInputQueue, _ property: AudioQueuePropertyID) -> Void

    /// The format the queue records in, complete (`kAudioQueueProperty_StreamDescription`):
    /// what was asked for, with the packet and frame sizes the encoder fills in.
    public let streamDescription: AudioStreamBasicDescription
    typealias Core = QueueCore<AudioInputQueue, InputSide>
    /// How the shared device code drives an input device.
    static let driver = DeviceDriver<any AudioInputDevice>(
        direction: "input", info: { $0.info }, format: { ($0 as? PlacedInputDevice)?.deviceFormat ?? $0.format }, stop: { $0.stop(drain: $1) },
        pause: { $0.stop(drain: true) }, close: { $0.close() }, clock: { $0.framesCaptured }, sampleTime: { $0.framesCaptured })
    let core: Core
    /// The capture lock: encoder, buffer being filled, timeline, meter. Taken before the state
    /// lock; neither is held while program code runs.
    let capture: PipelineLock<CaptureLine>
    let feed: InputFeed
    let channels: Int
    let sampleRate: Double
    private let callback: InputCallback
    /// Where a queue made without a callback delivers what it records (``recordedBuffers``).
    let sink: RecordedBufferSink?

    /// Creates a recording queue for data in `format` (Apple's `AudioQueueNewInput`, or
    /// `AudioQueueNewInputWithDispatchQueue` when `callbackQueue` is given).
    ///
    /// - Parameters:
    ///   - format: What to record: linear PCM (integer or float, any width, either byte order,
    ///     interleaved or not), `'ima4'`, `'ulaw'` or `'alaw'`, at any rate and channel count.
    ///     `codecNotFound` (naming the format) when no encoder is registered for it.
    ///   - callbackQueue: Where `callback` and property listeners run — a serial queue; nil for
    ///     a serial queue of the audio queue's own.
    ///   - device: The input device; nil for the default input (see `AudioBackends`), opened
    ///     when the queue first starts. It must record at `format`'s sample rate; a different
    ///     channel count is mapped.
    ///   - callback: Called with each buffer filled.
    public convenience init(
        format: AudioStreamBasicDescription, callbackQueue: DispatchQueue? = nil,
        device: (any AudioInputDevice)? = nil, callback: @escaping InputCallback
    ) throws(AudioQueueError) {
        try self.init(format: format, callbackQueue: callbackQueue, device: device, sink: nil, callback: callback)
    }

    /// Creates a recording queue whose callback gets the packets as a collection
    /// (``InputHandler``) rather than a pointer; otherwise as
    /// ``init(format:callbackQueue:device:callback:)``.
    public convenience init(
        format: AudioStreamBasicDescription, callbackQueue: DispatchQueue? = nil,
        device: (any AudioInputDevice)? = nil, handler: @escaping InputHandler
    ) throws(AudioQueueError) {
        try self.init(format: format, callbackQueue: callbackQueue, device: device, sink: nil) { queue, buffer, startTime, count, _ in
            handler(queue, buffer, startTime, queue.packets(of: buffer, count: count))
        }
    }

    init(
        format: AudioStreamBasicDescription, callbackQueue: DispatchQueue?,
        device: (any AudioInputDevice)?, sink: RecordedBufferSink?, callback: @escaping InputCallback
    ) throws(AudioQueueError) {
        guard format.sampleRate >= 1, format.sampleRate.isFinite, format.sampleRate <= 1_536_000,
              format.channelsPerFrame > 0, format.channelsPerFrame <= 64 else {
            throw AudioQueueError(.invalidParameter, "cannot record \(format)")
        }
        let channels = Int(format.channelsPerFrame)
        let float = AudioStreamBasicDescription.deviceFloat(sampleRate: format.sampleRate, channels: channels)
        let converter: AudioConverter
        do throws(AudioCodecError) {
            converter = try AudioConverter(from: float, to: format)
        } catch {
            throw AudioQueueError(.codecNotFound, "cannot record \(format.formatID.messageName): \(error.reason)")
        }
        streamDescription = converter.outputFormat
        self.channels = channels
        sampleRate = format.sampleRate
        self.callback = callback
        self.sink = sink
        let deviceChannels = device.map { Int($0.format.channelsPerFrame) } ?? channels
        if let device, device.format.sampleRate != format.sampleRate {
            throw AudioQueueError(.invalidDevice, "\(device.info.uid) records at \(device.format.sampleRate) Hz, not \(format.sampleRate) Hz")
        }
        // Two seconds of what the device records: the capture thread falls that far behind only
        // when the machine is starved.
        feed = InputFeed(ringFrames: Int(format.sampleRate) * 2, channels: deviceChannels, sampleRate: format.sampleRate)
        let feed = self.feed
        core = QueueCore(
            side: InputSide(), callbackQueue: callbackQueue,
            deliver: { queue, finished in queue.deliver(finished) },
            afterCallback: { feed.wake.signal() })
        capture = PipelineLock(CaptureLine(converter: converter, deviceChannels: deviceChannels, chunkFrames: 4096), queue: core.serial)
        feed.queue = self
        if let device {
            core.state.withLock { s in _ = s.side.session.replace(with: device, owned: false, uid: nil) }
        }
        if let sink { core.state.withLock { $0.stopObserver = { disposed in sink.queueStopped(final: disposed) } } }
    }

    /// The first `count` packets of `buffer` as a collection: its descriptions for a format of
    /// variable-size packets, computed ones for constant-size packets.
    func packets(of buffer: AudioQueueBuffer, count: Int) -> AudioQueueBuffer.Packets {
        let size = Int(streamDescription.bytesPerPacket)
        return AudioQueueBuffer.Packets(buffer: buffer, count: count, constantSize: size > 0 ? .init(bytes: size) : nil)
    }

    deinit {
        releaseOnDeinit()
        sink?.queueStopped(final: true)
    }

    private func deliver(_ finished: FinishedBuffer) {
        let buffer = finished.buffer
        let descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
        if streamDescription.bytesPerPacket == 0, let p = buffer.packetDescriptions {
            descriptions = UnsafeBufferPointer(start: p, count: buffer.validDescriptionCount)
        } else {
            descriptions = nil
        }
        callback(self, buffer, finished.startTime, finished.packetCount, descriptions)
    }

    /// Where the queue is in its life cycle.
    public var state: AudioQueueRunState { runState }

    // MARK: Buffers

    /// Allocates a buffer of `byteCapacity` bytes (`AudioQueueAllocateBuffer`). For a format of
    /// variable-size packets the buffer gets room for their descriptions, at least
    /// `packetDescriptionCapacity`.
    public func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int = 0) throws(AudioQueueError) -> AudioQueueBuffer {
        var descriptions = packetDescriptionCapacity
        if streamDescription.bytesPerPacket == 0 {
            let largest = try capture.withLock { max(1, $0.converter.maximumOutputPacketSize) }
            descriptions = max(descriptions, min(1 << 22, max(1, byteCapacity * 8 / largest)))
        }
        return try core.allocateBuffer(byteCapacity: byteCapacity, packetDescriptionCapacity: descriptions)
    }

    /// Frees a buffer (`AudioQueueFreeBuffer`); `bufferInQueue` while it is enqueued.
    public func freeBuffer(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try core.freeBuffer(buffer)
    }

    /// Adds an empty buffer to be filled (`AudioQueueEnqueueBuffer`). Its
    /// ``AudioQueueBuffer/audioDataByteSize`` is ignored; `invalidParameter` when it cannot hold
    /// a single packet of the queue's format.
    public func enqueue(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        let fits = try capture.withLock { $0.packetCapacity(of: buffer) > 0 }
        try core.state.withLock { s throws(AudioQueueError) in
            try core.checkEnqueue(buffer, in: s)
            guard fits else {
                throw AudioQueueError(.invalidParameter, "a buffer of \(buffer.audioDataBytesCapacity) bytes cannot hold one packet of \(streamDescription)")
            }
            buffer.audioDataByteSize = 0
            buffer.packetDescriptionCount = 0
            buffer.state = .enqueued
            s.side.append(buffer)
        }
        feed.wake.signal()
    }

    // MARK: Control

    /// Starts recording now, or when `time` comes (`AudioQueueStart`): a host time, or a sample
    /// time on the device's clock; nil or a past time starts at once. Resumes a paused queue.
    /// `cannotStart` when the device will not start, `invalidRunState` while an asynchronous
    /// stop is in progress.
    ///
    /// A started queue keeps itself alive until it stops, as Apple's does.
    ///
    /// Returns before the device delivers: a sound server may take from milliseconds to
    /// seconds to begin. ``isRunning`` turns true (and ``isRunningChanges`` says so) once it
    /// has; the first buffer's start time says which frame came first (see the Recording
    /// article).
    public func start(at time: AudioTimeStamp? = nil) throws(AudioQueueError) {
        guard sink != nil else { return try startQueue(at: time) }
        enqueueSinkBuffers()
        do {
            try startQueue(at: time, "start(at:)")
        } catch {
            core.checkStopped()
            throw error
        }
    }

    /// Pauses recording, keeping the buffers and what was captured (`AudioQueuePause`);
    /// ``start(at:)`` resumes. What the device recorded before the pause is still delivered.
    public func pause() throws(AudioQueueError) { try pauseQueue() }

    /// Stops recording (`AudioQueueStop`).
    ///
    /// Immediately: stops the device now; what it had recorded goes into the buffer being
    /// filled (and the enqueued ones after it, where it does not fit), which comes back with
    /// it, as on a Mac; the other enqueued buffers come back empty (a callback sees 0 packets),
    /// through the callback, before this returns (from inside a callback: right after it
    /// returns). Asynchronously: returns at once; everything recorded up to the call still
    /// arrives in callbacks, then the queue stops and ``AudioQueuePropertyID/isRunning``
    /// listeners hear it. Either way an encoder's last packets (AAC holds about two packets'
    /// worth of frames) come back too, so a recording is never short at its end.
    public func stop(immediate: Bool) throws(AudioQueueError) { try stopQueue(immediate: immediate) }

    /// Hands back the buffer being filled with what has been recorded so far, even though it
    /// is not full (`AudioQueueFlush`).
    public func flush() throws(AudioQueueError) {
        try core.refuseInsideTap()
        try core.state.withLock { s throws(AudioQueueError) in try s.checkUsable() }
        try capture.withLock { c in
            pump(c, drops: .always)
            if c.current != nil && c.staged > 0 {
                let finished = c.complete()
                core.state.withLock { $0.line.append(finished) }
            }
        }
        scheduleCallbacks()
    }

    /// Discards what has been recorded and not yet handed back, and hands back every enqueued
    /// buffer empty through the callback (`AudioQueueReset`). A running queue keeps recording
    /// into buffers enqueued afterwards.
    public func reset() throws(AudioQueueError) {
        try resetQueue()
        if sink != nil { enqueueSinkBuffers() }
    }

    /// Disposes of the queue and its buffers (`AudioQueueDispose`). Immediately: stops now.
    /// Otherwise: once everything recorded has been handed back.
    public func dispose(immediate: Bool) throws(AudioQueueError) { try disposeQueue(immediate: immediate) }

    /// `invalidTapContext` on a thread running a processing tap (for the C API, which releases a
    /// handle before the call that would refuse).
    package func refuseInsideTap(_ call: StaticString) throws(AudioQueueError) { try core.refuseInsideTap(call) }

    // MARK: Listeners

    /// Adds a listener for a property (`AudioQueueAddPropertyListener`). ``AudioQueuePropertyID/isRunning``
    /// fires when recording really starts and stops; ``AudioQueuePropertyID/converterError``
    /// on a record underrun. Returns a token for ``removePropertyListener(_:)``; `invalidProperty`
    /// for a property the queues do not have.
    @discardableResult
    public func addPropertyListener(_ property: AudioQueuePropertyID, _ listener: @escaping PropertyListener) throws(AudioQueueError) -> Int {
        try core.addListener(property, listener)
    }

    /// Removes a listener (`AudioQueueRemovePropertyListener`); `invalidParameter` for an
    /// unknown token.
    public func removePropertyListener(_ token: Int) throws(AudioQueueError) { try core.removeListener(token) }
}
