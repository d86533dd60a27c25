import AudioDevices
import CALSA
import Locking
import Synchronization

/// The life cycle both device classes share: an open PCM, the I/O thread that uses it between
/// start and stop, and closing.
///
/// Starts, stops and closes from program threads are serialized, so that at any time only one
/// thread uses the PCM: the I/O thread while it runs, else the one starting, stopping or
/// closing. A stop or close made from the I/O thread itself (from a source's or sink's
/// callback) takes no lock that a joining thread could hold: the loop ends when the callback
/// returns, and its thread is reaped by the next start or by ``tearDown()``.
final class PCMLoop: @unchecked Sendable {
    let pcm: OpaquePointer
    let waiter: PCMWaiter
    private let threadName: String

    private struct State {
        var thread: IOThread?
        var closed = false
        var pcmOpen = true
    }

    private let state = Guarded(State())
    /// Held by starts, stops and closes from program threads, across the join.
    private let transitions = Guarded((), rank: .device)
    private let stopRequested = Atomic<Bool>(false)
    /// The stop asked for wants what the PCM holds delivered first (capture).
    private let drainRequested = Atomic<Bool>(false)
    /// True from a start until the loop's body has returned.
    private let looping = Atomic<Bool>(false)

    init(pcm: OpaquePointer, threadName: String) throws(AudioDeviceError) {
        self.pcm = pcm
        self.threadName = threadName
        waiter = try PCMWaiter(pcm: pcm)
    }

    /// True once a stop was asked for: the loop's body checks it between calls.
    var shouldStop: Bool { stopRequested.load(ordering: .acquiring) }

    /// True when the stop asked for (``shouldStop``) is to drain: the body hands on what the
    /// PCM holds before it returns.
    var shouldDrain: Bool { drainRequested.load(ordering: .acquiring) }

    private var onLoopThread: Bool { state.withLock { $0.thread?.isCurrent ?? false } }

    /// Runs `prepare` with the PCM, then `body` on a new I/O thread.
    func start(
        uid: String, prepare: (OpaquePointer) throws(AudioDeviceError) -> Void,
        body: @escaping @Sendable () -> Void
    ) throws(AudioDeviceError) {
        guard !onLoopThread else {
            throw AudioDeviceError(.invalidState, "\(uid) cannot be started from its own I/O thread")
        }
        try transitions.withLock { _ throws(AudioDeviceError) in
            let previous = try state.withLock { s throws(AudioDeviceError) -> IOThread? in
                guard !s.closed else { throw AudioDeviceError(.invalidState, "\(uid) is closed") }
                guard let t = s.thread else { return nil }
                guard !looping.load(ordering: .acquiring) else {
                    throw AudioDeviceError(.invalidState, "\(uid) is already running")
                }
                s.thread = nil
                return t
            }
            // The loop ended by itself (the stream ended or failed): reap its thread.
            previous?.join()
            try state.withLock { s throws(AudioDeviceError) in
                try prepare(pcm)
                stopRequested.store(false, ordering: .releasing)
                drainRequested.store(false, ordering: .releasing)
                waiter.reset()
                looping.store(true, ordering: .releasing)
                do throws(AudioDeviceError) {
                    // Paced by the PCM (waiting in poll), or by the monotonic clock for a clockless one.
                    s.thread = try IOThread(name: threadName, priority: .deviceIO) { [self] in
                        body()
                        looping.store(false, ordering: .releasing)
                    }
                } catch {
                    looping.store(false, ordering: .releasing)
                    throw error
                }
            }
        }
    }

    /// Stops the loop, waits for it (unless called from it), then runs `finish` with the PCM
    /// if it is still open. With `drain` (not from the loop's thread), ``shouldDrain`` tells
    /// the body to hand on what the PCM holds before it returns.
    func stop(drain: Bool = false, finish: (OpaquePointer) -> Void) {
        if drain && !onLoopThread { drainRequested.store(true, ordering: .releasing) }
        requestStop()
        if onLoopThread {
            state.withLock { s in if s.pcmOpen && !s.closed { finish(pcm) } }
            return
        }
        transitions.withLock { _ in stopLocked(finish: finish) }
    }

    /// Stops as ``stop(finish:)`` does and closes the PCM. Later calls do nothing. From the I/O
    /// thread the PCM is closed by ``tearDown()``, once the loop is off the stack.
    func close(finish: (OpaquePointer) -> Void) {
        requestStop()
        if onLoopThread {
            state.withLock { s in
                guard !s.closed else { return }
                if s.pcmOpen { finish(pcm) }
                s.closed = true
            }
            return
        }
        transitions.withLock { _ in
            guard !state.withLock({ $0.closed }) else { return }
            stopLocked(finish: finish)
            state.withLock { s in
                s.closed = true
                if s.pcmOpen {
                    snd_pcm_close(pcm)
                    s.pcmOpen = false
                }
            }
        }
    }

    /// For the device's deinit: closes the PCM and reaps the thread (the loop has ended: it
    /// keeps the device alive while it runs), or lets it go when this is its last act.
    func tearDown() {
        let thread = state.withLock { s -> IOThread? in
            let t = s.thread
            s.thread = nil
            s.closed = true
            if s.pcmOpen {
                snd_pcm_close(pcm)
                s.pcmOpen = false
            }
            return t
        }
        if let thread {
            if thread.isCurrent { thread.detach() } else { thread.join() }
        }
    }

    private func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        waiter.wake()
    }

    private func stopLocked(finish: (OpaquePointer) -> Void) {
        requestStop()
        // The thread stays recorded while it is joined, so that a callback on it still knows
        // it is on the I/O thread and takes no lock.
        if let thread = state.withLock({ $0.thread }) {
            thread.join()
            state.withLock { s in
                if s.thread === thread { s.thread = nil }
            }
        }
        state.withLock { s in if s.pcmOpen && !s.closed { finish(pcm) } }
    }
}
