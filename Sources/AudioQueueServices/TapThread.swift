#if canImport(Glibc)
import Glibc
#endif

/// Whether a processing tap runs on the calling thread, and whose. A tap runs with its queue's
/// pipeline lock held, and Apple's header allows it only two calls into its queue
/// (`AudioQueueProcessingTapGetSourceAudio` and `…GetQueueTime`): any call on that queue that
/// takes the queue's transitions or pipeline lock would wait for a lock its own thread holds,
/// and such a call on another queue would take a second queue's lock out of the package's lock
/// order (two taps calling into each other's queues would deadlock).
///
/// The locks themselves ask here (``PipelineLock``, ``DeviceTransitions``): their checked
/// paths answer `invalidTapContext` on a tap's thread, so no call site has to remember to.
enum TapThread {
    /// The thread-specific slot: the running tap's queue (its ``QueueCore/serial``); none
    /// outside a tap.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Marks the calling thread as running a tap of the queue `serial`; returns what to restore.
    static func enter(_ serial: UInt64) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(serial)))
        return previous
    }

    /// Ends what ``enter(_:)`` began.
    static func leave(_ previous: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, previous)
    }

    /// The serial of the queue whose tap runs on this thread; nil outside a tap.
    static var current: UInt64? {
        pthread_getspecific(key).map { UInt64(UInt(bitPattern: $0)) }
    }

    /// `invalidTapContext` when the calling thread is running a processing tap (of the queue
    /// `serial` or of another queue).
    @inline(__always)
    static func refuse(_ serial: UInt64, _ call: StaticString) throws(AudioQueueError) {
        guard let current else { return }
        throw AudioQueueError(
            .invalidTapContext,
            "\(call) called from inside \(current == serial ? "the queue's own" : "another queue's") processing tap (a tap calls only GetSourceAudio and GetQueueTime)")
    }

    /// Debug builds: stops when the calling thread runs a tap (the unchecked lock paths, for
    /// the queue's own threads).
    @inline(__always)
    static func assertOutside(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        assert(current == nil, "a queue's own lock path taken inside a processing tap", file: file, line: line)
        #endif
    }
}
