import Foundation

/// The sound server the device tests use: the private PulseAudio (or pipewire-pulse) that
/// Scripts/test starts and libpulse finds through PULSE_RUNTIME_PATH. One probe for every test
/// target.
public enum AudioServer {
    /// CI sets AQ_REQUIRE_AUDIO_SERVER=1: there, a missing server is a failure, not a skip.
    public static let required = ProcessInfo.processInfo.environment["AQ_REQUIRE_AUDIO_SERVER"] == "1"
    /// Whether a server answers (`pactl info` reaches it).
    public static let available = (try? runProcess("/usr/bin/pactl", ["info"]).status) == 0
    /// Run server tests when a server answers, or when one is required (they then fail).
    public static let runTests = available || required
    /// The null sink the tests play to (AQ_TEST_SINK, else `aqtest`).
    public static let sink = ProcessInfo.processInfo.environment["AQ_TEST_SINK"].flatMap { $0.isEmpty ? nil : $0 } ?? "aqtest"
    /// Why server tests are skipped.
    public static let skipReason = "no PulseAudio server answers (Scripts/test starts a private one; AQ_REQUIRE_AUDIO_SERVER=1 makes this a failure)"
}

/// Waits until `condition` holds, checking every 2 ms, for at most `seconds` (a guard against
/// a hang, not a measurement); whether it came to hold.
@discardableResult
public func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return condition() }
        usleep(2000)
    }
    return true
}
