import AudioCore
import AudioCodecs
import AudioConverterServices
import AudioDevices

/// Everything behind an input queue's capture lock: the encoder, the buffer being filled and
/// the frames staged for it, the position on the capture timeline, and the level meter. The
/// capture thread holds it while it encodes what one wake-up brought; enqueueing takes it
/// briefly, to check that the buffer holds a packet.
///
/// The timeline counts every frame the device delivered since the start, including frames
/// lost (no buffer to fill, or a full capture ring): a buffer's start time is the timeline
/// position of its first frame, so a loss shows as a jump between consecutive buffers.
final class CaptureLine {
    /// Float32 at the queue's rate and channel count to the queue's format: PCM conversion or
    /// the encoder (Apple's input queue records through an audio converter too).
    let converter: AudioConverter
    /// The converter's encoder; nil for linear PCM.
    var encoder: (any AudioEncoder)? { converter.encoder }
    /// The queue's format, complete (`kAudioQueueProperty_StreamDescription`).
    let format: AudioStreamBasicDescription
    let channels: Int
    let deviceChannels: Int
    let framesPerPacket: Int
    /// Bytes of one packet of every channel (constant-size formats), 0 for variable sizes.
    let packetBytes: Int

    /// Frames read from the ring, in the device's channel count.
    private let chunk: UnsafeMutablePointer<Float>
    let chunkFrames: Int
    /// Frames mapped to the queue's channel count (when it differs from the device's).
    private let mapped: UnsafeMutablePointer<Float>?
    /// Frames staged for the buffer being filled (interleaved Float32, queue channels).
    private var staging: UnsafeMutablePointer<Float>
    private var stagingCapacity: Int

    /// The buffer being filled, its start on the timeline and in host time, and what it wants.
    private(set) var current: AudioQueueBuffer?
    private var currentStart: Int64 = 0
    private var currentHostTime: UInt64 = 0
    private var wanted = 0
    private(set) var staged = 0
    /// Frames the latest buffer taken wants (0 before the first).
    private(set) var framesWanted = 0

    /// Frames still to come before the buffer being filled is full (the next one's whole size
    /// when none is being filled).
    var framesToFill: Int { current != nil ? wanted - staged : max(1, framesWanted) }
    /// The timeline position of the next frame read from the ring.
    private(set) var position: Int64 = 0
    /// Frames dropped because no buffer was enqueued, since the queue was created.
    private(set) var lostFrames: Int64 = 0
    /// Frames of silence that completed a last partial packet (IMA4 at a stop or flush).
    private(set) var paddingFrames: Int64 = 0
    /// Dropping now (an underrun in progress): reported once, when it begins.
    private(set) var dropping = false
    var meter: LevelMeter
    /// The queue's processing tap, if it has one (``AudioInputQueue/makeProcessingTap(flags:processor:)``).
    var tap: InputTapStage?
    private var tapUnderrun = false

    init(converter: AudioConverter, deviceChannels: Int, chunkFrames: Int) {
        self.converter = converter
        format = converter.outputFormat
        channels = Int(format.channelsPerFrame)
        self.deviceChannels = deviceChannels
        framesPerPacket = max(1, Int(format.framesPerPacket))
        if format.bytesPerPacket == 0 {
            packetBytes = 0
        } else if format.isPCM && !format.isInterleaved {
            packetBytes = Int(format.bytesPerPacket) * channels
        } else {
            packetBytes = Int(format.bytesPerPacket)
        }
        self.chunkFrames = chunkFrames
        chunk = .allocate(capacity: chunkFrames * deviceChannels)
        chunk.initialize(repeating: 0, count: chunkFrames * deviceChannels)
        if deviceChannels != channels {
            let m = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * channels)
            m.initialize(repeating: 0, count: chunkFrames * channels)
            mapped = m
        } else {
            mapped = nil
        }
        stagingCapacity = 0
        staging = .allocate(capacity: 1)
        staging.initialize(to: 0)
        meter = LevelMeter(channels: channels)
    }

    deinit {
        chunk.deallocate()
        mapped?.deallocate()
        staging.deallocate()
    }

    /// The most packets a buffer of `buffer`'s capacity takes (0: not even one).
    func packetCapacity(of buffer: AudioQueueBuffer) -> Int {
        let bytes = buffer.audioDataBytesCapacity
        if packetBytes > 0 { return bytes / packetBytes }
        let byPackets = bytes / max(1, converter.maximumOutputPacketSize)
        return min(byPackets, buffer.packetDescriptionCapacity)
    }

    // MARK: Filling

    /// The pointer `frames` frames can be read into from the ring.
    var readTarget: UnsafeMutablePointer<Float> { chunk }

    /// Takes `frames` frames just read into ``readTarget``: each goes into the buffer being
    /// filled, which is taken from `next` when needed and handed to `finish` once full; frames
    /// that find no buffer are dropped and counted. Returns true when a drop began (an underrun
    /// to report).
    func consume(
        frames: Int, hostTime: (Int64) -> UInt64, next: () -> AudioQueueBuffer?, finish: (FinishedBuffer) -> Void
    ) -> Bool {
        var source = UnsafePointer(chunk)
        if let mapped {
            ChannelMapping.map(chunk, channels: deviceChannels, into: mapped, channels: channels, frames: frames)
            source = UnsafePointer(mapped)
        }
        // The one place captured audio is in the queue's rate and channels as Float32: a
        // processing tap's input. What the tap returns is what is recorded.
        guard let tap else { return stage(source, frames: frames, hostTime: hostTime, next: next, finish: finish) }
        // A stored flag, not a captured local (which would be boxed on the heap every time).
        tapUnderrun = false
        tap.process(source, frames: frames) { processed, n in
            if stage(processed, frames: n, hostTime: hostTime, next: next, finish: finish) { tapUnderrun = true }
        }
        return tapUnderrun
    }

    /// Puts `frames` frames of `source` into buffers (``consume(frames:hostTime:next:finish:)``).
    private func stage(
        _ source: UnsafePointer<Float>, frames: Int, hostTime: (Int64) -> UInt64, next: () -> AudioQueueBuffer?,
        finish: (FinishedBuffer) -> Void
    ) -> Bool {
        meter.measure(source, frames: frames)
        var underrun = false
        var done = 0
        while done < frames {
            if current == nil {
                guard let buffer = next() else {
                    // Nowhere to put it: dropped, and the next buffer's start time says so.
                    if !dropping {
                        dropping = true
                        underrun = true
                    }
                    lostFrames += Int64(frames - done)
                    position += Int64(frames - done)
                    return underrun
                }
                begin(buffer, hostTime: hostTime)
            }
            let take = min(frames - done, wanted - staged)
            (staging + staged * channels).update(from: source + done * channels, count: take * channels)
            staged += take
            done += take
            position += Int64(take)
            if staged == wanted { finish(complete()) }
        }
        return underrun
    }

    /// Back to the start of the timeline (a start after a stop): a drop in progress is over.
    func restartTimeline() {
        position = 0
        dropping = false
        tap?.reset(at: 0)
        // What an encoder with a delay held back at the stop belongs to the last recording.
        if encoder?.hasDelay == true {
            converter.reset()
            encoderHolds = false
            holdsTail = false
        }
    }

    /// Skips `frames` frames of the timeline that the device lost (a full ring) or that a reset
    /// discarded.
    func skip(_ frames: Int) {
        position += Int64(frames)
        tap?.skip(frames)
    }

    /// Makes `buffer` the one being filled, starting at the timeline's position.
    func begin(_ buffer: AudioQueueBuffer, hostTime: (Int64) -> UInt64) {
        dropping = false
        current = buffer
        currentStart = position
        currentHostTime = hostTime(position)
        wanted = framesFitting(packetCapacity(of: buffer), in: buffer)
        framesWanted = wanted
        staged = 0
        if stagingCapacity < wanted {
            staging.deallocate()
            staging = .allocate(capacity: wanted * channels)
            staging.initialize(repeating: 0, count: wanted * channels)
            stagingCapacity = wanted
        }
    }

    /// The frames to stage for `buffer`: `packets` packets' worth, fewer where the encoder may
    /// write packets held from earlier frames too (an encoder with a delay, AAC), so what it
    /// writes always fits.
    private func framesFitting(_ packets: Int, in buffer: AudioQueueBuffer) -> Int {
        var k = max(1, packets)
        guard let encoder, encoder.hasDelay else { return k * framesPerPacket }
        let bytes = buffer.audioDataBytesCapacity
        let largest = max(1, encoder.maximumPacketSize)
        while k > 1 {
            if let need = encoder.outputByteCount(forFrames: k * framesPerPacket), need <= bytes,
               (need + largest - 1) / largest <= buffer.packetDescriptionCapacity { break }
            k -= 1
        }
        return k * framesPerPacket
    }

    /// Set while an encoder with a delay (AAC) holds recorded frames that are not out in packets
    /// yet: from the first frames it is given until a stop has ended its stream and every
    /// packet is out.
    private(set) var encoderHolds = false
    /// Set when a stop ended the converter's stream and what an encoder with a delay held back
    /// did not all fit in the buffer: the rest goes into the next ones, each begun (``begin(_:hostTime:)``)
    /// and completed as the end of the stream.
    private(set) var holdsTail = false

    /// Converts what is staged into the current buffer and hands it back. A buffer must be being
    /// filled. A last partial packet (a flush) is completed with silence; `ending` (a stop) also
    /// ends the converter's stream: what an encoder with a delay holds back goes into the buffer
    /// too, as much as fits, and ``holdsTail`` says whether more is left for the buffers after
    /// it. Once everything is out the converter starts a new stream.
    func complete(ending: Bool = false) -> FinishedBuffer {
        let buffer = current!
        current = nil
        var packets = 0
        var bytes = 0
        let delayed = encoder?.hasDelay == true
        holdsTail = false
        if staged > 0 || (ending && encoderHolds) {
            // A flush of a partial packet pads it, except with an encoder whose packets overlap
            // (AAC): ending its stream would put a new priming in mid-recording, so the frames
            // wait in the converter for the next buffer.
            let endStream = ending || (staged % framesPerPacket != 0 && !delayed)
            let frames = staged
            let input = UnsafeRawBufferPointer(start: staging, count: frames * channels * MemoryLayout<Float>.size)
            var given = frames == 0
            var finished = !endStream
            if frames > 0 && delayed { encoderHolds = true }
            let outputs: [UnsafeMutableRawBufferPointer]
            let capacity: Int
            if format.isPCM && !format.isInterleaved {
                // One region per channel, back to back, each `frames` frames long.
                let region = frames * Int(format.bytesPerFrame)
                outputs = (0..<channels).map { UnsafeMutableRawBufferPointer(rebasing: buffer.data[($0 * region)..<(($0 + 1) * region)]) }
                capacity = frames
            } else {
                outputs = [buffer.data]
                capacity = format.isPCM ? frames : max(packetCapacity(of: buffer), 1)
            }
            let descriptions = packetBytes == 0 ? buffer.packetDescriptionBuffer : nil
            do throws(AudioCodecError) {
                let result = try converter.fill(
                    AudioConverterOutput(buffers: outputs, packetCapacity: capacity, packetDescriptions: descriptions)
                ) { _ throws(AudioCodecError) in
                    if !given {
                        given = true
                        return AudioConverterInputData(input, packetCount: frames)
                    }
                    if endStream { return nil }
                    throw AudioCodecError(.inputPaused, "all staged frames given")
                }
                (packets, bytes) = (result.packetCount, result.byteCount * outputs.count)
                finished = finished || result.endOfStream || !delayed
            } catch {
                (packets, bytes) = (0, 0)
                finished = true
            }
            if !finished {
                // The buffer is full and the encoder still holds packets of the recording.
                holdsTail = true
            } else if endStream {
                paddingFrames += Int64(converter.primeInfo.trailingFrames)
                encoderHolds = false
                converter.reset()
            }
        }
        buffer.audioDataByteSize = bytes
        buffer.packetDescriptionCount = packetBytes == 0 ? packets : 0
        let stamp = AudioTimeStamp(
            sampleTime: Double(currentStart), hostTime: currentHostTime,
            flags: currentHostTime > 0 ? .sampleHostTimeValid : .sampleTimeValid)
        staged = 0
        return FinishedBuffer(buffer: buffer, startTime: stamp, packetCount: packets)
    }

    /// Drops what is staged and the buffer being filled, which is handed back empty.
    func abandon() -> FinishedBuffer? {
        dropping = false
        guard current != nil else { return nil }
        staged = 0
        return complete()
    }

    /// Forgets codec state (after a reset).
    func resetCodec() {
        converter.reset()
        encoderHolds = false
        holdsTail = false
        dropping = false
        tap?.reset(at: position)
    }
}

/// Mapping between channel counts when a device records a different count from the queue's:
/// one channel is copied to every channel; several are averaged into one; otherwise channels
/// are taken in order and missing ones are silent.
enum ChannelMapping {
    static func map(
        _ source: UnsafePointer<Float>, channels from: Int, into destination: UnsafeMutablePointer<Float>, channels to: Int,
        frames: Int
    ) {
        if from == 1 {
            for f in 0..<frames {
                let x = source[f]
                for c in 0..<to { destination[f * to + c] = x }
            }
        } else if to == 1 {
            let scale = 1 / Float(from)
            for f in 0..<frames {
                var sum: Float = 0
                for c in 0..<from { sum += source[f * from + c] }
                destination[f] = sum * scale
            }
        } else {
            for f in 0..<frames {
                for c in 0..<to { destination[f * to + c] = c < from ? source[f * from + c] : 0 }
            }
        }
    }
}
