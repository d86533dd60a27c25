public import AudioCore
import Locking
import Synchronization

/// Flags of a processing tap (Apple's `AudioQueueProcessingTapFlags`): where it sits and whether
/// it only watches (given to ``AudioQueue/makeProcessingTap(flags:processor:)``), and what the
/// audio is (start or end of a stream, passed to the tap and returned by
/// ``AudioQueueProcessingTap/Call/getSourceAudio(frames:)``).
public struct AudioQueueProcessingTapFlags: OptionSet, Sendable, Hashable {
    /// The flags' bits, as Apple numbers them.
    public var rawValue: UInt32
    /// Flags with the bits `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioQueueProcessingTap_PreEffects`: the tap sees the queue's decoded audio before the
    /// queue's effects (time/pitch), in source frames.
    public static let preEffects = AudioQueueProcessingTapFlags(rawValue: 1 << 0)
    /// `kAudioQueueProcessingTap_PostEffects`: the tap sees the audio after the queue's effects,
    /// in the frames the device plays.
    public static let postEffects = AudioQueueProcessingTapFlags(rawValue: 1 << 1)
    /// `kAudioQueueProcessingTap_Siphon`: the tap is given the audio, already fetched, and may
    /// only look at it; the audio passes unchanged.
    public static let siphon = AudioQueueProcessingTapFlags(rawValue: 1 << 2)
    /// `kAudioQueueProcessingTap_StartOfStream`: the source audio begins a new stream (after a
    /// start, a reset, the end of an earlier stream, or a jump in the queue's time).
    public static let startOfStream = AudioQueueProcessingTapFlags(rawValue: 1 << 8)
    /// `kAudioQueueProcessingTap_EndOfStream`: the source has ended (an asynchronous stop has
    /// played everything enqueued).
    public static let endOfStream = AudioQueueProcessingTapFlags(rawValue: 1 << 9)

    /// The flags a tap may be made with.
    static let creation: AudioQueueProcessingTapFlags = [.preEffects, .postEffects, .siphon]
}

/// A processing tap on an audio queue (Apple's `AudioQueueProcessingTapRef`): code of the
/// program's that sees — and, unless it is a siphon, replaces — the queue's audio: decoded audio
/// on its way to the device for an ``AudioQueue``, recorded audio before it is encoded for an
/// ``AudioInputQueue``.
///
/// Made with ``AudioQueue/makeProcessingTap(flags:processor:)`` (or the input queue's) while the
/// queue is stopped; one per queue. The processor runs on the queue's render (or capture)
/// thread with the queue's pipeline lock held, ``maximumFrames`` frames at most at a time, in
/// ``processingFormat``: it must not block, allocate much or call the queue. See the
/// Processing Taps article.
///
/// `@unchecked Sendable`: ``call`` is mutable and used only on the thread running the
/// processor, one chunk at a time (its methods check that they run there); the rest is
/// constants, an atomic and a `Guarded` lock.
public final class AudioQueueProcessingTap: @unchecked Sendable {
    /// What runs for each chunk of audio: returns the frames of output it produced (in the
    /// call's ``Call/buffer(channel:)`` buffers, or where ``Call/setOutput(channel:_:)`` says);
    /// a siphon's result is ignored.
    public typealias Processor = @Sendable (_ call: Call) -> Int

    /// The flags the tap was made with (``AudioQueueProcessingTapFlags/preEffects`` or
    /// ``AudioQueueProcessingTapFlags/postEffects``, perhaps ``AudioQueueProcessingTapFlags/siphon``).
    public let flags: AudioQueueProcessingTapFlags
    /// The most frames the tap is asked for at once: the power of two nearest 50 ms of audio
    /// (2048 at 44.1 and 48 kHz, as Apple's header says of 44.1 kHz).
    public let maximumFrames: Int
    /// The format the tap processes in: the queue's sample rate and channel count, native
    /// Float32, packed, non-interleaved (one buffer per channel; flags 0x29).
    public let processingFormat: AudioStreamBasicDescription
    /// The channel count of ``processingFormat``.
    public let channels: Int
    let processor: Processor
    /// The call object passed to the processor, the same for every chunk (nothing is allocated
    /// per chunk). Its methods work only while the processor runs.
    public let call: Call
    private let disposed = Atomic<Bool>(false)
    /// Removes the tap from its queue (set by the queue that made it; read by ``dispose()`` and
    /// cleared by the queue's own disposal, perhaps on two threads at once).
    private let detachment = Guarded<(@Sendable () throws(AudioQueueError) -> Void)?>(nil)
    var detach: (@Sendable () throws(AudioQueueError) -> Void)? {
        get { detachment.withLock { $0 } }
        set { detachment.withLock { $0 = newValue } }
    }

    init(flags: AudioQueueProcessingTapFlags, sampleRate: Double, channels: Int, processor: @escaping Processor) {
        self.flags = flags
        self.channels = channels
        self.processor = processor
        maximumFrames = Self.maximumFrames(sampleRate: sampleRate)
        let bytes = UInt32(MemoryLayout<Float>.size)
        processingFormat = AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: [.isFloat, .isPacked, .isNonInterleaved],
            bytesPerPacket: bytes, framesPerPacket: 1, bytesPerFrame: bytes, channelsPerFrame: UInt32(channels), bitsPerChannel: 32)
        call = Call(channels: channels, maximumFrames: maximumFrames)
        call.tap = self
    }

    /// The power of two nearest 50 ms at `sampleRate` (at least 64 frames).
    static func maximumFrames(sampleRate: Double) -> Int {
        let target = sampleRate / 20
        var p = 64
        while Double(p * 2) <= target { p *= 2 }
        return target - Double(p) > Double(p * 2) - target ? p * 2 : p
    }

    /// Refuses flags a tap cannot be made with: exactly one of pre- and post-effects, perhaps
    /// siphon, nothing else (`kAudio_ParamError`).
    static func check(_ flags: AudioQueueProcessingTapFlags) throws(AudioQueueError) {
        let placed = flags.intersection([.preEffects, .postEffects])
        guard flags.subtracting(AudioQueueProcessingTapFlags.creation).isEmpty, placed == .preEffects || placed == .postEffects else {
            throw AudioQueueError(.paramError, "a tap is made with PreEffects or PostEffects (not both), and perhaps Siphon: not \(flags.rawValue)")
        }
    }

    /// True once the tap has been disposed of (by ``dispose()`` or with its queue).
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Removes the tap from its queue (`AudioQueueProcessingTapDispose`): only while the queue
    /// is stopped (`invalidRunState` otherwise — paused is not enough), never from inside the
    /// tap's own processor. Disposing of a tap already disposed of does nothing.
    public func dispose() throws(AudioQueueError) {
        guard !isDisposed else { return }
        if call.isActive { throw AudioQueueError(.invalidRunState, "a tap cannot be disposed of from inside its processor") }
        try detach?()
        markDisposed()
    }

    func markDisposed() {
        disposed.store(true, ordering: .releasing)
        detach = nil
    }
}

extension AudioQueueError.Code {
    /// `kAudio_ParamError` (−50): an argument that cannot be right (processing tap flags).
    public static let paramError = AudioQueueError.Code(rawValue: -50)
}

/// Where a tap's source audio and the queue's time come from: the output or input stage.
protocol TapHost: AnyObject {
    /// Up to `frames` frames of source audio, channel `c` written from `destination(c)`; the
    /// frames given, the flags and the time stamp of the first.
    func takeSource(frames: Int, into destination: (Int) -> UnsafeMutablePointer<Float>)
        -> (frames: Int, flags: AudioQueueProcessingTapFlags, timeStamp: AudioTimeStamp)
    /// The queue's time of the audio taken in this call; nil on an input queue.
    func queueTime() -> (sampleTime: Double, frameCount: Int)?
}
