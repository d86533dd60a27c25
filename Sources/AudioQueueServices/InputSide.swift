import AudioCore
import AudioDevices

/// What only an input queue keeps behind its state lock.
struct InputSide {
    /// Buffers enqueued empty, waiting to be filled, in order.
    private(set) var empty: [AudioQueueBuffer] = []
    private var head = 0
    var session = DeviceSession<any AudioInputDevice>()
    var layout: AudioChannelLayout?
    /// What `kAudioQueueProperty_ConverterError` says (`kAudioQueueErr_RecordUnderrun` after
    /// captured audio had nowhere to go), and whether its listeners are still to hear.
    var converterError: OSStatus = 0
    var converterNoticePending = false
    /// The capture thread, while the queue has one.
    var thread: IOThread?

    var hasEmpty: Bool { head < empty.count }

    /// The buffers waiting to be filled, in order.
    var emptyBuffers: ArraySlice<AudioQueueBuffer> { empty[head...] }

    mutating func append(_ buffer: AudioQueueBuffer) {
        if head > 32 && head * 2 > empty.count {
            empty.removeFirst(head)
            head = 0
        }
        empty.append(buffer)
    }

    mutating func popFirst() -> AudioQueueBuffer? {
        guard head < empty.count else { return nil }
        defer { head += 1 }
        return empty[head]
    }

    mutating func removeAll() -> [AudioQueueBuffer] {
        defer {
            empty.removeAll()
            head = 0
        }
        return Array(empty[head...])
    }
}

extension InputSide: QueueSide {
    /// Input queues always record from a device.
    var isOffline: Bool { false }
    /// The queue's time is what the feed counted, not the device's clock.
    mutating func deviceStarted(at frames: Int64) {}
    mutating func deviceStopped(at frames: Int64) {}
    mutating func deviceReplaced(lostFrames: Int64, replacementFrames: Int64) {}
    mutating func stoppedNow() {}
}
