public import AudioCore

/// Converts between linear PCM formats of the same rate and channel count: any width, byte
/// order, signedness, integer or float, packed or aligned high/low, interleaved or not.
///
/// Exact where the conversion is exact (widening integers, integer to a float that holds it,
/// any format to itself); rounds to nearest (ties to even) and clips where it narrows. Allocates
/// nothing per call.
///
/// The conventions are Apple's and ffmpeg's: an n-bit signed integer `x` stands for
/// `x / 2^(n-1)` and an unsigned one for `(x - 2^(n-1)) / 2^(n-1)`; float to integer multiplies
/// by `2^(n-1)`, rounds to nearest with ties to even and clips to `-2^(n-1)...2^(n-1)-1` (NaN
/// becomes 0); integer to a wider integer shifts left exactly, to a narrower one rounds the same
/// way and clips. Float outputs are never clipped. Integers up to 32 bits in words of 1 to 4
/// bytes and 32- and 64-bit floats are supported; fixed-point formats are not.
public struct PCMConverter: Sendable {
    /// The source format.
    public let input: AudioStreamBasicDescription
    /// The destination format.
    public let output: AudioStreamBasicDescription

    private let source: PCMSampleLayout
    private let destination: PCMSampleLayout
    private let route: Route

    /// Which loop converts a stream of samples.
    private enum Route: Sendable {
        case copy
        case toFloat32(SimpleSampleFormat)
        case toInt16(SimpleSampleFormat)
        case float32ToInt24
        case float32ToInt32
        case float32ToFloat64
        case general
    }

    /// A converter from `input` to `output`; `formatNotSupported` unless both are linear PCM
    /// with the same sample rate and channel count.
    public init(from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription) throws(AudioCodecError) {
        let source = try PCMSampleLayout(input)
        let destination = try PCMSampleLayout(output)
        guard input.sampleRate == output.sampleRate else {
            throw AudioCodecError(.formatNotSupported, "sample rates differ (\(input.sampleRate) and \(output.sampleRate) Hz)")
        }
        guard source.channels == destination.channels else {
            throw AudioCodecError(.formatNotSupported, "channel counts differ (\(source.channels) and \(destination.channels))")
        }
        self.input = input
        self.output = output
        self.source = source
        self.destination = destination
        route = Self.route(from: source, to: destination)
    }

    private static func route(from source: PCMSampleLayout, to destination: PCMSampleLayout) -> Route {
        var sameSample = destination
        sameSample.interleaved = source.interleaved
        if source == sameSample { return .copy }
        guard let from = SimpleSampleFormat(source), let to = SimpleSampleFormat(destination) else { return .general }
        switch (from, to) {
        case (_, .f32(bigEndian: false)): return .toFloat32(from)
        case (_, .s16(bigEndian: false)): return .toInt16(from)
        case (.f32(bigEndian: false), .s24(bigEndian: false)): return .float32ToInt24
        case (.f32(bigEndian: false), .s32(bigEndian: false)): return .float32ToInt32
        case (.f32(bigEndian: false), .f64(bigEndian: false)): return .float32ToFloat64
        default: return .general
        }
    }

    /// Converts `frameCount` frames of interleaved `input`-format bytes and appends them after
    /// `destination.frameLength` (`destination.format` must equal ``output``; `invalidOutputSize`
    /// when they don't fit).
    ///
    /// When ``input`` is non-interleaved, `source` holds one region per channel, back to back,
    /// each `frameCount` frames long. `invalidInputSize` when `source` is shorter than
    /// `frameCount` frames or `frameCount` is negative; `formatNotSupported` when the
    /// destination's format is not ``output``. Nothing is appended when an error is thrown.
    public func convert(_ source: UnsafeRawBufferPointer, frameCount: Int, appendingTo destination: PCMBuffer) throws(AudioCodecError) {
        let layout = self.source
        let (regionBytes, overflow) = frameCount.multipliedReportingOverflow(by: layout.frameStride)
        let (total, overflow2) = regionBytes.multipliedReportingOverflow(by: layout.regionCount)
        guard frameCount >= 0, !overflow, !overflow2, total <= source.count else {
            throw AudioCodecError(.invalidInputSize, "\(source.count) bytes do not hold \(frameCount) frames of the input format")
        }
        try checkDestination(destination, frameCount: frameCount)
        guard frameCount > 0, let base = source.baseAddress else { return }
        run(frameCount: frameCount, destination: destination) { channel in
            layout.interleaved ? UnsafeRawPointer(base + channel * layout.wordSize) : UnsafeRawPointer(base + channel * regionBytes)
        }
    }

    /// Converts all frames of `source` (format ``input``, interleaved or not) and appends them to
    /// `destination`.
    ///
    /// `formatNotSupported` when `source.format` is not ``input`` or `destination.format` is
    /// not ``output``; `invalidOutputSize` when the frames don't fit. Nothing is appended when an
    /// error is thrown.
    public func convert(_ source: PCMBuffer, appendingTo destination: PCMBuffer) throws(AudioCodecError) {
        guard source.format == input else {
            throw AudioCodecError(.formatNotSupported, "the source buffer's format is not the converter's input format")
        }
        let frameCount = source.frameLength
        try checkDestination(destination, frameCount: frameCount)
        guard frameCount > 0 else { return }
        let layout = self.source
        if layout.interleaved {
            guard let base = source.region(0).baseAddress else { return }
            run(frameCount: frameCount, destination: destination) { channel in
                UnsafeRawPointer(base + channel * layout.wordSize)
            }
        } else {
            run(frameCount: frameCount, destination: destination) { channel in
                // Non-empty regions always have a base address.
                UnsafeRawPointer(source.region(channel).baseAddress!)
            }
        }
    }

    /// Converts `frameCount` frames of ``input`` straight into `destination`, memory the caller
    /// owns that receives frames of ``output`` (no `PCMBuffer` in between).
    ///
    /// A non-interleaved side (source or destination) holds one region per channel, back to
    /// back, each `frameCount` frames long. `invalidInputSize` or `invalidOutputSize` when either
    /// side is shorter than `frameCount` frames (or `frameCount` is negative); nothing is written
    /// then.
    public func convert(_ source: UnsafeRawBufferPointer, frameCount: Int, into destination: UnsafeMutableRawBufferPointer) throws(AudioCodecError) {
        let src = self.source, dst = self.destination
        let (inRegion, o1) = frameCount.multipliedReportingOverflow(by: src.frameStride)
        let (inBytes, o2) = inRegion.multipliedReportingOverflow(by: src.regionCount)
        let (outRegion, o3) = frameCount.multipliedReportingOverflow(by: dst.frameStride)
        let (outBytes, o4) = outRegion.multipliedReportingOverflow(by: dst.regionCount)
        guard frameCount >= 0, !o1, !o2, inBytes <= source.count else {
            throw AudioCodecError(.invalidInputSize, "\(source.count) bytes do not hold \(frameCount) frames of the input format")
        }
        guard !o3, !o4, outBytes <= destination.count else {
            throw AudioCodecError(.invalidOutputSize, "\(frameCount) frames do not fit in \(destination.count) bytes")
        }
        guard frameCount > 0, let input = source.baseAddress, let out = destination.baseAddress else { return }
        if src.interleaved && dst.interleaved {
            stream(input, src.wordSize, out, dst.wordSize, frameCount * src.channels)
            return
        }
        for channel in 0..<src.channels {
            let from = src.interleaved ? input + channel * src.wordSize : input + channel * inRegion
            let to = dst.interleaved ? out + channel * dst.wordSize : out + channel * outRegion
            stream(from, src.frameStride, to, dst.frameStride, frameCount)
        }
    }

    private func checkDestination(_ destination: PCMBuffer, frameCount: Int) throws(AudioCodecError) {
        guard destination.format == output else {
            throw AudioCodecError(.formatNotSupported, "the destination buffer's format is not the converter's output format")
        }
        guard frameCount <= destination.framesFree else {
            throw AudioCodecError(
                .invalidOutputSize, "\(frameCount) frames do not fit in the \(destination.framesFree) free frames of the destination")
        }
    }

    /// Converts `frameCount` frames whose channel `c` starts at `sourceStart(c)` and appends
    /// them to `destination`, which has room.
    private func run(frameCount: Int, destination buffer: PCMBuffer, sourceStart: (Int) -> UnsafeRawPointer) {
        let src = source
        let dst = destination
        let start = buffer.frameLength
        if src.interleaved && dst.interleaved {
            // One stream of all samples.
            guard let out = buffer.region(0).baseAddress else { return }
            stream(sourceStart(0), src.wordSize, out + start * dst.frameStride, dst.wordSize, frameCount * src.channels)
        } else {
            for channel in 0..<src.channels {
                let out: UnsafeMutableRawPointer
                if dst.interleaved {
                    guard let base = buffer.region(0).baseAddress else { return }
                    out = base + start * dst.frameStride + channel * dst.wordSize
                } else {
                    guard let base = buffer.region(channel).baseAddress else { return }
                    out = base + start * dst.frameStride
                }
                stream(sourceStart(channel), src.frameStride, out, dst.frameStride, frameCount)
            }
        }
        buffer.frameLength = start + frameCount
    }

    /// Converts one stream of `count` samples.
    private func stream(_ src: UnsafeRawPointer, _ srcStride: Int, _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ count: Int) {
        switch route {
        case .copy: copySamples(wordSize: source.wordSize, src, srcStride, dst, dstStride, count)
        case .toFloat32(let format): convertToFloat32(format, src, srcStride, dst, dstStride, count)
        case .toInt16(let format): convertToInt16(format, src, srcStride, dst, dstStride, count)
        case .float32ToInt24: convertFloat32ToInt24(src, srcStride, dst, dstStride, count)
        case .float32ToInt32: convertFloat32ToInt32(src, srcStride, dst, dstStride, count)
        case .float32ToFloat64: convertFloat32ToFloat64(src, srcStride, dst, dstStride, count)
        case .general: convertGeneral(from: source, to: destination, src, srcStride, dst, dstStride, count)
        }
    }
}
