#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit

/// The algorithm a `--algorithm` name stands for.
func timePitchAlgorithm(named name: String) -> TimePitchAlgorithm? {
    switch name.lowercased() {
    case "spectral": .spectral
    case "timedomain": .timeDomain
    case "varispeed": .varispeed
    default: nil
    }
}

/// Inserts the queue's time/pitch unit when the options ask for rate, pitch or an algorithm
/// (`kAudioQueueProperty_EnableTimePitch`, before anything is enqueued).
func enableTimePitch(_ queue: AudioQueue, options: Options) throws {
    guard options.timePitch else { return }
    if let algorithm = options.algorithm { try queue.setTimePitchAlgorithm(algorithm) }
    try queue.setTimePitchEnabled(true)
    if let rate = options.rate { try queue.setParameter(.playRate, rate) }
    if let pitch = options.pitch { try queue.setParameter(.pitch, pitch) }
}

/// The next rate after a `+` or `-`: a step of 0.1, within 0.5 … 2.
func steppedRate(_ rate: Float, key: UInt8) -> Float? {
    let tenths = Int((rate * 10).rounded())
    switch key {
    case UInt8(ascii: "+"), UInt8(ascii: "="): return Float(min(tenths + 1, 20)) / 10
    case UInt8(ascii: "-"), UInt8(ascii: "_"): return Float(max(tenths - 1, 5)) / 10
    default: return nil
    }
}

/// Reads `+` and `-` from a terminal on standard input while the queue plays, changing its
/// play rate; the terminal is in non-canonical mode without echo until ``restore()`` (and at
/// exit).
final class RateKeys {
    private let queue: AudioQueue
    private var saved = termios()
    private var active = false

    /// Nil unless standard input is a terminal.
    init?(queue: AudioQueue) {
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        self.queue = queue
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        active = true
        RateKeys.savedAtExit = saved
        atexit { RateKeys.restoreAtExit() }
    }

    /// Applies the keys pressed since the last call.
    func poll() {
        guard active else { return }
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            guard let rate = try? queue.parameter(.playRate), let next = steppedRate(rate, key: byte) else { continue }
            try? queue.setParameter(.playRate, next)
        }
    }

    /// Puts the terminal back as it was.
    func restore() {
        guard active else { return }
        active = false
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        RateKeys.savedAtExit = nil
    }

    nonisolated(unsafe) private static var savedAtExit: termios?

    private static func restoreAtExit() {
        guard var saved = savedAtExit else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
