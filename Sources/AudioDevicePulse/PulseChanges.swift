import AudioDevices
import CPulseAudio

// The server's events: a sink or source added or removed, the defaults changed. The
// connection subscribes to them once something wants to hear of them (the HAL's listeners,
// through PulseBackend.reportChanges).

extension PulseConnection {
    /// Calls `handler` (on the loop's thread, lock held) after each change of the server's
    /// sinks, sources or defaults, until ``removeChangeHandler(_:)``; returns its number.
    func addChangeHandler(_ handler: @escaping @Sendable () -> Void) -> Int {
        withLock {
            if !subscribedToChanges && isReady {
                subscribedToChanges = true
                pa_context_set_subscribe_callback(context, { _, _, _, userdata in
                    Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue().serverChanged()
                }, Unmanaged.passUnretained(self).toOpaque())
                let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
                pulseDiscard(pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
            }
            nextChangeHandler += 1
            changeHandlers[nextChangeHandler] = handler
            return nextChangeHandler
        }
    }

    /// Stops calling handler `number`.
    func removeChangeHandler(_ number: Int) {
        withLock { _ = changeHandlers.removeValue(forKey: number) }
    }

    /// An event came (on the loop's thread, lock held).
    private func serverChanged() {
        changeGeneration += 1
        for handler in changeHandlers.values { handler() }
    }

    /// The server's sinks and sources, and its defaults. While the connection hears of the
    /// server's changes (someone holds a ``PulseChangeSubscription``), the sinks and sources
    /// listed last are given again when no event has come since: the defaults are asked first,
    /// a round trip after which every event the server sent before it has been seen (the server
    /// sends its events before answering a later request), so a sink added a moment ago by
    /// another program is never missed. Without a subscription, all is asked every time.
    func listing(timeout: UInt64) throws(AudioDeviceError) -> (defaults: (sink: String?, source: String?), sinks: [PulseEndpoint], sources: [PulseEndpoint]) {
        let defaults = try defaults(timeout: timeout)
        let (generation, kept) = withLock { () -> (Int?, (sinks: [PulseEndpoint], sources: [PulseEndpoint])?) in
            guard subscribedToChanges, isReady else { return (nil, nil) }
            if let kept = keptEndpoints, kept.generation == changeGeneration { return (changeGeneration, (kept.sinks, kept.sources)) }
            return (changeGeneration, nil)
        }
        if let kept { return (defaults, kept.sinks, kept.sources) }
        let sinks = try endpoints(.output, timeout: timeout)
        let sources = try endpoints(.input, timeout: timeout)
        // Kept under the number read before listing: an event meanwhile makes the next call ask again.
        if let generation { withLock { keptEndpoints = (generation, sinks, sources) } }
        return (defaults, sinks, sources)
    }
}

/// Reports of one connection's changes, while held (``PulseBackend/reportChanges(_:)``); holds
/// the connection, so that the enumerations meanwhile use it too.
final class PulseChangeSubscription: AudioDeviceChangeSubscription {
    let connection: PulseConnection
    let number: Int

    init(connection: PulseConnection, handler: @escaping @Sendable () -> Void) {
        self.connection = connection
        number = connection.addChangeHandler(handler)
    }

    var isActive: Bool { connection.withLock { connection.isReady && connection.subscribedToChanges } }

    deinit { connection.removeChangeHandler(number) }
}
