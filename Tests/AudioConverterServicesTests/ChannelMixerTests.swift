import Testing
import AudioCodecs
import AudioConverterServices
import ProcessSupport

/// ChannelMixer: Apple's default routing, channel maps with silent outputs, gain matrices and
/// Apple's error codes for bad maps.
@Suite struct ChannelMixerTests {
    /// Distinct samples: frame f, channel c holds f × 16 + c + 1.
    static func ramp(frames: Int, channels: Int) -> [Float] {
        (0..<(frames * channels)).map { Float($0 / channels * 16 + $0 % channels + 1) }
    }

    static func run(_ mixer: ChannelMixer, _ input: [Float]) -> [Float] {
        let frames = input.count / mixer.inputChannels
        var output = [Float](repeating: .nan, count: frames * mixer.outputChannels)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { mixer.process(source.baseAddress!, frames: frames, into: $0.baseAddress!) }
        }
        return output
    }

    /// Every count from 1 to 8 to every count from 1 to 8 without a map: mono to stereo is
    /// duplicated; otherwise output channel o is input channel o when there is one, else silence.
    @Test func defaultRouting() throws {
        for m in 1...8 {
            for n in 1...8 {
                let mixer = try ChannelMixer(inputChannels: m, outputChannels: n)
                let frames = 37
                let input = Self.ramp(frames: frames, channels: m)
                let output = Self.run(mixer, input)
                for f in 0..<frames {
                    for o in 0..<n {
                        let want: Float = (m == 1 && n == 2) ? input[f] : (o < m ? input[f * m + o] : 0)
                        #expect(output[f * n + o] == want, "\(m) → \(n) frame \(f) channel \(o)")
                    }
                }
                #expect(mixer.isIdentity == (m == n))
            }
        }
    }

    /// The cases called out: stereo to mono keeps the left channel at unit gain; 5.1 to stereo
    /// keeps the first two channels.
    @Test func namedCases() throws {
        #expect(ChannelMixer.defaultMap(inputChannels: 1, outputChannels: 2) == [0, 0])
        #expect(ChannelMixer.defaultMap(inputChannels: 2, outputChannels: 1) == [0])
        #expect(ChannelMixer.defaultMap(inputChannels: 6, outputChannels: 2) == [0, 1])
        #expect(ChannelMixer.defaultMap(inputChannels: 2, outputChannels: 6) == [0, 1, -1, -1, -1, -1])
        #expect(Self.run(try ChannelMixer(inputChannels: 2, outputChannels: 1), [0.25, -0.5, 1, 0.75]) == [0.25, 1])
        #expect(Self.run(try ChannelMixer(inputChannels: 1, outputChannels: 2), [0.25, -0.5]) == [0.25, 0.25, -0.5, -0.5])
    }

    /// Maps: swap, duplicate, pick, and -1 for silence, on several counts.
    @Test func channelMaps() throws {
        let cases: [(m: Int, map: [Int32])] = [
            (2, [1, 0]), (2, [1, 1]), (2, [-1, 0]), (2, [1]), (1, [0, -1, 0]), (6, [4, -1, 0, 5]),
            (3, [-1, -1]), (1, [-1]), (4, [3, 2, 1, 0]), (2, [0, 1]),
        ]
        for (m, map) in cases {
            let mixer = try ChannelMixer(inputChannels: m, outputChannels: map.count, channelMap: map)
            let frames = 23
            let input = Self.ramp(frames: frames, channels: m)
            let output = Self.run(mixer, input)
            for f in 0..<frames {
                for (o, c) in map.enumerated() {
                    #expect(output[f * map.count + o] == (c < 0 ? 0 : input[f * m + Int(c)]), "\(m) \(map) frame \(f) out \(o)")
                }
            }
            #expect(mixer.isIdentity == (map == (0..<Int32(m)).map { $0 }))
        }
    }

    /// A map of the wrong size is kAudioConverterErr_BadPropertySizeError; an entry that names no
    /// input channel is kAudio_ParamError; a count below 1 is kAudioConverterErr_FormatNotSupported.
    @Test func badMaps() {
        func code(_ body: () throws(AudioCodecError) -> ChannelMixer) -> Int32? {
            do {
                _ = try body()
                return nil
            } catch {
                return error.code.rawValue
            }
        }
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 2, outputChannels: 2, channelMap: [0]) } == 0x2173_697A)
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 2, outputChannels: 2, channelMap: [0, 2]) } == -50)
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 2, outputChannels: 1, channelMap: [-2]) } == -50)
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 0, outputChannels: 1) } == 0x666D_743F)
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 2, outputChannels: 1, gains: [1]) } == 0x2173_697A)
        #expect(code { () throws(AudioCodecError) in try ChannelMixer(inputChannels: 1, outputChannels: 1, gains: [.nan]) } == 0x2173_697A)
    }

    /// A gain matrix (output-major) mixes: stereo to mono at −6 dB each, 5.1 to stereo with the
    /// centre and surrounds at −3 dB, against sums computed here.
    @Test func gainMatrix() throws {
        let half: Float = 0.5, minus3: Float = 0.70710677
        let matrices: [(m: Int, n: Int, gains: [Float])] = [
            (2, 1, [half, half]),
            (6, 2, [1, 0, minus3, 0, minus3, 0, 0, 1, minus3, 0, 0, minus3]),
            (1, 3, [1, -1, 0.25]),
            (2, 2, [1, 0, 0, 1]),
        ]
        var random = SplitMix(seed: 5)
        for (m, n, gains) in matrices {
            let mixer = try ChannelMixer(inputChannels: m, outputChannels: n, gains: gains)
            let frames = 41
            let input = (0..<(frames * m)).map { _ in Float.random(in: -1...1, using: &random) }
            let output = Self.run(mixer, input)
            for f in 0..<frames {
                for o in 0..<n {
                    var want: Float = 0
                    for i in 0..<m { want += gains[o * m + i] * input[f * m + i] }
                    #expect(abs(output[f * n + o] - want) <= 1e-6, "\(m) → \(n) frame \(f) out \(o)")
                }
            }
            #expect(mixer.isIdentity == (gains == [1, 0, 0, 1]))
        }
    }

    /// Zero frames writes nothing.
    @Test func zeroFrames() throws {
        let mixer = try ChannelMixer(inputChannels: 2, outputChannels: 1)
        var output: [Float] = [42]
        let input: [Float] = [1, 2]
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { mixer.process(source.baseAddress!, frames: 0, into: $0.baseAddress!) }
        }
        #expect(output == [42])
    }
}
