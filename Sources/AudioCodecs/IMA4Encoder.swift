public import AudioCore

/// Apple IMA 4:1 ADPCM (`'ima4'`) from Float32: packets of 64 frames, 34 bytes per channel.
///
/// Samples are rounded to 16 bits as ``PCMConverter`` rounds them, then each channel is coded
/// with the IMA reference quantizer (IMA Digital Audio Focus and Technical Working Groups,
/// "Recommended Practices for Enhancing Digital Audio Compatibility in Multimedia Systems", 1992):
/// per sample, the difference from the predictor is compared with the step, half the step and a
/// quarter of it in turn, and the predictor moves as the decoder will move it.
///
/// A packet holds one 34-byte block per channel, channel after channel: a big-endian 16-bit
/// header whose top 9 bits are the channel's predictor with the low 7 bits cleared and whose low
/// 7 bits are its step index, then 32 bytes of 4-bit codes, low nibble first — what
/// ``IMA4Decoder`` reads. As QuickTime's encoder does, a channel goes on from the full-precision
/// predictor and step index it ended the previous packet with, which a decoder that carries its
/// state between packets (QuickTime's, ffmpeg's, ``IMA4Decoder``) follows exactly.
public final class IMA4Encoder: AudioEncoder {
    /// Interleaved native-endian Float32 at the output's rate and channel count.
    public let inputFormat: AudioStreamBasicDescription
    /// `'ima4'`: 64 frames and 34 bytes per channel per packet, flags, bytes per frame and bits
    /// per channel 0.
    public let outputFormat: AudioStreamBasicDescription
    /// 64 frames per packet.
    public var framesPerPacket: Int { IMA4.framesPerPacket }
    /// 34 bytes per channel.
    public var maximumPacketSize: Int { IMA4.bytesPerBlock * channels }

    private let channels: Int
    /// Per channel: the predictor and step index the last packet ended with (2 × channels).
    private let state: UnsafeMutablePointer<Int32>

    /// An encoder to `'ima4'` `output`; `formatNotSupported` for other format IDs, no channels,
    /// fields that disagree with 64 frames and 34 bytes per channel per packet (0 is filled in),
    /// or an input that is not Float32 at the output's rate and channel count.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard output.formatID == .appleIMA4 else {
            throw AudioCodecError(.formatNotSupported, "'\(output.formatID)' is not IMA4")
        }
        let channels = output.channelsPerFrame
        guard channels > 0, channels <= 1 << 16 else {
            throw AudioCodecError(.formatNotSupported, "IMA4 with \(channels) channels")
        }
        let packetBytes = UInt32(IMA4.bytesPerBlock) * channels
        guard [0, packetBytes].contains(output.bytesPerPacket), [0, UInt32(IMA4.framesPerPacket)].contains(output.framesPerPacket),
              output.bytesPerFrame == 0, output.bitsPerChannel == 0 else {
            throw AudioCodecError(.formatNotSupported, "IMA4 packets are 64 frames of 34 bytes per channel; got \(output)")
        }
        self.channels = try input.checkEncoderInput(for: output)
        inputFormat = input
        outputFormat = AudioStreamBasicDescription(
            sampleRate: output.sampleRate, formatID: .appleIMA4, formatFlags: [], bytesPerPacket: packetBytes,
            framesPerPacket: UInt32(IMA4.framesPerPacket), bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        state = .allocate(capacity: 2 * Int(channels))
        state.initialize(repeating: 0, count: 2 * Int(channels))
    }

    deinit { state.deallocate() }

    /// Encodes `frameCount` frames into packets of 64; a last partial packet is completed with
    /// silence (reported in ``AudioEncodeResult/paddingFrames``). Packet descriptions are not
    /// written (the packets are all one size).
    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        let needed = outputByteCount(forFrames: frameCount)
        try checkEncodeSizes(input, frameCount: frameCount, channels: channels, output: output, needed: needed)
        let perPacket = IMA4.framesPerPacket
        let whole = frameCount / perPacket
        let rest = frameCount - whole * perPacket
        guard frameCount > 0, let source = input.baseAddress, let destination = output.baseAddress else {
            return AudioEncodeResult(packetCount: 0, byteCount: 0)
        }
        let samples = source.assumingMemoryBound(to: Float.self)
        let channels = self.channels
        let packetBytes = IMA4.bytesPerBlock * channels
        IMA4.stepTable.withUnsafeBufferPointer { steps in
            IMA4.indexTable.withUnsafeBufferPointer { indices in
                let tables = IMA4.Tables(steps: steps, indices: indices)
                for packet in 0..<whole {
                    let frames = samples + packet * perPacket * channels
                    let out = destination + packet * packetBytes
                    for channel in 0..<channels {
                        encodeBlock(frames + channel, stride: channels, channel: channel, into: out + channel * IMA4.bytesPerBlock, tables)
                    }
                }
                guard rest > 0 else { return }
                // The last, partial packet: each channel's frames and then silence.
                withUnsafeTemporaryAllocation(of: Float.self, capacity: perPacket) { scratch in
                    guard let padded = scratch.baseAddress else { return }
                    let frames = samples + whole * perPacket * channels
                    let out = destination + whole * packetBytes
                    for channel in 0..<channels {
                        for i in 0..<perPacket { padded[i] = i < rest ? frames[i * channels + channel] : 0 }
                        encodeBlock(padded, stride: 1, channel: channel, into: out + channel * IMA4.bytesPerBlock, tables)
                    }
                }
            }
        }
        let packets = whole + (rest > 0 ? 1 : 0)
        return AudioEncodeResult(packetCount: packets, byteCount: packets * packetBytes, paddingFrames: rest > 0 ? perPacket - rest : 0)
    }

    /// Encodes one channel's 64 samples (`stride` floats apart from `samples`) into a 34-byte block.
    @inline(__always)
    private func encodeBlock(
        _ samples: UnsafePointer<Float>, stride: Int, channel: Int, into block: UnsafeMutableRawPointer, _ tables: IMA4.Tables
    ) {
        var predictor = state[2 * channel]
        var stepIndex = state[2 * channel + 1]
        let header = UInt16(truncatingIfNeeded: predictor) & 0xFF80 | UInt16(truncatingIfNeeded: stepIndex)
        block.storeBytes(of: UInt8(truncatingIfNeeded: header >> 8), as: UInt8.self)
        block.storeBytes(of: UInt8(truncatingIfNeeded: header), toByteOffset: 1, as: UInt8.self)
        var s = 0
        for byteIndex in 2..<IMA4.bytesPerBlock {
            let low = IMA4.compress(Int32(roundClip16(samples[s] * 32768)), predictor: &predictor, stepIndex: &stepIndex, tables)
            let high = IMA4.compress(Int32(roundClip16(samples[s + stride] * 32768)), predictor: &predictor, stepIndex: &stepIndex, tables)
            block.storeBytes(of: UInt8(truncatingIfNeeded: low | high << 4), toByteOffset: byteIndex, as: UInt8.self)
            s += 2 * stride
        }
        state[2 * channel] = predictor
        state[2 * channel + 1] = stepIndex
    }

    /// Starts again from predictor 0 and step index 0 in every channel, as a new stream.
    public func reset() {
        state.update(repeating: 0, count: 2 * channels)
    }
}

extension IMA4 {
    /// The quantizer's tables, fetched once per call.
    struct Tables {
        let steps: UnsafeBufferPointer<Int32>
        let indices: UnsafeBufferPointer<Int32>
    }

    /// The IMA reference quantizer: the 4-bit code for `sample`, updating the predictor and step
    /// index exactly as ``expand(_:predictor:stepIndex:)`` will when it decodes the code.
    @inline(__always)
    static func compress(_ sample: Int32, predictor: inout Int32, stepIndex: inout Int32, _ tables: Tables) -> Int32 {
        var step = tables.steps[Int(stepIndex)]
        var delta = sample &- predictor
        let sign: Int32 = delta < 0 ? 8 : 0
        delta = delta < 0 ? 0 &- delta : delta
        var difference = step >> 3
        var code: Int32 = 0
        if delta >= step { code = 4; delta &-= step; difference &+= step }
        step >>= 1
        if delta >= step { code |= 2; delta &-= step; difference &+= step }
        step >>= 1
        if delta >= step { code |= 1; difference &+= step }
        let next = sign != 0 ? predictor &- difference : predictor &+ difference
        predictor = min(max(next, -32768), 32767)
        stepIndex = min(max(stepIndex &+ tables.indices[Int(code)], 0), 88)
        return code | sign
    }
}
