import AudioDevices
import Synchronization

extension AudioQueue {
    /// Refills the decode ring on the device's I/O thread, when that is cheap and safe: linear
    /// PCM (converting is a few microseconds per refill, where decoding a codec's packets would
    /// hold up every stream the I/O thread serves) and both locks free at once. Waking the
    /// render thread instead costs two context switches per refill, more than the refill
    /// itself. Returns false when the render thread must do it.
    ///
    /// The locks are only tried, never waited for: the I/O thread may hold the device's own
    /// lock (a sound server's main loop calls it with its lock held), which a thread holding
    /// the state lock may be waiting for (``currentTime(timeline:)`` asks the device for its
    /// position under the state lock). Never while a stage (a tap, the time/pitch unit) is
    /// inserted: its work may allocate, and belongs on the render thread.
    func refillOnIOThread() -> Bool {
        let done = render.tryWithLockOnQueueThread { r -> (refilled: Bool, deliver: Bool) in
            guard r.engine.decoder == nil, !r.hasPrimed, r.chain.isEmpty else { return (false, false) }
            let result = core.state.tryWithLock { s -> (refilled: Bool, deliver: Bool) in
                guard s.side.session.status == .running, s.side.offline == nil, s.phase.isActive,
                      !s.side.converterNoticePending else { return (false, false) }
                let absorbed = feed.underrunFrames.exchange(0, ordering: .acquiringAndReleasing)
                if absorbed > 0 { r.engine.position += Int64(absorbed) }
                r.fillRing { takeNext(&s) }
                collectFinished(&r, into: &s)
                // Listeners of a new converter error are told by the render thread.
                guard !s.side.converterNoticePending else { return (false, false) }
                if s.phase.isStopping && s.side.pending.isEmpty && !r.engine.isBusy {
                    feed.endOfStream.store(true, ordering: .sequentiallyConsistent)
                }
                return (true, core.claimDelivery(&s))
            }
            return result ?? (false, false)
        }
        guard let done else { return false }
        if done.deliver { core.startDelivery(self) }
        return done.refilled
    }

    /// How the decode ring has been kept filled since the queue was created: refills on the
    /// device's I/O thread, and rounds of the render thread that found the queue playing (each
    /// a wake-up of that thread). For the package's tests and benchmarks.
    package var refillCounts: (ioThread: Int, renderThread: Int) {
        (feed.ioThreadRefills.load(ordering: .relaxed), feed.renderThreadRounds.load(ordering: .relaxed))
    }
}
