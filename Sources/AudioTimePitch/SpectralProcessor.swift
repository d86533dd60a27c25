#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Spectral (`'spec'`): a phase vocoder with identity phase locking, then a linear-phase
/// windowed-sinc resampler (``SincResampler``) for pitch.
///
/// The vocoder stretches by pitchRatio / rate with a fixed synthesis hop (fftSize / 4) and an
/// analysis hop of synthesisHop × rate / pitchRatio; the exact input position of each analysis
/// frame is carried as a fraction, the frame itself starts at the nearest whole frame and the
/// phase advance uses that whole-frame hop. The resampler then consumes pitchRatio frames per
/// output frame, which restores the duration and moves the pitch. Frame 0 of the output is input
/// frame 0: analysis and synthesis frames are both centred on time 0 at the start and the first
/// fftSize / 2 output frames (before time 0) are dropped. At rate 1 and pitch 0 the analysis
/// hop equals the synthesis hop and the locked phases equal the analysed ones, so the vocoder
/// reconstructs its input (up to rounding) and the resampler at ratio 1 copies it.
///
/// Transients smear over a frame (46 ms at 44.1 kHz): there is no transient detection.
final class SpectralProcessor: FrameQueueOutput {
    let algorithm = TimePitchAlgorithm.spectral
    let sampleRate: Double
    let channels: Int
    let fftSize: Int
    let synthesisHop: Int
    private let vocoder: PhaseVocoder
    private let resampler: SincResampler
    let queue: FrameQueue
    var inputSlack: Int { synthesisHop }

    /// Planar input history: `history[c * historyCapacity + i]` is input frame `historyBase + i`.
    private var history: UnsafeMutablePointer<Float>
    private var historyCapacity: Int
    private var historyBase = 0
    /// Input frames written since the stream began.
    private var inputEnd = 0
    private var inputFinished = false
    /// The exact input position of the next analysis frame's centre.
    private var center = 0.0
    private var previousCenter = 0
    /// Output frames of the vocoder still to drop (before time 0).
    private var skip = 0
    /// (first input frame, rate, pitch ratio) in force from that frame on.
    private var segments: [(start: Int, rate: Double, pitch: Double)] = []
    private var segmentIndex = 0
    /// One synthesis hop, interleaved, on its way to the resampler.
    private let hopBuffer: UnsafeMutablePointer<Float>
    /// The pitch ratios of the last frames: the hop that becomes final after frame j holds the
    /// output around frame j − fftSize / (2 × synthesisHop), whose ratio the resampler then takes.
    private var recentPitch: [Double]
    private var recentIndex = 0

    var rate: Double = 1 {
        didSet { rate = RateRange.clamp(rate) }
    }

    var pitchCents: Double = 0 {
        didSet { pitchCents = RateRange.clampCents(pitchCents) }
    }

    private var pitchRatio: Double { pow(2, pitchCents / 1200) }

    /// The frame size for a sample rate: 2048 at 44.1 and 48 kHz, doubled or halved per octave.
    static func fftSize(forSampleRate sampleRate: Double) -> Int {
        let octaves = Int(log2(sampleRate / 44_100).rounded())
        let size = octaves >= 0 ? 2048 << octaves : 2048 >> -octaves
        return min(16_384, max(256, size))
    }

    init?(sampleRate: Double, channels: Int) {
        guard sampleRate >= 4000, sampleRate <= 768_000 else { return nil }
        self.sampleRate = sampleRate
        self.channels = channels
        fftSize = Self.fftSize(forSampleRate: sampleRate)
        synthesisHop = fftSize / 4
        vocoder = PhaseVocoder(fftSize: fftSize, synthesisHop: synthesisHop, channels: channels)
        resampler = SincResampler(channels: channels, ratio: 1, transitionFrames: fftSize / 4)
        queue = FrameQueue(channels: channels, capacity: TimePitch.maximumBlockFrames * 4)
        historyCapacity = 4 * fftSize + TimePitch.maximumBlockFrames
        history = .allocate(capacity: historyCapacity * channels)
        hopBuffer = .allocate(capacity: synthesisHop * channels)
        segments.reserveCapacity(64)
        recentPitch = Array(repeating: 1, count: fftSize / (2 * synthesisHop) + 1)
        startStream()
    }

    deinit {
        history.deallocate()
        hopBuffer.deallocate()
    }

    private func startStream() {
        historyBase = 0
        inputEnd = 0
        inputFinished = false
        center = 0
        previousCenter = 0
        skip = fftSize / 2
        segments.removeAll(keepingCapacity: true)
        segmentIndex = 0
        vocoder.reset()
        recentPitch = Array(repeating: pitchRatio, count: recentPitch.count)
        recentIndex = 0
    }


    func write(_ input: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, !inputFinished else { return }
        let p = pitchRatio
        if segments.last.map({ $0.rate != rate || $0.pitch != p }) ?? true {
            segments.append((inputEnd, rate, p))
        }
        queue.owe(frames, rate: rate)
        ensureHistory(frames)
        let offset = inputEnd - historyBase
        for c in 0..<channels {
            let dst = history + c * historyCapacity + offset
            // A NaN or infinity would stay in the locked phases for good: it is taken as silence.
            for i in 0..<frames {
                let v = input[i * channels + c]
                dst[i] = v.isFinite ? v : 0
            }
        }
        inputEnd += frames
        run()
    }

    /// Room for `frames` more input frames: drops what no frame will read again, grows if needed.
    private func ensureHistory(_ frames: Int) {
        let keepFrom = min(Int(center.rounded()) - fftSize / 2, inputEnd)
        if keepFrom > historyBase {
            let drop = keepFrom - historyBase
            let count = inputEnd - keepFrom
            for c in 0..<channels {
                let base = history + c * historyCapacity
                memmove(base, base + drop, count * MemoryLayout<Float>.size)
            }
            historyBase = keepFrom
        }
        let needed = inputEnd - historyBase + frames
        if needed > historyCapacity {
            let capacity = max(needed, historyCapacity * 2)
            let bigger = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
            let count = inputEnd - historyBase
            for c in 0..<channels {
                (bigger + c * capacity).update(from: history + c * historyCapacity, count: count)
            }
            history.deallocate()
            history = bigger
            historyCapacity = capacity
        }
    }

    /// Rate and pitch ratio in force at input frame `position`.
    private func segment(at position: Int) -> (rate: Double, pitch: Double) {
        while segmentIndex + 1 < segments.count && segments[segmentIndex + 1].start <= position {
            segmentIndex += 1
        }
        if segmentIndex >= 32 {
            segments.removeFirst(segmentIndex)
            segmentIndex = 0
        }
        guard segmentIndex < segments.count else { return (rate, pitchRatio) }
        return (segments[segmentIndex].rate, segments[segmentIndex].pitch)
    }

    /// Makes every frame the input allows.
    private func run() {
        let half = fftSize / 2
        while true {
            let c = Int(center.rounded())
            let start = c - half
            if inputFinished ? start >= inputEnd : start + fftSize > inputEnd { break }
            let (r, p) = segment(at: c)
            vocoder.analyse(hop: c - previousCenter) { channel, out in
                let src = history + channel * historyCapacity
                for n in 0..<fftSize {
                    let i = start + n
                    out[n] = i < historyBase || i >= inputEnd ? 0 : src[i - historyBase]
                }
            }
            vocoder.synthesise()
            recentPitch[recentIndex] = p
            recentIndex = (recentIndex + 1) % recentPitch.count
            resampler.setRatio(recentPitch[recentIndex])
            emitHop()
            previousCenter = c
            center += Double(synthesisHop) * r / p
        }
    }

    /// Passes the vocoder's next final hop to the resampler.
    private func emitHop() {
        let h = synthesisHop
        let ch = channels
        let buffer = hopBuffer
        vocoder.advance { c, src in
            for i in 0..<h { buffer[i * ch + c] = src[i] }
        }
        let dropped = min(skip, h)
        skip -= dropped
        if dropped < h {
            resampler.process(buffer + dropped * ch, frames: h - dropped, into: queue)
        }
    }

    func finish() {
        guard !queue.finished else { return }
        if inputEnd > 0 {
            inputFinished = true
            run()
            for _ in 0..<(fftSize / synthesisHop) { emitHop() }
            resampler.flush(into: queue)
        }
        queue.finish()
    }

    func reset() {
        startStream()
        resampler.reset()
        queue.reset()
    }
}
