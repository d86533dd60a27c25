import Locking

/// A queue's pipeline lock: the render line of an output queue (``AudioQueue``'s decode-ahead,
/// chain and meter), the capture line of an input queue. Rank `pipeline` in the package's lock
/// order (after the transitions lock, before a device's and the state lock).
///
/// A processing tap runs with this lock held, so the lock itself keeps the tap rule: its
/// checked path, ``withLock(_:_:)`` — the one every member a program calls goes through —
/// throws `invalidTapContext` on a thread running a tap (of this queue, or of another, whose
/// lock would be taken out of order), instead of waiting for ever. The unchecked paths are for
/// the queue's own threads — its render or capture thread, the device's I/O thread, its
/// control queue — which never run a tap outside the lock; debug builds assert it.
final class PipelineLock<State>: Sendable {
    private let guarded: Guarded<State>
    /// The queue's ``QueueCore/serial``: what a tap's thread is marked with.
    let serial: UInt64

    init(_ state: State, queue serial: UInt64) {
        guarded = Guarded(state, rank: .pipeline)
        self.serial = serial
    }

    /// Runs `body` with the lock held; `invalidTapContext`, without taking it, on a thread
    /// running a processing tap. `call` names the member for the error.
    @inline(__always)
    func withLock<T>(
        _ call: StaticString = #function, _ body: (inout State) throws(AudioQueueError) -> T
    ) throws(AudioQueueError) -> T {
        try TapThread.refuse(serial, call)
        return try guarded.withLock(body)
    }

    /// Runs `body` with the lock held, unchecked: only on the queue's own threads.
    @inline(__always)
    func withLockOnQueueThread<T>(_ body: (inout State) -> T) -> T {
        TapThread.assertOutside()
        return guarded.withLock(body)
    }

    /// Runs `body` with the lock held if it is free now, nil without waiting otherwise: the
    /// device's I/O thread.
    @inline(__always)
    func tryWithLockOnQueueThread<T>(_ body: (inout State) -> T) -> T? {
        guarded.tryWithLock(body)
    }

    /// Debug builds: stops when the calling thread does not hold the lock.
    @inline(__always)
    func assertHeld(file: StaticString = #fileID, line: UInt = #line) {
        guarded.assertHeld(file: file, line: line)
    }
}
