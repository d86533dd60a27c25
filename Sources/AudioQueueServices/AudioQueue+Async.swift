public import AudioCore

/// What Swift concurrency reaches for, over the same machinery as the callbacks: stops that
/// return once the queue has stopped, and property changes as `AsyncStream`s.
extension AudioQueue {
    /// Stops playback now and returns once the queue has stopped: every enqueued buffer has
    /// come back through the output callback and ``isRunning`` is false.
    ///
    /// What ``stop(immediate:)`` does with `true`, awaited. Errors as that call's.
    public func stop() async throws(AudioQueueError) {
        try stop(immediate: true)
        await core.waitUntilStopped()
    }

    /// Lets everything enqueued play, then stops, and returns once the queue has stopped:
    /// after the last buffer has played, its callback has returned, and ``isRunning`` is false.
    ///
    /// What ``stop(immediate:)`` does with `false`, awaited: the queue stops once its buffer
    /// queue runs out, so call it once the last buffer is enqueued — a buffer a callback
    /// enqueues after the queue ran out comes back unplayed. A program whose callback enqueues
    /// to the end of its data calls `stop(immediate: false)` there, as the guide does, and
    /// awaits ``waitUntilStopped()``. On a queue that is stopped (never started, or stopped
    /// already) it returns at once; on a paused one it returns once the queue has been resumed
    /// and has played to the end.
    ///
    /// Offline (``setOfflineRenderFormat(_:channelLayout:)``) the end comes from rendering: the
    /// call returns once ``offlineRender(at:into:frameCount:)`` has rendered the last frame —
    /// or at once if it already has.
    ///
    /// Cancelling the waiting task does not cut the wait short; stop the queue with
    /// ``stop()`` to end it sooner.
    public func playToEnd() async throws(AudioQueueError) {
        let stopped = try core.state.withLock { s throws(AudioQueueError) -> Bool in
            try s.checkUsable()
            return s.phase.isStopped
        }
        if !stopped {
            try stop(immediate: false)
            let ended = core.state.withLock { s in s.phase.isStopping && s.side.offline?.atEnd == true }
            if ended { finishAsyncStop() }
        }
        await core.waitUntilStopped()
    }

    /// Returns once the queue has stopped — by a stop of the program's (from a callback, say),
    /// the end of an asynchronous stop, a device failure or disposal: after the last callback,
    /// with ``isRunning`` false. At once when the queue is stopped. Asks for no stop itself.
    public func waitUntilStopped() async { await core.waitUntilStopped() }

    /// ``isRunning`` now, then each time it changes (`kAudioQueueProperty_IsRunning`): true
    /// once the device really plays, false once the queue has stopped and every callback has
    /// run. Values are read as each change is reported, on the callback queue; a value is not
    /// repeated, and changes faster than the reports may coalesce.
    ///
    /// Each access makes a new stream with a listener of its own. It ends when the consuming
    /// task is cancelled or stops iterating, and when the queue is disposed of or goes away.
    public var isRunningChanges: AsyncStream<Bool> { core.changes(of: .isRunning, owner: self, initial: true, distinct: true) { $0.isRunning } }

    /// ``currentDevice`` each time the device changes (`kAudioQueueProperty_CurrentDevice`):
    /// set by the program, or followed to a new default. Ends as ``isRunningChanges`` does.
    public var currentDeviceChanges: AsyncStream<String?> { core.changes(of: .currentDevice, owner: self, initial: false, distinct: false) { $0.currentDevice } }

    /// ``converterError`` each time it is reported (`kAudioQueueProperty_ConverterError`):
    /// a decoding failure, or `kAudioQueueErr_QueueInvalidated` when the device failed. Ends
    /// as ``isRunningChanges`` does.
    public var converterErrors: AsyncStream<OSStatus> { core.changes(of: .converterError, owner: self, initial: false, distinct: false) { $0.converterError } }
}
