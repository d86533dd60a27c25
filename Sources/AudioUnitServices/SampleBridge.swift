import AudioCore
import AudioCodecs

/// Moves audio between a bus's stream format, held in an `AudioBufferList`, and interleaved
/// Float32 (what devices take and give): one converter per buffer, made before the first
/// render, and a scratch buffer for non-interleaved formats. Never allocates after it is made.
final class SampleBridge: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    let channels: Int
    let capacity: Int
    private let toFloat: PCMConverter
    private let fromFloat: PCMConverter
    private let scratch: UnsafeMutablePointer<Float>
    /// Bytes of one frame of one buffer.
    let bufferFrameBytes: Int

    init(format: AudioStreamBasicDescription, capacity: Int) throws(AudioUnitError) {
        self.format = format
        channels = Int(format.channelsPerFrame)
        self.capacity = capacity
        var single = format
        if !format.isInterleaved { single.channelsPerFrame = 1 }
        let float = AudioStreamBasicDescription.deviceFloat(sampleRate: format.sampleRate, channels: Int(single.channelsPerFrame))
        do {
            toFloat = try PCMConverter(from: single, to: float)
            fromFloat = try PCMConverter(from: float, to: single)
        } catch {
            throw AudioUnitError(.formatNotSupported, "\(error.reason): \(format)")
        }
        bufferFrameBytes = Int(format.bytesPerFrame)
        scratch = .allocate(capacity: max(1, capacity))
        scratch.initialize(repeating: 0, count: max(1, capacity))
    }

    deinit { scratch.deallocate() }

    private var buffers: Int { format.isInterleaved ? 1 : channels }

    /// Whether `list` holds `frames` frames of the format (enough buffers, each large enough).
    func fits(_ list: AudioBufferListPointer, frames: Int) -> Bool {
        guard list.count >= buffers, frames <= capacity else { return false }
        for i in 0..<buffers {
            let b = list[i]
            guard b.data != nil, Int(b.dataByteSize) >= frames * bufferFrameBytes else { return false }
        }
        return true
    }

    /// Converts `frames` frames of `list` into `out`, interleaved Float32 of ``channels``.
    func read(_ list: AudioBufferListPointer, frames: Int, into out: UnsafeMutablePointer<Float>) {
        let bytes = frames * bufferFrameBytes
        if format.isInterleaved {
            guard let data = list[0].data else { return }
            try? toFloat.convert(
                UnsafeRawBufferPointer(start: data, count: bytes), frameCount: frames,
                into: UnsafeMutableRawBufferPointer(start: out, count: frames * channels * 4))
            return
        }
        for c in 0..<channels {
            guard let data = list[c].data else { continue }
            try? toFloat.convert(
                UnsafeRawBufferPointer(start: data, count: bytes), frameCount: frames,
                into: UnsafeMutableRawBufferPointer(start: scratch, count: frames * 4))
            for f in 0..<frames { out[f * channels + c] = scratch[f] }
        }
    }

    /// Converts `frames` frames of interleaved Float32 of ``channels`` at `samples` into `list`.
    func write(_ samples: UnsafePointer<Float>, frames: Int, into list: AudioBufferListPointer) {
        let bytes = frames * bufferFrameBytes
        if format.isInterleaved {
            guard let data = list[0].data else { return }
            try? fromFloat.convert(
                UnsafeRawBufferPointer(start: samples, count: frames * channels * 4), frameCount: frames,
                into: UnsafeMutableRawBufferPointer(start: data, count: bytes))
            list[0].dataByteSize = UInt32(bytes)
            return
        }
        for c in 0..<channels {
            guard let data = list[c].data else { continue }
            for f in 0..<frames { scratch[f] = samples[f * channels + c] }
            try? fromFloat.convert(
                UnsafeRawBufferPointer(start: scratch, count: frames * 4), frameCount: frames,
                into: UnsafeMutableRawBufferPointer(start: data, count: bytes))
            list[c].dataByteSize = UInt32(bytes)
        }
    }
}
