#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The phase vocoder's frame: analysis of one windowed block per channel, identity phase locking
/// (Laroche and Dolson) and the windowed inverse, overlap-added into an accumulator.
///
/// Peaks are picked once per frame on the magnitudes summed over the channels, and every channel
/// locks the same regions to the same peaks: content common to the channels (a centred source)
/// is treated identically in each, so the image stays where it was; per-channel picking would let
/// the channels' phases drift apart where their peaks differ.
final class PhaseVocoder {
    let fftSize: Int
    let bins: Int
    let channels: Int
    /// Output frames per synthesis frame.
    let synthesisHop: Int
    private let fft: RealFFT
    private let window: UnsafeMutablePointer<Float>
    /// Windowed input, then the inverse transform (per call).
    private let frame: UnsafeMutablePointer<Float>
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    /// Per channel × bins.
    private let magnitude: UnsafeMutablePointer<Float>
    private let phase: UnsafeMutablePointer<Float>
    private let previousPhase: UnsafeMutablePointer<Float>
    private let synthesisPhase: UnsafeMutablePointer<Float>
    private let summed: UnsafeMutablePointer<Float>
    private let previousSummed: UnsafeMutablePointer<Float>
    /// Frames until the phases are reset for an onset detected earlier (-1: none pending).
    private var resetCountdown = -1
    /// The peak each bin is locked to.
    private let owner: UnsafeMutablePointer<Int32>
    private let peaks: UnsafeMutablePointer<Int32>
    /// The overlap-add accumulator, per channel, `fftSize` frames from the output time of the
    /// current synthesis frame's start.
    let accumulator: UnsafeMutablePointer<Float>
    private var first = true
    private let norm: Float

    init(fftSize: Int, synthesisHop: Int, channels: Int) {
        self.fftSize = fftSize
        self.channels = channels
        self.synthesisHop = synthesisHop
        bins = fftSize / 2 + 1
        fft = RealFFT(size: fftSize)
        window = .allocate(capacity: fftSize)
        for n in 0..<fftSize {
            window[n] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(fftSize)))
        }
        frame = .allocate(capacity: fftSize)
        re = .allocate(capacity: bins)
        im = .allocate(capacity: bins)
        magnitude = .allocate(capacity: bins * channels)
        phase = .allocate(capacity: bins * channels)
        previousPhase = .allocate(capacity: bins * channels)
        previousPhase.initialize(repeating: 0, count: bins * channels)
        synthesisPhase = .allocate(capacity: bins * channels)
        synthesisPhase.initialize(repeating: 0, count: bins * channels)
        summed = .allocate(capacity: bins)
        previousSummed = .allocate(capacity: bins)
        previousSummed.initialize(repeating: 0, count: bins)
        owner = .allocate(capacity: bins)
        peaks = .allocate(capacity: bins)
        accumulator = .allocate(capacity: fftSize * channels)
        accumulator.initialize(repeating: 0, count: fftSize * channels)
        // Hann analysis × Hann synthesis overlap-adds to 3N / (8 hop).
        norm = Float(8 * Double(synthesisHop) / (3 * Double(fftSize)))
    }

    deinit {
        window.deallocate()
        frame.deallocate()
        re.deallocate()
        im.deallocate()
        magnitude.deallocate()
        phase.deallocate()
        previousPhase.deallocate()
        synthesisPhase.deallocate()
        summed.deallocate()
        previousSummed.deallocate()
        owner.deallocate()
        peaks.deallocate()
        accumulator.deallocate()
    }

    /// Forgets the previous frame (the next one starts the phases afresh).
    func reset() {
        first = true
        accumulator.update(repeating: 0, count: fftSize * channels)
        previousSummed.update(repeating: 0, count: bins)
        resetCountdown = -1
    }

    @inline(__always) private func principal(_ x: Float) -> Float {
        let twoPi: Float = 2 * .pi
        return x - twoPi * (x / twoPi).rounded()
    }

    @inline(__always) private func principal(_ x: Double) -> Double {
        let twoPi = 2 * Double.pi
        return x - twoPi * (x / twoPi).rounded()
    }

    /// Analyses one frame. `sample(c, n)` gives channel c's input at frame offset n (0 ..< fftSize);
    /// `hop` is the input distance from the previous frame, in frames.
    func analyse(hop: Int, _ sample: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let b = bins
        summed.update(repeating: 0, count: b)
        for c in 0..<channels {
            sample(c, frame)
            for n in 0..<fftSize { frame[n] *= window[n] }
            fft.forward(frame, re: re, im: im)
            let mag = magnitude + c * b
            let ph = phase + c * b
            for k in 0..<b {
                let m = (re[k] * re[k] + im[k] * im[k]).squareRoot()
                mag[k] = m
                ph[k] = atan2f(im[k], re[k])
                summed[k] += m
            }
        }
        lockRegions()
        // An onset is detected as it enters the window, at its right edge; the phases are reset
        // at the frame whose centre it has then reached, about fftSize / (2 hop) − ½ frames on.
        var onset = false
        if isOnset() && resetCountdown < 0 {
            resetCountdown = Int((Double(fftSize) / (2 * Double(max(hop, 1))) - 0.5).rounded())
        }
        if resetCountdown == 0 { onset = true }
        if resetCountdown >= 0 { resetCountdown -= 1 }
        let twoPi = 2 * Double.pi
        let ratio = Double(synthesisHop) / Double(max(hop, 1))
        for c in 0..<channels {
            let ph = phase + c * b
            let prev = previousPhase + c * b
            let syn = synthesisPhase + c * b
            if first || onset {
                for k in 0..<b { syn[k] = ph[k] }
            } else {
                // The peaks' phase advance from their instantaneous frequency...
                var i = 0
                while i < b {
                    let p = Int(owner[i])
                    if p == i {
                        let omega = twoPi * Double(p) / Double(fftSize)
                        let advance: Double
                        if hop > 0 {
                            let expected = (omega * Double(hop)).truncatingRemainder(dividingBy: twoPi)
                            let deviation = principal(Double(ph[p] - prev[p]) - expected)
                            advance = (omega * Double(hop) + deviation) * ratio
                        } else {
                            advance = omega * Double(synthesisHop)
                        }
                        syn[p] = Float(principal(Double(syn[p]) + advance))
                    }
                    i += 1
                }
                // ...and each bin of a peak's region rotates with its peak.
                for k in 0..<b {
                    let p = Int(owner[k])
                    if p != k { syn[k] = principal(syn[p] + ph[k] - ph[p]) }
                }
            }
            for k in 0..<b { prev[k] = ph[k] }
        }
        first = false
    }

    /// An onset: more than half of all bins rose by more than 3 dB since
    /// the previous frame (the percussive-onset measure Rubber Band's R2 engine describes). At an
    /// onset every bin takes its
    /// analysed phase again, so an attack keeps its shape instead of smearing.
    private func isOnset() -> Bool {
        let b = bins
        var risen = 0
        var counted = 0
        var largest: Float = 0
        for k in 0..<b where summed[k] > largest { largest = summed[k] }
        let floor = largest * 1e-4
        for k in 1..<b {
            let m = summed[k]
            if m > floor {
                counted += 1
                // 3 dB in magnitude: × √2.
                if m > 1.414 * previousSummed[k] { risen += 1 }
            }
            previousSummed[k] = m
        }
        previousSummed[0] = summed[0]
        return !first && counted > 0 && Float(risen) > Self.onsetFraction * Float(b - 1)
    }

    static let onsetFraction: Float = 0.5

    /// Picks the peaks of the summed magnitude (larger than two neighbours each side) and gives
    /// every bin to the nearest one.
    private func lockRegions() {
        let b = bins
        var count = 0
        var largest: Float = 0
        for k in 0..<b where summed[k] > largest { largest = summed[k] }
        let floor = largest * 1e-6
        for k in 0..<b {
            let m = summed[k]
            guard m > floor else { continue }
            if k >= 1 && m <= summed[k - 1] { continue }
            if k >= 2 && m <= summed[k - 2] { continue }
            if k + 1 < b && m < summed[k + 1] { continue }
            if k + 2 < b && m < summed[k + 2] { continue }
            peaks[count] = Int32(k)
            count += 1
        }
        if count == 0 {
            for k in 0..<b { owner[k] = Int32(k) }
            return
        }
        var j = 0
        for k in 0..<b {
            while j + 1 < count && abs(Int(peaks[j + 1]) - k) < abs(Int(peaks[j]) - k) { j += 1 }
            owner[k] = peaks[j]
        }
    }

    /// Synthesises the analysed frame and adds it to the accumulator.
    func synthesise() {
        let b = bins
        for c in 0..<channels {
            let mag = magnitude + c * b
            let syn = synthesisPhase + c * b
            for k in 0..<b {
                re[k] = mag[k] * cosf(syn[k])
                im[k] = mag[k] * sinf(syn[k])
            }
            im[0] = 0
            im[b - 1] = 0
            fft.inverse(re: re, im: im, output: frame)
            let acc = accumulator + c * fftSize
            for n in 0..<fftSize { acc[n] += frame[n] * window[n] * norm }
        }
    }

    /// Moves the accumulator on by one synthesis hop: the first `synthesisHop` frames (now
    /// final) go to `emit(channel, pointer)`.
    func advance(_ emit: (Int, UnsafePointer<Float>) -> Void) {
        let h = synthesisHop
        for c in 0..<channels {
            let acc = accumulator + c * fftSize
            emit(c, acc)
            memmove(acc, acc + h, (fftSize - h) * MemoryLayout<Float>.size)
            (acc + fftSize - h).update(repeating: 0, count: h)
        }
    }
}
