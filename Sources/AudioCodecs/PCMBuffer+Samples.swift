public import AudioCore

/// A Swift type that holds one linear PCM sample as a ``PCMBuffer`` stores it: `Int16` for
/// 16-bit, `Int32` for 32-bit integers (and 24 bits in 4-byte words), `Float` and `Double`
/// for float formats, `Int8` for 8-bit.
public protocol PCMSample: BitwiseCopyable, Sendable {
    /// True for floating-point samples.
    static var isFloatingPoint: Bool { get }
}

extension Int8: PCMSample { public static var isFloatingPoint: Bool { false } }
extension Int16: PCMSample { public static var isFloatingPoint: Bool { false } }
extension Int32: PCMSample { public static var isFloatingPoint: Bool { false } }
extension Float: PCMSample { public static var isFloatingPoint: Bool { true } }
extension Double: PCMSample { public static var isFloatingPoint: Bool { true } }

// Samples in and out of a buffer as Swift arrays, without pointers.

extension PCMBuffer {
    /// True when `Sample` is this buffer's native-endian sample word.
    public func holds<Sample: PCMSample>(_ sample: Sample.Type) -> Bool {
        MemoryLayout<Sample>.size == Int(format.sampleWordSize) && Sample.isFloatingPoint == format.isFloat
            && !format.isBigEndian && (Sample.isFloatingPoint || format.isSignedInteger)
    }

    /// A buffer of `format` holding `samples` — interleaved frames, or for a non-interleaved
    /// format one channel after another, `samples.count / channels` frames each. nil when
    /// `Sample` is not the format's sample word (see ``holds(_:)``) or the count is not whole frames.
    public convenience init?<Sample: PCMSample>(format: AudioStreamBasicDescription, samples: some Collection<Sample>) {
        let channels = max(Int(format.channelsPerFrame), 1)
        guard samples.count % channels == 0 else { return nil }
        self.init(format: format, frameCapacity: samples.count / channels)
        guard holds(Sample.self), append(samples) == samples.count / channels else { return nil }
    }

    /// Appends the whole frames of `samples` (interleaved, or channel after channel for a
    /// non-interleaved format) that fit, and returns how many frames were appended: 0 when
    /// `Sample` is not the format's sample word.
    @discardableResult
    public func append<Sample: PCMSample>(_ samples: some Collection<Sample>) -> Int {
        let channels = max(Int(format.channelsPerFrame), 1)
        guard holds(Sample.self) else { return 0 }
        let frames = min(samples.count / channels, framesFree)
        guard frames > 0 else { return 0 }
        let array = Array(samples)
        array.withUnsafeBytes { source in
            if regionCount == 1 {
                freeSpace(0).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<(frames * channels * MemoryLayout<Sample>.size)]))
            } else {
                let perChannel = (samples.count / channels) * MemoryLayout<Sample>.size
                for c in 0..<regionCount {
                    let start = c * perChannel
                    freeSpace(c).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: source[start..<(start + frames * MemoryLayout<Sample>.size)]))
                }
            }
        }
        frameLength += frames
        return frames
    }

    /// The valid frames as samples: interleaved for an interleaved format, else channel after
    /// channel. nil when `Sample` is not the format's sample word (see ``holds(_:)``).
    public func samples<Sample: PCMSample>(as sample: Sample.Type) -> [Sample]? {
        guard holds(Sample.self) else { return nil }
        return (0..<regionCount).flatMap { channelSamples(region: $0, as: Sample.self) }
    }

    /// The valid frames of one channel of a non-interleaved buffer, or every channel of the
    /// frames of an interleaved one de-interleaved to `channel`. nil for a channel the format
    /// does not have or a `Sample` that is not its sample word.
    public func samples<Sample: PCMSample>(as sample: Sample.Type, channel: Int) -> [Sample]? {
        guard holds(Sample.self), channel >= 0, channel < Int(format.channelsPerFrame) else { return nil }
        if regionCount > 1 { return channelSamples(region: channel, as: Sample.self) }
        let all = channelSamples(region: 0, as: Sample.self)
        let channels = Int(format.channelsPerFrame)
        return stride(from: channel, to: all.count, by: channels).map { all[$0] }
    }

    /// The valid bytes of every region, one after another.
    public var bytes: [UInt8] {
        (0..<regionCount).flatMap { Array(UnsafeRawBufferPointer(rebasing: region($0)[0..<byteLength])) }
    }

    private func channelSamples<Sample: PCMSample>(region index: Int, as: Sample.Type) -> [Sample] {
        let raw = UnsafeRawBufferPointer(rebasing: region(index)[0..<byteLength])
        let count = byteLength / MemoryLayout<Sample>.size
        return [Sample](unsafeUninitializedCapacity: count) { out, initialized in
            UnsafeMutableRawBufferPointer(out).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<(count * MemoryLayout<Sample>.size)]))
            initialized = count
        }
    }
}
