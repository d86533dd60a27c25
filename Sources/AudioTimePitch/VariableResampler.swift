import CSoxr

/// libsoxr in variable-rate mode (`SOXR_VR`) over interleaved Float32: the ratio (input frames
/// consumed per output frame) may change while it runs, gliding over a transition. libsoxr
/// removes its filter's delay itself; `leadingFrames` more output frames are dropped so that a
/// click at input frame k comes out at k / ratio.
final class VariableResampler {
    let channels: Int
    private var soxr: soxr_t
    private(set) var ratio: Double
    /// Output frames the ratio glides over when it changes.
    let transitionFrames: Int
    /// Output frames still to drop at the start of a stream.
    private var lead = 0
    /// Input has been processed since the stream began (before that, a new ratio applies at once).
    private var started = false
    /// The offset libsoxr's variable-rate filter leaves (output frames), measured with a click.
    static let leadingFrames = 2

    private static func create(channels: Int) -> soxr_t? {
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), UInt(SOXR_VR))
        var error: soxr_error_t? = nil
        let s = soxr_create(RateRange.maximum, 1, UInt32(channels), &error, &io, &quality, nil)
        if error != nil, let s { soxr_delete(s) }
        return error == nil ? s : nil
    }

    init?(channels: Int, ratio: Double, transitionFrames: Int) {
        guard let s = Self.create(channels: channels) else { return nil }
        soxr = s
        self.channels = channels
        self.ratio = ratio
        self.transitionFrames = transitionFrames
        lead = Self.leadingFrames
    }

    deinit { soxr_delete(soxr) }

    /// Glides to `newRatio` over ``transitionFrames`` output frames (at once before the first input).
    func setRatio(_ newRatio: Double) {
        guard newRatio != ratio else { return }
        ratio = newRatio
        if started { soxr_set_io_ratio(soxr, newRatio, transitionFrames) }
    }

    /// Resamples `frames` input frames (all of them) into `queue`.
    func process(_ input: UnsafePointer<Float>, frames: Int, into queue: FrameQueue) {
        if !started {
            // The ratio at the start of a stream, set once on a fresh engine.
            soxr_set_io_ratio(soxr, ratio, 0)
            started = true
        }
        var offset = 0
        while offset < frames {
            let room = Int(Double(frames - offset) / ratio) + 64
            let out = queue.reserve(room)
            var taken = 0
            var written = 0
            _ = soxr_process(soxr, input + offset * channels, frames - offset, &taken, out, room, &written)
            commit(written, queue)
            offset += taken
            if taken == 0 && written == 0 { break }
        }
    }

    /// Drains what libsoxr holds at the end of the input.
    func flush(into queue: FrameQueue) {
        guard started else { return }
        for _ in 0..<1000 {
            let room = 4096
            let out = queue.reserve(room)
            var written = 0
            _ = soxr_process(soxr, nil, 0, nil, out, room, &written)
            commit(written, queue)
            if written == 0 { break }
        }
    }

    private func commit(_ written: Int, _ queue: FrameQueue) {
        queue.commit(written)
        if lead > 0 {
            // At the start of a stream the queue holds nothing older than this output.
            lead -= queue.discard(min(lead, written))
        }
    }

    /// Starts a new stream at the current ratio. (soxr_clear leaves some of the variable-rate
    /// engine's state: a new engine makes the stream identical to a fresh one's.)
    func reset() {
        if let fresh = Self.create(channels: channels) {
            soxr_delete(soxr)
            soxr = fresh
        } else {
            soxr_clear(soxr)
        }
        lead = Self.leadingFrames
        started = false
    }
}
