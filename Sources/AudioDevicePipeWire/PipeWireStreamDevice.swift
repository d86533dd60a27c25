#if canImport(Glibc)
import Glibc
#endif
import AudioCore
import AudioDevices
import CPipeWire
import Locking
import Synchronization

/// What a PipeWire device keeps under its lock that the parts both directions share
/// (``PipeWireStreamDevice``) read and change: the output's and the input's own phases, and
/// the client (source or sink) a run has.
protocol PipeWireDeviceState {
    /// Who hears the device: `any AudioRenderSource` or `any AudioCaptureSink`.
    associatedtype Client
    init()
    /// Why the device cannot run any more (the stream failed, the server or its node went away).
    var lost: AudioDeviceError? { get set }
    /// The data thread is in the client's call (render or capture).
    var inClient: Bool { get }
    /// Makes the device closed and drops its clients; false when it was closed already.
    mutating func close() -> Bool
    /// Ends the run a failure interrupts: `ended` when there was one (the device is idle now),
    /// with the client that was being called, if any, to be told.
    mutating func endRun() -> (ended: Bool, client: Client?)
    /// The client that hears the graph's moves now: a running (or paused) device's.
    var listener: Client? { get }
}

/// What a PipeWire device is made of besides its direction: its ``PipeWireStream``, the state
/// under its lock, where the stream is linked (its `info`), the graph's watch over the stream,
/// and the data thread while it is in the process callback.
final class PipeWireStreamBase<State: PipeWireDeviceState>: @unchecked Sendable {
    /// The device's state: taken briefly by the data thread and by the device's methods.
    let state = Guarded(State())
    /// The device: the node the stream is linked to once the graph has seen it (PipeWireGraph).
    var info: AudioDeviceInfo { linked.withLock { $0 } }
    private let linked: Guarded<AudioDeviceInfo>
    /// The graph's watch over the stream (PipeWireGraphWatch.swift); cancelled at close.
    private var graphWatch: PipeWireGraphWatch?
    /// The stream; nil only while it is being made, when callbacks may come.
    private(set) var stream: PipeWireStream!
    /// The loop's context (nil only while the stream is being made).
    var context: PipeWireContext? { stream?.context }
    /// The data thread while it is in the process callback (0: none).
    private let ioThread = Atomic<UInt>(0)

    /// A base for a device described as `info` until the graph says where its stream is linked.
    init(info: AudioDeviceInfo) {
        linked = Guarded(info)
    }

    /// Makes the stream of `device` (see ``PipeWireStream``), waits up to a second for it to
    /// be linked, and has the graph watch it.
    func open(
        _ direction: AudioDeviceDirection, target: String?, sampleRate: Double, channels: Int, bufferFrames: Int,
        sampleFormat: PipeWireSampleFormat, channelsByIndex: Bool, applicationName: String, remote: String?,
        device: some PipeWireStreamDevice
    ) throws(AudioDeviceError) {
        // The graph (its registry, the nodes it binds) is made before the stream: made while
        // the session manager links a new stream, it can leave the stream never linked.
        _ = try? PipeWireGraph.shared(for: PipeWireContext.shared().connection(remote: remote))
        stream = try PipeWireStream(
            direction, target: target, sampleRate: sampleRate, channels: channels, sampleFormat: sampleFormat,
            latencyFrames: bufferFrames, channelsByIndex: channelsByIndex, applicationName: applicationName, remote: remote,
            handler: device)
        _ = stream.waitUntilLinked(timeout: 1)
        graphWatch = PipeWireGraph.watch(stream, target: target, observer: device)
    }

    /// Takes `device` as where the stream is linked; true when that changed.
    func link(to device: AudioDeviceInfo) -> Bool {
        linked.withLock { info -> Bool in
            guard info != device else { return false }
            info = device
            return true
        }
    }

    /// Cancels the graph's watch and destroys the stream.
    func destroy() {
        graphWatch?.cancel()
        stream?.destroy()
    }

    /// True on the data thread while it is in the process callback.
    var onIOThread: Bool { ioThread.load(ordering: .relaxed) == Self.currentThread }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// The data thread's process callback: dequeues the stream's buffer and hands it to `body`
    /// with the thread marked as the I/O thread (``onIOThread``); `body` queues it back. A
    /// buffer without data goes back at once. Does not allocate.
    func process(_ body: (PipeWireCycle) -> Void) {
        guard let pointer = stream?.pointer, let buffer = pw_stream_dequeue_buffer(pointer) else { return }
        ioThread.store(Self.currentThread, ordering: .relaxed)
        defer { ioThread.store(0, ordering: .relaxed) }
        var maxsize: UInt32 = 0
        var chunk: UnsafeMutablePointer<spa_chunk>?
        guard let data = cpw_buffer_data(buffer, &maxsize, &chunk), let chunk else {
            pw_stream_queue_buffer(pointer, buffer)
            return
        }
        body(PipeWireCycle(stream: pointer, buffer: buffer, data: data, maxsize: Int(maxsize), chunk: chunk))
    }
}

/// A buffer the data thread dequeued: its memory, its size and its chunk.
struct PipeWireCycle {
    let stream: OpaquePointer
    let buffer: UnsafeMutablePointer<pw_buffer>
    let data: UnsafeMutableRawPointer
    /// Bytes the buffer's memory holds.
    let maxsize: Int
    let chunk: UnsafeMutablePointer<spa_chunk>

    /// Gives the buffer back to the stream.
    func queue() { pw_stream_queue_buffer(stream, buffer) }
}

/// A PipeWire device of either direction (``PipeWireOutputDevice``, ``PipeWireInputDevice``):
/// built on a ``PipeWireStreamBase``, it writes only what its direction does — the data
/// thread's cycle, starting and stopping — and the hooks below; what the stream's and the
/// graph's events do, closing and failing are said once, here.
protocol PipeWireStreamDevice: PipeWireStreamHandler, PipeWireGraphObserver {
    associatedtype State: PipeWireDeviceState
    var base: PipeWireStreamBase<State> { get }
    /// After closing or a failure ended a run, with the state's lock held (the output holds
    /// its clock there).
    func settle(_ s: inout State)
    /// Tells `client` `event` (from the thread that found it, no lock held).
    func tell(_ client: State.Client, _ event: AudioDeviceEvent)
}

extension PipeWireStreamDevice {
    var stream: PipeWireStream { base.stream }
    /// The loop's context (nil only while the stream is being made).
    var context: PipeWireContext? { base.context }
    var state: Guarded<State> { base.state }

    // MARK: The loop's thread (its lock held)

    func pipeWireState(_ new: pw_stream_state, error: String?) {
        if new == PW_STREAM_STATE_ERROR { fail(AudioDeviceError(.ioFailed, "PipeWire stream error: \(error ?? "unknown")")) }
    }

    func pipeWireLost(_ error: AudioDeviceError) { fail(error) }

    // MARK: The graph (PipeWireGraphWatch.swift): where the stream is linked becomes `info`,
    // a move of a stream on the default is reported as `.moved`, and the loss of the node a
    // stream was opened on by name as `.failed`.

    func pipeWireLinked(to device: AudioDeviceInfo, moved: Bool) {
        if base.link(to: device) && moved { report(.moved(device)) }
    }

    func pipeWireTargetLost(_ error: AudioDeviceError) { fail(error) }

    /// Tells the client of a running (or paused) device `event` (the graph's moves).
    func report(_ event: AudioDeviceEvent) {
        if let client = base.state.withLock({ $0.listener }) { tell(client, event) }
    }

    /// The stream or the server is gone: stop, and tell the client if it was being called.
    func fail(_ error: AudioDeviceError) {
        let state = base.state
        let client = state.withLock { s -> State.Client? in
            s.lost = s.lost ?? error
            let (ended, client) = s.endRun()
            guard ended else { return nil }
            while s.inClient { state.wait(timeoutNanos: 10_000_000) }
            settle(&s)
            return client
        }
        if let client { tell(client, .failed(error)) }
        base.context?.signal()
    }

    /// Destroys the stream once the data thread is out of the client. Idempotent.
    func closeStream() {
        let state = base.state
        let wasOpen = state.withLock { s -> Bool in
            guard s.close() else { return false }
            while s.inClient { state.wait(timeoutNanos: 10_000_000) }
            settle(&s)
            return true
        }
        if wasOpen { base.destroy() }
    }
}

extension PipeWireGraph {
    /// Watches `stream` (once it has a node) opened on device `target` (nil: the default) for
    /// `observer`; nil when the graph cannot be had (the server went away meanwhile: the
    /// stream hears that from its connection).
    static func watch(_ stream: PipeWireStream, target: String?, observer: any PipeWireGraphObserver) -> PipeWireGraphWatch? {
        guard let graph = try? shared(for: stream.connection) else { return nil }
        let node = stream.context.withLock { stream.pointer.map { pw_stream_get_node_id($0) } ?? UInt32(SPA_ID_INVALID) }
        guard node != UInt32(SPA_ID_INVALID) else { return nil }
        return graph.watch(streamNode: node, direction: stream.direction, target: target, observer: observer)
    }
}
