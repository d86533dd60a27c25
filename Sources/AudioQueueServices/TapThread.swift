#if canImport(Glibc)
import Glibc
#endif

/// Whether a processing tap runs on the calling thread. A tap runs with its queue's render (or
/// capture) lock held, and Apple's header allows it only two calls into its queue
/// (`AudioQueueProcessingTapGetSourceAudio` and `…GetQueueTime`): any other call on that queue
/// from inside the tap would wait for a lock its own thread holds, and a call on another queue
/// would take a second queue's lock out of the package's lock order (two taps calling into each
/// other's queues would deadlock). The queues' controls, parameters and properties check here
/// first and answer `invalidTapContext` instead.
enum TapThread {
    /// The thread-specific slot: the running tap's queue, unretained; nil outside a tap.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Marks the calling thread as running a tap of `queue`; returns what to restore.
    static func enter(_ queue: AnyObject) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(queue).toOpaque())
        return previous
    }

    /// Ends what ``enter(_:)`` began.
    static func leave(_ previous: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, previous)
    }

    /// `invalidTapContext` when the calling thread is running a processing tap (of `queue` or
    /// of another queue).
    static func refuse(_ queue: AnyObject, _ call: StaticString = #function) throws(AudioQueueError) {
        guard let current = pthread_getspecific(key) else { return }
        let own = current == Unmanaged.passUnretained(queue).toOpaque()
        throw AudioQueueError(
            .invalidTapContext,
            "\(call) called from inside \(own ? "the queue's own" : "another queue's") processing tap (a tap calls only GetSourceAudio and GetQueueTime)")
    }
}
