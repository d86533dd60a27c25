public import AudioCore

/// The "decoder" for linear PCM packets: copies them unchanged, so every format goes through
/// the same decoder seam. Its output format is the input format.
///
/// A packet is one frame; a call may also pass several whole frames at once (any multiple of
/// `bytesPerFrame`), which are copied in one go.
public final class PCMDecoder: AudioDecoder {
    /// The input format: packets are copied, not converted.
    public let outputFormat: AudioStreamBasicDescription
    /// One frame per packet.
    public var maximumFramesPerPacket: Int { 1 }

    private let layout: PCMSampleLayout

    /// A decoder for interleaved linear PCM `input`; `formatNotSupported` for anything else
    /// (other format IDs, non-interleaved or malformed descriptions). The cookie is ignored.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        let layout = try PCMSampleLayout(input)
        guard layout.interleaved else {
            throw AudioCodecError(.formatNotSupported, "PCM packets are interleaved; the format is not")
        }
        self.layout = layout
        outputFormat = input
    }

    /// Appends the frames of `packet` to `buffer`. `frames`, when given, must match the packet's
    /// size. A packet that is not a whole number of frames (or disagrees with `frames`) throws
    /// `badData` after appending silence for the frames it claims. `formatNotSupported` when
    /// `buffer.format` is not ``outputFormat``; `invalidOutputSize` when the frames don't fit.
    @discardableResult
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        let frameBytes = layout.frameStride
        let whole = packet.count / frameBytes
        let expected = max(frames ?? whole, 0)
        try buffer.checkAppend(expected, as: outputFormat)
        guard packet.count == expected * frameBytes, frames.map({ $0 >= 0 }) ?? true else {
            buffer.appendSilence(frames: expected, layout: layout)
            throw AudioCodecError(.badData, "a PCM packet of \(packet.count) bytes is not \(expected) frames of \(frameBytes) bytes")
        }
        guard expected > 0, let source = packet.baseAddress, let destination = buffer.region(0).baseAddress else { return 0 }
        (destination + buffer.byteLength).copyMemory(from: source, byteCount: packet.count)
        buffer.frameLength += expected
        return expected
    }

    /// Nothing to forget: PCM carries no state between packets.
    public func reset() {}
}
