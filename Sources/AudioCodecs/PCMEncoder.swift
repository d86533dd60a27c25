public import AudioCore

/// The "encoder" for linear PCM: converts Float32 frames to any linear PCM layout
/// ``PCMConverter`` writes (integers of 1 to 32 bits in words of 1 to 4 bytes, signed or unsigned,
/// 32- and 64-bit floats, either byte order, packed or aligned high or low, interleaved or not),
/// with its rounding: to nearest, ties to even, clipped to the integer range.
///
/// A packet is one frame. Non-interleaved output holds one region per channel, back to back,
/// each as many frames long as the call encodes (what an audio queue buffer of
/// non-interleaved PCM holds).
public final class PCMEncoder: AudioEncoder {
    /// Interleaved native-endian Float32 at the output's rate and channel count.
    public let inputFormat: AudioStreamBasicDescription
    /// The output description, with frames per packet 1 and bytes per packet the bytes per frame.
    public let outputFormat: AudioStreamBasicDescription
    /// One frame per packet.
    public var framesPerPacket: Int { 1 }
    /// Bytes of one frame (of one channel for non-interleaved output).
    public var maximumPacketSize: Int { Int(outputFormat.bytesPerPacket) }

    private let converter: PCMConverter
    private let regions: Int

    /// An encoder to linear PCM `output`; `formatNotSupported` for other format IDs, layouts
    /// ``PCMConverter`` does not write (fixed point, integers wider than 32 bits), a description
    /// whose packets are not one frame, or an input that is not Float32 at the output's rate and
    /// channel count. Frames per packet 0 is taken as 1 and bytes per packet 0 as bytes per frame.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard output.formatID == .linearPCM else {
            throw AudioCodecError(.formatNotSupported, "\(output.formatID.messageName) is not linear PCM")
        }
        var output = output
        guard output.framesPerPacket <= 1, output.bytesPerPacket == 0 || output.bytesPerPacket == output.bytesPerFrame else {
            throw AudioCodecError(.formatNotSupported, "linear PCM packets are one frame; got \(output)")
        }
        output.framesPerPacket = 1
        output.bytesPerPacket = output.bytesPerFrame
        output.reserved = 0
        let layout = try PCMSampleLayout(output)
        _ = try input.checkEncoderInput(for: output)
        converter = try PCMConverter(from: input, to: output)
        regions = layout.regionCount
        inputFormat = input
        outputFormat = output
    }

    /// `frameCount` frames of the output format (times the channel count when non-interleaved).
    public func outputByteCount(forFrames frameCount: Int) -> Int? {
        guard frameCount >= 0 else { return nil }
        let (region, o1) = frameCount.multipliedReportingOverflow(by: Int(outputFormat.bytesPerFrame))
        let (total, o2) = region.multipliedReportingOverflow(by: regions)
        return o1 || o2 ? nil : total
    }

    /// Converts `frameCount` frames; one packet per frame, never padded. Packet descriptions
    /// are not written (the packets are all one frame).
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        let needed = try checkEncodeSizes(input, frameCount: frameCount, output: output)
        try converter.convert(input, frameCount: frameCount, into: output)
        return AudioEncodeResult(packetCount: frameCount, byteCount: needed)
    }

    /// Nothing to forget: PCM carries no state between packets.
    public func reset() {}
}
