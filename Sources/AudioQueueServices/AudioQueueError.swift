public import AudioCore

/// An error from an audio queue, carrying Apple's `kAudioQueueErr_…` result code.
public struct AudioQueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Apple's audio queue result codes (`AudioQueue.h`).
    public enum Code: OSStatus, Sendable, CaseIterable {
        /// `kAudioQueueErr_InvalidBuffer`: the buffer does not belong to this queue (or was freed).
        case invalidBuffer = -66687
        /// `kAudioQueueErr_BufferEmpty`: the buffer's ``AudioQueueBuffer/audioDataByteSize`` is 0.
        case bufferEmpty = -66686
        /// `kAudioQueueErr_DisposalPending`: the queue is being (or has been) disposed of.
        case disposalPending = -66685
        /// `kAudioQueueErr_InvalidProperty`: no such property, or not writable.
        case invalidProperty = -66684
        /// `kAudioQueueErr_InvalidPropertySize`: the property value's size is wrong.
        case invalidPropertySize = -66683
        /// `kAudioQueueErr_InvalidParameter`: no such parameter, or an argument out of range.
        case invalidParameter = -66682
        /// `kAudioQueueErr_CannotStart`: the queue cannot start (the device would not).
        case cannotStart = -66681
        /// `kAudioQueueErr_InvalidDevice`: the device cannot be found or opened.
        case invalidDevice = -66680
        /// `kAudioQueueErr_BufferInQueue`: the buffer cannot be freed while enqueued.
        case bufferInQueue = -66679
        /// `kAudioQueueErr_InvalidRunState`: not allowed while running (or while stopped).
        case invalidRunState = -66678
        /// `kAudioQueueErr_InvalidQueueType`: an output-only call on an input queue, or the reverse.
        case invalidQueueType = -66677
        /// `kAudioQueueErr_Permissions`.
        case permissions = -66676
        /// `kAudioQueueErr_InvalidPropertyValue`: the property value is not acceptable.
        case invalidPropertyValue = -66675
        /// `kAudioQueueErr_PrimeTimedOut`.
        case primeTimedOut = -66674
        /// `kAudioQueueErr_CodecNotFound`: no decoder for the queue's format.
        case codecNotFound = -66673
        /// `kAudioQueueErr_InvalidCodecAccess`.
        case invalidCodecAccess = -66672
        /// `kAudioQueueErr_QueueInvalidated`: the device went away under a running queue.
        case queueInvalidated = -66671
        /// `kAudioQueueErr_TooManyTaps`: processing taps are not supported here.
        case tooManyTaps = -66670
        /// `kAudioQueueErr_InvalidTapContext`.
        case invalidTapContext = -66669
        /// `kAudioQueueErr_RecordUnderrun`: an input queue ran out of buffers to record into.
        case recordUnderrun = -66668
        /// `kAudioQueueErr_InvalidTapType`.
        case invalidTapType = -66667
        /// `kAudioQueueErr_BufferEnqueuedTwice`: the buffer is already enqueued.
        case bufferEnqueuedTwice = -66666
        /// `kAudioQueueErr_CannotStartYet`.
        case cannotStartYet = -66665
        /// `kAudioQueueErr_EnqueueDuringReset`: enqueue during a reset, stop or dispose.
        case enqueueDuringReset = -66632
        /// `kAudioQueueErr_InvalidOfflineMode`: needs offline mode and the queue is not in it, or the reverse.
        case invalidOfflineMode = -66626
    }

    /// Apple's result code.
    public var code: Code
    /// What went wrong, in words.
    public var reason: String

    /// An error with Apple's `code` and a `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The `OSStatus` Apple's function returns for this failure.
    public var status: OSStatus { code.rawValue }

    public var description: String { "\(reason) (\(status))" }
}
