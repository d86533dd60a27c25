// What the command-line tools share: the status line, level bars, clock text, standard error.
#if canImport(Glibc)
import Glibc
#endif
public import AudioQueueServices

/// One bar per channel: `=` up to the average (RMS) level and `|` at the peak, −60 dB to 0 dB.
public func meterBars(_ levels: [AudioQueueLevelMeterState]) -> String {
    let width = max(4, min(20, 40 / max(1, levels.count)))
    func cells(_ decibels: Float) -> Int {
        let fraction = min(max((Double(decibels) + 60) / 60, 0), 1)
        return Int((fraction * Double(width)).rounded())
    }
    return levels.map { level in
        var bar = [Character](repeating: " ", count: width)
        for i in 0..<cells(level.averagePower) { bar[i] = "=" }
        let peak = cells(level.peakPower)
        if peak > 0 { bar[peak - 1] = "|" }
        return "[" + String(bar) + "]"
    }.joined(separator: " ")
}

/// A line on stderr rewritten in place; nothing when stderr is not a terminal.
public struct StatusLine {
    public let enabled: Bool
    private var drawn = false

    public init(enabled: Bool) { self.enabled = enabled }

    public mutating func show(_ text: String) {
        guard enabled else { return }
        writeError("\r" + text + "\u{1B}[K")
        drawn = true
    }

    /// Ends the line with a newline, if one was drawn.
    public mutating func end() {
        if drawn { writeError("\n") }
        drawn = false
    }
}

/// `mm:ss.s`.
public func clock(_ seconds: Double) -> String {
    let tenths = seconds.isFinite ? max(0, Int((seconds * 10).rounded(.down))) : 0
    let minutes = tenths / 600
    let rest = tenths % 600
    let m = minutes < 10 ? "0\(minutes)" : "\(minutes)"
    let s = rest / 10 < 10 ? "0\(rest / 10)" : "\(rest / 10)"
    return "\(m):\(s).\(rest % 10)"
}

/// An environment variable, nil when unset or empty.
public func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let s = String(cString: value)
    return s.isEmpty ? nil : s
}

/// Writes `text` to standard error as it is.
public func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

/// Writes a line to standard error.
public func printError(_ text: String) {
    writeError(text + "\n")
}

/// `text` from a remote source (a stream title, a station name) made safe to print: control
/// characters (C0, DEL and C1, escape sequences among them) become spaces, and it is cut to
/// `limit` characters.
public func printable(_ text: String, limit: Int = 200) -> String {
    let cleaned = text.unicodeScalars.map { scalar -> Character in
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? " " : Character(scalar)
    }
    return String(cleaned.prefix(limit))
}
