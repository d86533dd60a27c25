public import AudioCore
import AudioDevices

/// An error from an audio queue, carrying Apple's `kAudioQueueErr_…` result code.
public struct AudioQueueError: AudioResultError {
    /// Apple's audio queue result codes (`AudioQueue.h`).
    public struct Code: AudioResultCode {
        /// The `OSStatus` value.
        public var rawValue: OSStatus
        /// The code whose value is `rawValue`, named or not.
        public init(rawValue: OSStatus) { self.rawValue = rawValue }

        /// `kAudioQueueErr_InvalidBuffer`: the buffer does not belong to this queue (or was freed).
        public static let invalidBuffer = Code(rawValue: -66687)
        /// `kAudioQueueErr_BufferEmpty`: the buffer's ``AudioQueueBuffer/audioDataByteSize`` is 0.
        public static let bufferEmpty = Code(rawValue: -66686)
        /// `kAudioQueueErr_DisposalPending`: the queue is being (or has been) disposed of.
        public static let disposalPending = Code(rawValue: -66685)
        /// `kAudioQueueErr_InvalidProperty`: no such property, or not writable.
        public static let invalidProperty = Code(rawValue: -66684)
        /// `kAudioQueueErr_InvalidPropertySize`: the property value's size is wrong.
        public static let invalidPropertySize = Code(rawValue: -66683)
        /// `kAudioQueueErr_InvalidParameter`: no such parameter, or an argument out of range.
        public static let invalidParameter = Code(rawValue: -66682)
        /// `kAudioQueueErr_CannotStart`: the queue cannot start (the device would not).
        public static let cannotStart = Code(rawValue: -66681)
        /// `kAudioQueueErr_InvalidDevice`: the device cannot be found or opened.
        public static let invalidDevice = Code(rawValue: -66680)
        /// `kAudioQueueErr_BufferInQueue`: the buffer cannot be freed while enqueued.
        public static let bufferInQueue = Code(rawValue: -66679)
        /// `kAudioQueueErr_InvalidRunState`: not allowed while running (or while stopped).
        public static let invalidRunState = Code(rawValue: -66678)
        /// `kAudioQueueErr_InvalidQueueType`: an output-only call on an input queue, or the reverse.
        public static let invalidQueueType = Code(rawValue: -66677)
        /// `kAudioQueueErr_Permissions`.
        public static let permissions = Code(rawValue: -66676)
        /// `kAudioQueueErr_InvalidPropertyValue`: the property value is not acceptable.
        public static let invalidPropertyValue = Code(rawValue: -66675)
        /// `kAudioQueueErr_PrimeTimedOut`.
        public static let primeTimedOut = Code(rawValue: -66674)
        /// `kAudioQueueErr_CodecNotFound`: no decoder for the queue's format.
        public static let codecNotFound = Code(rawValue: -66673)
        /// `kAudioQueueErr_InvalidCodecAccess`.
        public static let invalidCodecAccess = Code(rawValue: -66672)
        /// `kAudioQueueErr_QueueInvalidated`: the device went away under a running queue.
        public static let queueInvalidated = Code(rawValue: -66671)
        /// `kAudioQueueErr_TooManyTaps`: the queue has a processing tap already.
        public static let tooManyTaps = Code(rawValue: -66670)
        /// `kAudioQueueErr_InvalidTapContext`: a tap call outside the tap's processor (or source asked of a siphon).
        public static let invalidTapContext = Code(rawValue: -66669)
        /// `kAudioQueueErr_RecordUnderrun`: an input queue ran out of buffers to record into.
        public static let recordUnderrun = Code(rawValue: -66668)
        /// `kAudioQueueErr_InvalidTapType`: the queue time asked of an input queue's tap.
        public static let invalidTapType = Code(rawValue: -66667)
        /// `kAudioQueueErr_BufferEnqueuedTwice`: the buffer is already enqueued.
        public static let bufferEnqueuedTwice = Code(rawValue: -66666)
        /// `kAudioQueueErr_CannotStartYet`.
        public static let cannotStartYet = Code(rawValue: -66665)
        /// `kAudioQueueErr_EnqueueDuringReset`: enqueue during a reset, stop or dispose.
        public static let enqueueDuringReset = Code(rawValue: -66632)
        /// `kAudioQueueErr_InvalidOfflineMode`: needs offline mode and the queue is not in it, or the reverse.
        public static let invalidOfflineMode = Code(rawValue: -66626)
    }

    /// Apple's result code.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String
    /// The device's own error when the device would not start, so that a start that fails
    /// later (at its start time) reports the device's code, not one made up for the queue.
    var deviceError: AudioDeviceError?

    /// An error with Apple's `code` and a `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
