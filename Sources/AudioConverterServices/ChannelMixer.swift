public import AudioCodecs

/// Changes the channels of interleaved Float32 audio from M to N: the stage of ``AudioConverter``
/// that applies `kAudioConverterChannelMap`, or a mix matrix.
///
/// Without a map it follows what Apple's converter does when the channel counts differ:
/// - 1 → 2: the mono channel goes to both outputs (a Mac plays a mono file through a stereo
///   converter as dual mono).
/// - otherwise the documented default of `kAudioConverterChannelMap` ("When In > Out, the first
///   Out inputs are routed to the first Out outputs, and the remaining inputs are discarded. When
///   Out > In, the first In inputs are routed to the first In outputs, and the remaining outputs
///   are zeroed", Apple's AudioConverter.h and developer documentation). So 2 → 1 keeps the left
///   channel at unit gain and drops the right, as macOS 13 does (AudioKit's FormatConverter,
///   built on ExtAudioFile, reported it discarding the second channel: github.com/AudioKit/
///   AudioKit/issues/2900), and 6 → 2 keeps L and R with no downmix. Apple mixes only when asked
///   (`AVAudioConverter.downmix`, `kAudioConverterPropertyChannelMixMap`): ``init(inputChannels:outputChannels:gains:)``.
///
/// ``process(_:frames:into:)`` allocates nothing and takes no lock.
public struct ChannelMixer: Sendable {
    /// Channels per input frame.
    public let inputChannels: Int
    /// Channels per output frame.
    public let outputChannels: Int
    /// For each output channel, the input channel it copies, or -1 for silence; nil for a mixer
    /// made with a gain matrix.
    public let channelMap: [Int32]?
    /// The gain matrix, output-major: `gains[o * inputChannels + i]` is input i's gain in output
    /// o; nil for a mixer made with a channel map.
    public let gains: [Float]?

    /// A mixer with Apple's default routing from `inputChannels` to `outputChannels` (see the
    /// type's description). Throws `kAudioConverterErr_FormatNotSupported` for a count below 1.
    public init(inputChannels: Int, outputChannels: Int) throws(AudioCodecError) {
        try Self.checkCounts(inputChannels, outputChannels)
        self.init(checkedInput: inputChannels, map: Self.defaultMap(inputChannels: inputChannels, outputChannels: outputChannels))
    }

    /// A mixer that applies `kAudioConverterChannelMap`: one entry per output channel, the input
    /// channel (from 0) it copies, or -1 for silence. Throws
    /// `kAudioConverterErr_BadPropertySizeError` when the map does not hold `outputChannels`
    /// entries, `kAudio_ParamError` (-50) for an entry below -1 or naming no input channel, and
    /// `kAudioConverterErr_FormatNotSupported` for a count below 1.
    public init(inputChannels: Int, outputChannels: Int, channelMap: [Int32]) throws(AudioCodecError) {
        try Self.checkCounts(inputChannels, outputChannels)
        guard channelMap.count == outputChannels else {
            throw AudioCodecError(.badPropertySize, "channel map of \(channelMap.count) entries for \(outputChannels) output channels")
        }
        for entry in channelMap where entry < -1 || Int(entry) >= inputChannels {
            throw AudioCodecError(Self.paramError, "channel map entry \(entry) for \(inputChannels) input channels")
        }
        self.init(checkedInput: inputChannels, map: channelMap)
    }

    /// A mixer whose output channel o is the sum over input channels i of
    /// `gains[o * inputChannels + i]` × input i. Throws `kAudioConverterErr_BadPropertySizeError`
    /// unless there are `inputChannels` × `outputChannels` finite gains.
    public init(inputChannels: Int, outputChannels: Int, gains: [Float]) throws(AudioCodecError) {
        try Self.checkCounts(inputChannels, outputChannels)
        guard gains.count == inputChannels * outputChannels, gains.allSatisfy(\.isFinite) else {
            throw AudioCodecError(.badPropertySize, "\(gains.count) gains for \(inputChannels) × \(outputChannels) channels")
        }
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        channelMap = nil
        self.gains = gains
    }

    private init(checkedInput: Int, map: [Int32]) {
        inputChannels = checkedInput
        outputChannels = map.count
        channelMap = map
        gains = nil
    }

    /// `kAudio_ParamError`.
    static let paramError = AudioCodecError.Code(rawValue: -50)

    private static func checkCounts(_ input: Int, _ output: Int) throws(AudioCodecError) {
        guard input >= 1, output >= 1 else {
            throw AudioCodecError(.formatNotSupported, "\(input) input and \(output) output channels")
        }
    }

    /// Apple's routing when no channel map is set: mono to both channels of stereo; otherwise
    /// the first min(M, N) channels straight through, the other outputs silent (-1).
    public static func defaultMap(inputChannels: Int, outputChannels: Int) -> [Int32] {
        if inputChannels == 1, outputChannels == 2 { return [0, 0] }
        return (0..<outputChannels).map { $0 < inputChannels ? Int32($0) : -1 }
    }

    /// Whether output equals input (same counts, each channel to itself, unit gains).
    public var isIdentity: Bool {
        guard inputChannels == outputChannels else { return false }
        if let channelMap { return channelMap.enumerated().allSatisfy { Int($0.element) == $0.offset } }
        guard let gains else { return false }
        for o in 0..<outputChannels {
            for i in 0..<inputChannels where gains[o * inputChannels + i] != (i == o ? 1 : 0) { return false }
        }
        return true
    }

    /// Writes `frames` frames of `outputChannels` channels to `output` from `frames` frames of
    /// `inputChannels` channels at `input` (the two must not overlap).
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        guard frames > 0 else { return }
        if let channelMap {
            channelMap.withUnsafeBufferPointer { route(input, frames, output, $0) }
        } else if let gains {
            gains.withUnsafeBufferPointer { mix(input, frames, output, $0) }
        }
    }

    private func route(_ input: UnsafePointer<Float>, _ frames: Int, _ output: UnsafeMutablePointer<Float>, _ map: UnsafeBufferPointer<Int32>) {
        let m = inputChannels, n = outputChannels
        // The common cases get loops of their own.
        if m == n, isIdentity {
            output.update(from: input, count: frames * n)
        } else if m == 1 {
            if n == 2, map[0] == 0, map[1] == 0 {
                for f in 0..<frames {
                    let s = input[f]
                    output[2 * f] = s
                    output[2 * f + 1] = s
                }
                return
            }
            for f in 0..<frames {
                let s = input[f]
                for o in 0..<n { output[f * n + o] = map[o] < 0 ? 0 : s }
            }
        } else if n == 1 {
            let c = Int(map[0])
            if c < 0 {
                output.update(repeating: 0, count: frames)
            } else {
                for f in 0..<frames { output[f] = input[f * m + c] }
            }
        } else {
            for f in 0..<frames {
                let source = input + f * m
                let target = output + f * n
                for o in 0..<n {
                    let c = Int(map[o])
                    target[o] = c < 0 ? 0 : source[c]
                }
            }
        }
    }

    private func mix(_ input: UnsafePointer<Float>, _ frames: Int, _ output: UnsafeMutablePointer<Float>, _ gains: UnsafeBufferPointer<Float>) {
        let m = inputChannels, n = outputChannels
        for f in 0..<frames {
            let source = input + f * m
            let target = output + f * n
            for o in 0..<n {
                var sum: Float = 0
                let row = o * m
                for i in 0..<m { sum += gains[row + i] * source[i] }
                target[o] = sum
            }
        }
    }
}
