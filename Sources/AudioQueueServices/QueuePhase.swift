/// Where an audio queue is in its life cycle (both directions).
public enum AudioQueueRunState: Sendable, Hashable {
    /// Created, or stopped: enqueued buffers wait for a start.
    case stopped
    /// Started: playing or recording (or rendering offline).
    case running
    /// Paused: buffers and position kept until a start resumes.
    case paused
    /// Stopping asynchronously: playing (or recording) what is enqueued, then stopping.
    case stopping
}

/// The run-state machine both queue types share. What used to be flags beside the run state
/// (an asynchronous stop asked for before the start, a dispose waiting for the end, disposal)
/// are states here, so that no combination can contradict another.
enum QueuePhase: Equatable, Sendable {
    /// Stopped; `stopWhenStarted`: an asynchronous stop was asked for, and takes effect once the
    /// queue is started and has played (or recorded into) what is enqueued.
    case stopped(stopWhenStarted: Bool)
    case running
    /// Paused; `stopWhenStarted` as for ``stopped(stopWhenStarted:)`` — set when a stopping queue
    /// is paused, so that it goes on stopping once resumed.
    case paused(stopWhenStarted: Bool)
    /// Stopping asynchronously; `thenDispose`: an asynchronous dispose follows the stop.
    case stopping(thenDispose: Bool)
    /// Disposed of; nothing more is allowed.
    case disposed

    static let initial = QueuePhase.stopped(stopWhenStarted: false)

    /// The public view.
    var runState: AudioQueueRunState {
        switch self {
        case .stopped, .disposed: .stopped
        case .running: .running
        case .paused: .paused
        case .stopping: .stopping
        }
    }

    /// Running or stopping: the device plays (or records), or offline render may run.
    var isActive: Bool {
        switch self {
        case .running, .stopping: true
        default: false
        }
    }

    var isStopped: Bool { if case .stopped = self { true } else { false } }
    var isPaused: Bool { if case .paused = self { true } else { false } }
    var isStopping: Bool { if case .stopping = self { true } else { false } }

    /// Disposed of, or to be once it has stopped: only rendering to the end is still allowed.
    var isDisposing: Bool {
        switch self {
        case .disposed, .stopping(thenDispose: true): true
        default: false
        }
    }

    /// Throws `disposalPending` once the queue has been (or is being) disposed of.
    func checkUsable() throws(AudioQueueError) {
        if isDisposing { throw AudioQueueError(.disposalPending, "the queue has been disposed of") }
    }

    /// The phase a start moves to from here; `invalidRunState` while stopping asynchronously.
    /// Nil when already running (nothing to do).
    func startTarget() throws(AudioQueueError) -> QueuePhase? {
        switch self {
        case .running: return nil
        case .stopping: throw AudioQueueError(.invalidRunState, "the queue is stopping; start it again once it has stopped")
        case .stopped(let stop), .paused(let stop): return stop ? .stopping(thenDispose: false) : .running
        case .disposed: throw AudioQueueError(.disposalPending, "the queue has been disposed of")
        }
    }

    /// An asynchronous stop asked for now.
    mutating func requestAsynchronousStop() {
        switch self {
        case .running: self = .stopping(thenDispose: false)
        case .stopped: self = .stopped(stopWhenStarted: true)
        case .paused: self = .paused(stopWhenStarted: true)
        case .stopping, .disposed: break
        }
    }

    /// A pause asked for now; returns whether the queue was playing (its device must pause).
    mutating func pause() -> Bool {
        switch self {
        case .running: self = .paused(stopWhenStarted: false)
        case .stopping: self = .paused(stopWhenStarted: true)
        case .stopped, .paused, .disposed: return false
        }
        return true
    }

    /// A reset forgets an asynchronous stop asked for before the start.
    mutating func forgetPendingStop() {
        switch self {
        case .stopped: self = .stopped(stopWhenStarted: false)
        case .paused: self = .paused(stopWhenStarted: false)
        default: break
        }
    }
}
