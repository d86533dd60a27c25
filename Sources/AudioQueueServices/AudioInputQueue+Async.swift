public import AudioCore

/// What Swift concurrency reaches for on a recording queue, over the same machinery as the
/// callbacks: a stop that returns once the queue has stopped, and property changes as
/// `AsyncStream`s.
extension AudioInputQueue {
    /// Stops recording and returns once the queue has stopped: everything recorded up to the
    /// call has come back (through the callback, or in ``recordedBuffers``, which has ended)
    /// and ``isRunning`` is false.
    ///
    /// What ``stop(immediate:)`` does with `false`, awaited: nothing recorded before the call
    /// is lost. On a queue that is stopped it returns at once; on a paused one, once the queue
    /// has been resumed and has handed back what it recorded. Cancelling the waiting task does
    /// not cut the wait short.
    public func stop() async throws(AudioQueueError) {
        let stopped = try core.state.withLock { s throws(AudioQueueError) -> Bool in
            try s.checkUsable()
            return s.phase.isStopped
        }
        if !stopped { try stop(immediate: false) }
        await core.waitUntilStopped()
    }

    /// Returns once the queue has stopped — by a stop of the program's, a device failure or
    /// disposal: after the last callback, with ``isRunning`` false (and ``recordedBuffers``
    /// ended). At once when the queue is stopped. Asks for no stop itself.
    public func waitUntilStopped() async { await core.waitUntilStopped() }

    /// ``isRunning`` now, then each time it changes (`kAudioQueueProperty_IsRunning`): true
    /// once the device really records — the moment to wait for after ``start(at:)``, which
    /// returns before the device delivers — false once the queue has stopped and every
    /// callback has run. Values are read as each change is reported, on the callback queue; a
    /// value is not repeated, and changes faster than the reports may coalesce.
    ///
    /// Each access makes a new stream with a listener of its own. It ends when the consuming
    /// task is cancelled or stops iterating, and when the queue is disposed of or goes away.
    public var isRunningChanges: AsyncStream<Bool> { core.changes(of: .isRunning, owner: self, initial: true, distinct: true) { $0.isRunning } }

    /// ``currentDevice`` each time the device changes (`kAudioQueueProperty_CurrentDevice`):
    /// set by the program, or followed to a new default. Ends as ``isRunningChanges`` does.
    public var currentDeviceChanges: AsyncStream<String?> { core.changes(of: .currentDevice, owner: self, initial: false, distinct: false) { $0.currentDevice } }

    /// ``converterError`` each time it is reported (`kAudioQueueProperty_ConverterError`):
    /// `kAudioQueueErr_RecordUnderrun` when audio was lost for want of a buffer,
    /// `kAudioQueueErr_QueueInvalidated` when the device failed. Ends as ``isRunningChanges``
    /// does.
    public var converterErrors: AsyncStream<OSStatus> { core.changes(of: .converterError, owner: self, initial: false, distinct: false) { $0.converterError } }
}
