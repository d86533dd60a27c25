// Stand-ins until the real stages land (removed at merge).
public import AudioCodecs

public struct SampleRateConverterQuality: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let max = SampleRateConverterQuality(rawValue: 0x7F)
    public static let high = SampleRateConverterQuality(rawValue: 0x60)
}

public final class SampleRateConverter {
    public init(inputRate: Double, outputRate: Double, channels: Int, quality: SampleRateConverterQuality) throws(AudioCodecError) {
        throw AudioCodecError(.formatNotSupported, "no SRC yet")
    }
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>, capacity: Int) -> (consumed: Int, produced: Int) { (0, 0) }
    public func finish(into output: UnsafeMutablePointer<Float>, capacity: Int) -> Int { 0 }
    public func maximumOutputFrames(forInputFrames n: Int) -> Int { n }
    public func reset() {}
}

struct ChannelMixer {
    let inputChannels: Int
    let outputChannels: Int
    let map: [Int32]?
    init(inputChannels: Int, outputChannels: Int, map: [Int32]?) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.map = map
    }
    func mix(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        for f in 0..<frames {
            for c in 0..<outputChannels {
                if let map {
                    let i = c < map.count ? Int(map[c]) : -1
                    output[f * outputChannels + c] = i >= 0 && i < inputChannels ? input[f * inputChannels + i] : 0
                } else if inputChannels == 1 {
                    output[f * outputChannels + c] = input[f]
                } else {
                    output[f * outputChannels + c] = c < inputChannels ? input[f * inputChannels + c] : 0
                }
            }
        }
    }
}
