#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A linear-phase variable-ratio resampler over interleaved Float32: a Kaiser-windowed sinc
/// (16 zero crossings each side, β = 9, read from a table with linear interpolation), its cutoff
/// lowered to 1 / ratio when the ratio is above 1 (fewer output frames than input). Output frame n
/// is read at input position Σ ratio, starting at 0, so there is no delay to trim; at ratio 1 the
/// positions are whole frames and the output is the input exactly. A ratio change glides
/// linearly over `transitionFrames` output frames.
///
/// Spectral's pitch stage: libsoxr's variable-rate engine is not linear-phase (its impulse
/// response at ratio 1 is asymmetric, centred 7 frames late), which made the Spectral processor
/// at rate 1 and pitch 0 anything but transparent.
final class SincResampler {
    let channels: Int
    let transitionFrames: Int
    private(set) var ratio: Double
    private var target: Double
    private var glideStep = 0.0
    private var glideLeft = 0
    /// Zero crossings each side of the kernel at cutoff 1, and table steps per crossing.
    private static let zeroCrossings = 16
    private static let resolution = 512
    private let table: UnsafeMutablePointer<Float>
    /// Interleaved input history: `history[i * channels + c]` is input frame `historyBase + i`.
    private var history: UnsafeMutablePointer<Float>
    private var historyCapacity: Int
    private var historyBase = 0
    private var inputEnd = 0
    /// The input position of the next output frame.
    private var position = 0.0
    private let accumulator: UnsafeMutablePointer<Float>

    init(channels: Int, ratio: Double, transitionFrames: Int) {
        self.channels = channels
        self.ratio = ratio
        target = ratio
        self.transitionFrames = max(1, transitionFrames)
        let z = Self.zeroCrossings, r = Self.resolution
        table = .allocate(capacity: z * r + 2)
        let beta = 9.0
        func bessel0(_ x: Double) -> Double {
            var sum = 1.0, term = 1.0, k = 1.0
            while term > 1e-12 * sum {
                term *= (x / (2 * k)) * (x / (2 * k))
                sum += term
                k += 1
            }
            return sum
        }
        let norm = bessel0(beta)
        for i in 0...(z * r + 1) {
            let x = Double(i) / Double(r)
            let u = x / Double(z)
            let window = u >= 1 ? 0 : bessel0(beta * (1 - u * u).squareRoot()) / norm
            let sinc = i == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            table[i] = Float(sinc * window)
        }
        // Whole crossings are exactly zero, so whole-frame positions copy the input.
        for i in stride(from: r, through: z * r, by: r) { table[i] = 0 }
        historyCapacity = 4 * TimePitch.maximumBlockFrames
        history = .allocate(capacity: historyCapacity * channels)
        accumulator = .allocate(capacity: channels)
    }

    deinit {
        table.deallocate()
        history.deallocate()
        accumulator.deallocate()
    }

    /// Glides to `newRatio` over ``transitionFrames`` output frames (at once before the first input).
    func setRatio(_ newRatio: Double) {
        guard newRatio != target else { return }
        target = newRatio
        if inputEnd == 0 {
            ratio = newRatio
            glideLeft = 0
        } else {
            glideLeft = transitionFrames
            glideStep = (newRatio - ratio) / Double(transitionFrames)
        }
    }

    /// Resamples `frames` input frames into `queue` (as far as the kernel's reach allows).
    func process(_ input: UnsafePointer<Float>, frames: Int, into queue: FrameQueue) {
        append(input, frames: frames)
        produce(into: queue, final: false)
    }

    /// Resamples what is left at the end of the input (zeros beyond it).
    func flush(into queue: FrameQueue) {
        produce(into: queue, final: true)
    }

    /// Starts a new stream at the current target ratio.
    func reset() {
        ratio = target
        glideLeft = 0
        historyBase = 0
        inputEnd = 0
        position = 0
    }

    private func append(_ input: UnsafePointer<Float>, frames: Int) {
        let span = Self.zeroCrossings * Int(max(1, ratio, target).rounded(.up)) + 2
        let keepFrom = min(max(historyBase, Int(position.rounded(.down)) - span), inputEnd)
        if keepFrom > historyBase {
            let drop = keepFrom - historyBase
            memmove(history, history + drop * channels, (inputEnd - keepFrom) * channels * MemoryLayout<Float>.size)
            historyBase = keepFrom
        }
        let needed = inputEnd - historyBase + frames
        if needed > historyCapacity {
            let capacity = max(needed, historyCapacity * 2)
            let bigger = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
            bigger.update(from: history, count: (inputEnd - historyBase) * channels)
            history.deallocate()
            history = bigger
            historyCapacity = capacity
        }
        (history + (inputEnd - historyBase) * channels).update(from: input, count: frames * channels)
        inputEnd += frames
    }

    private func produce(into queue: FrameQueue, final: Bool) {
        let z = Double(Self.zeroCrossings)
        let r = Float(Self.resolution)
        let ch = channels
        while true {
            let cutoff = ratio <= 1 ? 1.0 : 1 / ratio
            let span = Int((z / cutoff).rounded(.up))
            let i0 = Int(position.rounded(.down))
            if final ? position >= Double(inputEnd) : i0 + span >= inputEnd { break }
            let out = queue.reserve(1)
            let frac = position - Double(i0)
            if frac == 0 && cutoff == 1 {
                if i0 >= historyBase && i0 < inputEnd {
                    out.update(from: history + (i0 - historyBase) * ch, count: ch)
                } else {
                    out.initialize(repeating: 0, count: ch)
                }
            } else {
                accumulator.initialize(repeating: 0, count: ch)
                let lo = max(i0 - span + 1, historyBase)
                let hi = min(i0 + span, inputEnd - 1)
                if lo <= hi {
                    let c = Float(cutoff)
                    for j in lo...hi {
                        let x = abs(Float(Double(j) - position)) * c
                        let t = x * r
                        let k = Int(t)
                        guard k < Self.zeroCrossings * Self.resolution else { continue }
                        let f = t - Float(k)
                        let w = (table[k] + f * (table[k + 1] - table[k])) * c
                        let src = history + (j - historyBase) * ch
                        for channel in 0..<ch { accumulator[channel] += w * src[channel] }
                    }
                }
                out.update(from: accumulator, count: ch)
            }
            queue.commit(1)
            position += ratio
            if glideLeft > 0 {
                glideLeft -= 1
                ratio = glideLeft == 0 ? target : ratio + glideStep
            }
        }
    }
}
