/// Per-channel levels of the most recent quantum of interleaved Float32
/// (`kAudioQueueProperty_CurrentLevelMeter`), for both directions: what is played, or what is
/// captured.
struct LevelMeter {
    let channels: Int
    private(set) var isEnabled = false
    private(set) var levels: [AudioQueueLevelMeterState]

    init(channels: Int) {
        self.channels = channels
        levels = Self.silent(channels)
    }

    private static func silent(_ channels: Int) -> [AudioQueueLevelMeterState] {
        Array(repeating: AudioQueueLevelMeterState(averagePower: 0, peakPower: 0), count: channels)
    }

    mutating func setEnabled(_ enabled: Bool) {
        isEnabled = enabled
        if !enabled { levels = Self.silent(channels) }
    }

    /// Measures `frames` interleaved frames at `samples` (nothing while disabled).
    mutating func measure(_ samples: UnsafePointer<Float>, frames: Int) {
        guard isEnabled, frames > 0 else { return }
        let ch = channels
        for c in 0..<ch {
            var sum: Double = 0
            var peak: Float = 0
            var i = c
            for _ in 0..<frames {
                let x = samples[i]
                sum += Double(x) * Double(x)
                peak = max(peak, abs(x))
                i += ch
            }
            levels[c] = AudioQueueLevelMeterState(averagePower: Float((sum / Double(frames)).squareRoot()), peakPower: peak)
        }
    }
}
