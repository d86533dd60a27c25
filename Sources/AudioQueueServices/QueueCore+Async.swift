import AudioCore
import Dispatch
import Locking

/// What the async API is built on: waiting for a queue to have stopped, and property changes
/// as `AsyncStream`s over the listeners. Nothing here is a second mechanism — the waits end
/// where `isRunning` listeners hear the stop, and the streams are listeners.
extension QueueCore {
    // MARK: Waiting for the stop

    /// Stopped (or disposed of), every callback returned, and `isRunning` false (state lock
    /// held). A queue asked to stop asynchronously before it was started counts as stopped.
    func hasStopped(_ s: State) -> Bool {
        (s.phase.isStopped || s.phase == .disposed) && !s.line.hasWaiting && s.line.outstanding == 0
            && !s.line.delivering && !s.reportedRunning
    }

    /// Returns once the queue has stopped (``hasStopped(_:)``): at once if it has, else when
    /// a stop, a failure or the disposal completes. Not cut short by cancellation: the stop
    /// goes on either way, and so does the wait for it.
    func waitUntilStopped() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if hasStopped(s) { return true }
                s.stopWaiters.append { done.resume() }
                return false
            }
            if now { done.resume() }
        }
    }

    /// Resumes the waits of ``waitUntilStopped()`` and tells the stop observer, if the queue
    /// has stopped. Called where a stop, failure or disposal ends (no lock held).
    func checkStopped() {
        let waiters = state.withLock { s -> [@Sendable () -> Void] in
            guard hasStopped(s) else { return [] }
            // Under the lock: a start (which changes the phase under it) cannot come between
            // seeing the stop and telling the observer of it.
            s.stopObserver?(s.phase == .disposed)
            defer { s.stopWaiters.removeAll() }
            return s.stopWaiters
        }
        for resume in waiters { resume() }
    }

    // MARK: Property streams

    /// An `AsyncStream` of `value(owner)` read each time the listeners of `property` are told
    /// of a change, on the callback queue, in order. `initial`: the stream starts with the
    /// value now. `distinct`: a value equal to the one before is not repeated (a listener may
    /// be told of a change that another notice already reported).
    ///
    /// The stream ends when the consuming task is cancelled or stops iterating (the listener
    /// is then removed), or when the queue is disposed of or goes away; on a disposed queue it
    /// is empty.
    func changes<Value: Sendable & Equatable>(
        of property: AudioQueuePropertyID, owner: Owner, initial: Bool, distinct: Bool,
        value: @escaping @Sendable (Owner) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let last = Guarded<Value?>(nil)
        let emit: @Sendable (Owner) -> Void = { owner in
            let v = value(owner)
            let fresh = last.withLock { l -> Bool in
                if distinct, l == v { return false }
                l = v
                return true
            }
            if fresh { continuation.yield(v) }
        }
        let token: Int
        do {
            token = try addListener(property) { owner, _ in emit(owner) }
        } catch {
            continuation.finish()
            return stream
        }
        // Disposal may have ended the streams since the listener was added: then this one ends now.
        let live = state.withLock { s -> Bool in
            guard (try? s.checkUsable()) != nil else {
                s.listeners.removeAll { $0.token == token }
                return false
            }
            s.streamEnds[token] = { continuation.finish() }
            return true
        }
        guard live else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.endStream(token) }
        // On the callback queue, so that it comes before any change reported later.
        if initial { callbackQueue.async { [weak owner] in if let owner { emit(owner) } } }
        return stream
    }

    /// Removes a stream's listener once the stream has ended.
    private func endStream(_ token: Int) {
        state.withLock { s in
            s.streamEnds[token] = nil
            s.listeners.removeAll { $0.token == token }
        }
    }

    /// Ends every property stream (disposal, or the queue going away). No lock held.
    func finishStreams() {
        let ends = state.withLock { s -> [@Sendable () -> Void] in
            defer { s.streamEnds.removeAll() }
            return Array(s.streamEnds.values)
        }
        for end in ends { end() }
    }
}
