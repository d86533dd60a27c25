import AudioCore
import AudioCodecs
import AudioDevices

/// What only an output queue keeps behind its state lock.
struct OutputSide {
    /// The buffer queue.
    var pending = PendingBuffers()
    var session = DeviceSession<any AudioOutputDevice>()
    /// Set while the queue renders offline.
    var offline: OfflineSetup?
    var layout: AudioChannelLayout?
    var decodeBufferFrames: Int
    /// What `kAudioQueueProperty_ConverterError` says, and whether its listeners are still to hear.
    var converterError: OSStatus = 0
    var converterNoticePending = false
    var clock = OutputClock()
    /// The render thread, while the queue has one.
    var thread: IOThread?
    /// Set when the engine asked for the next buffer and there was none: the next enqueue
    /// wakes the render thread. Otherwise the engine has audio to decode until the ring is
    /// full, and the device wakes the render thread as it drains the ring.
    var engineWaiting = true

    init(decodeBufferFrames: Int) { self.decodeBufferFrames = decodeBufferFrames }
}

extension OutputSide: QueueSide {
    var isOffline: Bool { offline != nil }

    mutating func deviceStarted(at frames: Int64) { clock.playedAtStart = frames }

    mutating func deviceStopped(at frames: Int64) { clock.timeBase = clock.frames(devicePlayed: frames) }

    mutating func deviceReplaced(lostFrames: Int64, replacementFrames: Int64) {
        clock.timeBase = clock.frames(devicePlayed: lostFrames)
        clock.playedAtStart = replacementFrames
    }

    mutating func stoppedNow() { offline?.position = 0 }
}

/// The queue's time: where it was, in frames, when the device last started, and the device's
/// clock then.
struct OutputClock {
    var timeBase: Int64 = 0
    var playedAtStart: Int64 = 0

    /// The queue's time when the running device's clock reads `played`.
    func frames(devicePlayed played: Int64) -> Int64 { timeBase + max(0, played - playedAtStart) }
}

/// Offline render's set-up (`AudioQueueSetOfflineRenderFormat`) and position.
struct OfflineSetup {
    let format: AudioStreamBasicDescription
    let layout: AudioChannelLayout?
    let converter: PCMConverter
    /// Scratch for a format other than the render format, grown on demand.
    var float: PCMBuffer?
    var out: PCMBuffer?
    /// The queue's frames before channel assignments place them, grown on demand.
    var placing: PCMBuffer?
    var position: Int64 = 0
    /// The last render ended short at the end of the stream (nothing enqueued, no callback
    /// outstanding); an enqueue clears it. `playToEnd()` then completes the stop at once.
    var atEnd = false
}
