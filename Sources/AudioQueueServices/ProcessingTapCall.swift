public import AudioCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension AudioQueueProcessingTap {
    /// One run of a tap's processor: what the queue asks for, the source audio, and the
    /// tap's output. Valid only while the processor runs: ``getSourceAudio(frames:)`` and
    /// ``queueTime()`` throw `invalidTapContext` at any other time, and the buffers it hands out
    /// must not be kept.
    ///
    /// The same object is passed for every chunk; nothing is allocated per chunk.
    public final class Call {
        /// The tap being run.
        public internal(set) unowned var tap: AudioQueueProcessingTap!
        /// The frames asked for (at most ``AudioQueueProcessingTap/maximumFrames``). For a
        /// siphon: the frames in ``buffer(channel:)``.
        public internal(set) var frameCount = 0
        /// On entry, the tap's flags with ``AudioQueueProcessingTapFlags/startOfStream`` or
        /// ``AudioQueueProcessingTapFlags/endOfStream`` when they apply; ``getSourceAudio(frames:)``
        /// adds the end of stream when the source returns it. The queue reads nothing back:
        /// the stream ends when the source ends.
        public var flags: AudioQueueProcessingTapFlags = []
        /// On an output queue, a continuous time stamp: the sample time counts the tap's frames
        /// since the stream started. On an input queue, the capture time of the source audio
        /// (after ``getSourceAudio(frames:)``).
        public var timeStamp = AudioTimeStamp()
        /// The flags ``getSourceAudio(frames:)`` last returned.
        public internal(set) var sourceFlags: AudioQueueProcessingTapFlags = []
        /// The time stamp of the source audio ``getSourceAudio(frames:)`` last returned.
        public internal(set) var sourceTimeStamp = AudioTimeStamp()
        /// Source frames taken in this call so far.
        public internal(set) var sourceFrames = 0
        /// The channel count of the tap's processing format.
        public let channelCount: Int
        let maximumFrames: Int
        /// Channel `c`'s buffer at `storage + c * maximumFrames`.
        let storage: UnsafeMutablePointer<Float>
        /// Where the output of each channel is read from after the processor returns.
        let outputs: UnsafeMutablePointer<UnsafePointer<Float>>
        /// The thread running the processor (`pthread_self()`), 0 when none: source audio and
        /// the queue time are for that thread only.
        private let activeThread = Atomic<UInt>(0)
        unowned(unsafe) var host: (any TapHost)?
        /// The serial of the queue the tap belongs to (``QueueCore/serial``), for ``TapThread``.
        var queueSerial: UInt64 = 0
        /// A source request in this call came back short.
        var shortSource = false
        /// A source request has been made in this call (or the audio was given: a siphon).
        var sourceTaken = false

        init(channels: Int, maximumFrames: Int) {
            channelCount = channels
            self.maximumFrames = maximumFrames
            storage = .allocate(capacity: channels * maximumFrames)
            storage.initialize(repeating: 0, count: channels * maximumFrames)
            outputs = .allocate(capacity: channels)
            for c in 0..<channels { (outputs + c).initialize(to: UnsafePointer(storage + c * maximumFrames)) }
        }

        deinit {
            storage.deallocate()
            outputs.deallocate()
        }

        /// True while the processor runs.
        public var isActive: Bool { activeThread.load(ordering: .relaxed) == UInt(pthread_self()) }

        /// The queue's buffer for channel `channel` (``AudioQueueProcessingTap/maximumFrames``
        /// frames): where ``getSourceAudio(frames:)`` puts the source audio and, unless
        /// ``setOutput(channel:_:)`` says otherwise, where the output is read from — process in
        /// place. For a siphon it holds the audio (``frameCount`` frames), to be read only.
        public func buffer(channel: Int) -> UnsafeMutableBufferPointer<Float> {
            precondition(channel >= 0 && channel < channelCount, "channel \(channel) of \(channelCount)")
            return UnsafeMutableBufferPointer(start: storage + channel * maximumFrames, count: maximumFrames)
        }

        /// Reads the output of channel `channel` from `pointer` (memory of the tap's own, at
        /// least the frames returned) instead of ``buffer(channel:)``.
        public func setOutput(channel: Int, _ pointer: UnsafePointer<Float>) {
            precondition(channel >= 0 && channel < channelCount, "channel \(channel) of \(channelCount)")
            outputs[channel] = pointer
        }

        /// Takes up to `frames` frames of source audio into ``buffer(channel:)``
        /// (`AudioQueueProcessingTapGetSourceAudio` with NULL buffer pointers) and returns how
        /// many came: fewer when the buffer queue ran dry. ``sourceFlags`` and
        /// ``sourceTimeStamp`` describe them.
        ///
        /// `invalidTapContext` outside the processor and for a siphon; `paramError` for more
        /// than ``AudioQueueProcessingTap/maximumFrames`` or fewer than 0.
        public func getSourceAudio(frames: Int) throws(AudioQueueError) -> Int {
            let base = storage, stride = maximumFrames
            return try getSourceAudio(frames: frames) { base + $0 * stride }
        }

        /// Takes up to `frames` frames of source audio into the tap's own memory: channel `c`
        /// at `destination(c)`, which must have room for `frames` frames
        /// (`AudioQueueProcessingTapGetSourceAudio` with buffer pointers of the caller's).
        public func getSourceAudio(frames: Int, into destination: (_ channel: Int) -> UnsafeMutablePointer<Float>) throws(AudioQueueError) -> Int {
            guard isActive, let host else {
                throw AudioQueueError(.invalidTapContext, "source audio is taken only inside the tap's processor")
            }
            guard !tap.flags.contains(.siphon) else {
                throw AudioQueueError(.invalidTapContext, "a siphon is given its audio; it does not take it")
            }
            guard frames >= 0, frames <= maximumFrames else {
                throw AudioQueueError(.paramError, "\(frames) frames asked of a tap of at most \(maximumFrames)")
            }
            let got = host.takeSource(frames: frames, into: destination)
            sourceTaken = true
            sourceFrames += got.frames
            if got.frames < frames { shortSource = true }
            sourceFlags = got.flags
            sourceTimeStamp = got.timeStamp
            if got.flags.contains(.endOfStream) { flags.insert(.endOfStream) }
            return got.frames
        }

        /// The queue's time (`AudioQueueProcessingTapGetQueueTime`): the queue sample time
        /// (source frames) of the audio taken, and the frames of queue time it covers — the
        /// source frames for a pre-effects tap, the tap's frames times the playback rate for a
        /// post-effects one (0 when nothing came).
        ///
        /// Only inside the processor and after ``getSourceAudio(frames:)`` (a siphon: at any
        /// point of its call) — `invalidTapContext` otherwise; `invalidTapType` on an input queue
        /// (or a tap disposed of), whenever it is asked.
        public func queueTime() throws(AudioQueueError) -> (sampleTime: Double, frameCount: Int) {
            guard let host, let time = host.queueTime() else {
                throw AudioQueueError(.invalidTapType, "an input queue's tap has no queue time")
            }
            guard isActive, sourceTaken else {
                throw AudioQueueError(.invalidTapContext, "the queue time is read inside the tap's processor, after the source audio is taken")
            }
            return time
        }

        // MARK: The stage's side

        /// Readies the call for a run of the processor.
        func begin(frames: Int, flags: AudioQueueProcessingTapFlags, timeStamp: AudioTimeStamp, given: Int = 0) {
            frameCount = frames
            self.flags = flags
            self.timeStamp = timeStamp
            sourceFlags = []
            sourceTimeStamp = AudioTimeStamp()
            sourceFrames = given
            sourceTaken = given > 0 || tap.flags.contains(.siphon)
            shortSource = false
            for c in 0..<channelCount { outputs[c] = UnsafePointer(storage + c * maximumFrames) }
            activeThread.store(UInt(pthread_self()), ordering: .relaxed)
        }

        /// Runs the processor: its result, between 0 and ``frameCount``.
        func run() -> Int {
            let previous = TapThread.enter(queueSerial)
            let produced = tap.processor(self)
            TapThread.leave(previous)
            activeThread.store(0, ordering: .relaxed)
            return min(max(produced, 0), frameCount)
        }
    }
}

/// Interleaving between the chain's interleaved Float32 and a tap's buffers, one per channel.
/// Stereo, the common case, goes four frames at a time through SIMD registers.
enum Deinterleave {
    static func split(
        _ source: UnsafePointer<Float>, channels: Int, frames: Int, into destination: (Int) -> UnsafeMutablePointer<Float>
    ) {
        switch channels {
        case 1:
            destination(0).update(from: source, count: frames)
        case 2:
            let left = UnsafeMutableRawPointer(destination(0)), right = UnsafeMutableRawPointer(destination(1))
            let s = UnsafeRawPointer(source)
            var f = 0
            while f + 4 <= frames {
                let v = s.loadUnaligned(fromByteOffset: f * 8, as: SIMD8<Float>.self)
                left.storeBytes(of: v.evenHalf, toByteOffset: f * 4, as: SIMD4<Float>.self)
                right.storeBytes(of: v.oddHalf, toByteOffset: f * 4, as: SIMD4<Float>.self)
                f += 4
            }
            let l = destination(0), r = destination(1)
            while f < frames {
                l[f] = source[2 * f]
                r[f] = source[2 * f + 1]
                f += 1
            }
        default:
            for c in 0..<channels {
                let d = destination(c)
                var i = c
                for f in 0..<frames {
                    d[f] = source[i]
                    i += channels
                }
            }
        }
    }

    static func merge(_ outputs: UnsafePointer<UnsafePointer<Float>>, channels: Int, frames: Int, into destination: UnsafeMutablePointer<Float>) {
        switch channels {
        case 1:
            destination.update(from: outputs[0], count: frames)
        case 2:
            let l = outputs[0], r = outputs[1]
            let left = UnsafeRawPointer(l), right = UnsafeRawPointer(r)
            let d = UnsafeMutableRawPointer(destination)
            var f = 0
            while f + 4 <= frames {
                var v = SIMD8<Float>()
                v.evenHalf = left.loadUnaligned(fromByteOffset: f * 4, as: SIMD4<Float>.self)
                v.oddHalf = right.loadUnaligned(fromByteOffset: f * 4, as: SIMD4<Float>.self)
                d.storeBytes(of: v, toByteOffset: f * 8, as: SIMD8<Float>.self)
                f += 4
            }
            while f < frames {
                destination[2 * f] = l[f]
                destination[2 * f + 1] = r[f]
                f += 1
            }
        default:
            for c in 0..<channels {
                let s = outputs[c]
                var i = c
                for f in 0..<frames {
                    destination[i] = s[f]
                    i += channels
                }
            }
        }
    }
}
