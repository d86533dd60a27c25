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
            throw AudioCodecError(.formatNotSupported, "\(output.formatID.messageName) is not IMA4")
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
        _ = try checkEncodeSizes(input, frameCount: frameCount, output: output)
        let perPacket = IMA4.framesPerPacket
        let whole = frameCount / perPacket
        let rest = frameCount - whole * perPacket
        guard frameCount > 0, let source = input.baseAddress, let destination = output.baseAddress else {
            return AudioEncodeResult(packetCount: 0, byteCount: 0)
        }
        // Samples are read with unaligned loads: the caller's memory need not be aligned.
        let channels = self.channels
        let frameBytes = 4 * channels
        let packetBytes = IMA4.bytesPerBlock * channels
        IMA4.stepTable.withUnsafeBufferPointer { steps in
            IMA4.indexTable.withUnsafeBufferPointer { indices in
                let tables = IMA4.Tables(steps: steps, indices: indices)
                for packet in 0..<whole {
                    encodePacket(source + packet * perPacket * frameBytes, stride: frameBytes, into: destination + packet * packetBytes, tables)
                }
                guard rest > 0 else { return }
                // The last, partial packet: each channel's frames and then silence.
                withUnsafeTemporaryAllocation(of: Float.self, capacity: perPacket) { scratch in
                    guard let padded = scratch.baseAddress else { return }
                    let frames = source + whole * perPacket * frameBytes
                    let out = destination + whole * packetBytes
                    for channel in 0..<channels {
                        for i in 0..<perPacket {
                            padded[i] = i < rest ? frames.loadUnaligned(fromByteOffset: i * frameBytes + 4 * channel, as: Float.self) : 0
                        }
                        encodeBlocks(
                            UnsafeRawPointer(padded), UnsafeRawPointer(padded), stride: 4, channels: channel, channel,
                            into: out + channel * IMA4.bytesPerBlock, tables)
                    }
                }
            }
        }
        let packets = whole + (rest > 0 ? 1 : 0)
        return AudioEncodeResult(packetCount: packets, byteCount: packets * packetBytes, paddingFrames: rest > 0 ? perPacket - rest : 0)
    }

    /// Encodes one packet of every channel from interleaved Float32 `frames` (`stride` bytes a frame),
    /// two channels at a time: their codes do not depend on each other, so the processor works
    /// on both at once.
    @inline(__always)
    private func encodePacket(_ frames: UnsafeRawPointer, stride: Int, into packet: UnsafeMutableRawPointer, _ tables: IMA4.Tables) {
        var channel = 0
        while channel + 1 < channels {
            encodeBlocks(frames + 4 * channel, frames + 4 * (channel + 1), stride: stride, channels: channel, channel + 1,
                         into: packet + channel * IMA4.bytesPerBlock, tables)
            channel += 2
        }
        if channel < channels {
            encodeBlocks(frames + 4 * channel, frames + 4 * channel, stride: stride, channels: channel, channel,
                         into: packet + channel * IMA4.bytesPerBlock, tables)
        }
    }

    /// Encodes 64 Float32 samples (`stride` bytes apart) of channels `a` and `b` into their 34-byte
    /// blocks, the one of `b` right after the one of `a` at `blocks`. When `a` and `b` are the
    /// same channel, only its block is written.
    @inline(__always)
    private func encodeBlocks(
        _ samplesA: UnsafeRawPointer, _ samplesB: UnsafeRawPointer, stride: Int, channels a: Int, _ b: Int,
        into blocks: UnsafeMutableRawPointer, _ tables: IMA4.Tables
    ) {
        let pair = a != b
        var predictorA = state[2 * a], stepIndexA = state[2 * a + 1]
        var predictorB = state[2 * b], stepIndexB = state[2 * b + 1]
        IMA4.storeHeader(predictor: predictorA, stepIndex: stepIndexA, at: blocks)
        let blockB = blocks + IMA4.bytesPerBlock
        if pair { IMA4.storeHeader(predictor: predictorB, stepIndex: stepIndexB, at: blockB) }
        var s = 0
        for byteIndex in 2..<IMA4.bytesPerBlock {
            let lowA = IMA4.compress(IMA4.sample(samplesA, s), predictor: &predictorA, stepIndex: &stepIndexA, tables)
            let lowB = IMA4.compress(IMA4.sample(samplesB, s), predictor: &predictorB, stepIndex: &stepIndexB, tables)
            let highA = IMA4.compress(IMA4.sample(samplesA, s + stride), predictor: &predictorA, stepIndex: &stepIndexA, tables)
            let highB = IMA4.compress(IMA4.sample(samplesB, s + stride), predictor: &predictorB, stepIndex: &stepIndexB, tables)
            blocks.storeBytes(of: UInt8(truncatingIfNeeded: lowA | highA << 4), toByteOffset: byteIndex, as: UInt8.self)
            if pair { blockB.storeBytes(of: UInt8(truncatingIfNeeded: lowB | highB << 4), toByteOffset: byteIndex, as: UInt8.self) }
            s += 2 * stride
        }
        state[2 * a] = predictorA
        state[2 * a + 1] = stepIndexA
        if pair {
            state[2 * b] = predictorB
            state[2 * b + 1] = stepIndexB
        }
    }

    /// Starts again from predictor 0 and step index 0 in every channel, as a new stream.
    public func reset() {
        state.update(repeating: 0, count: 2 * channels)
    }
}

extension IMA4 {
    /// The Float32 sample at `offset` bytes from `base` as the 16-bit value the quantizer codes
    /// (PCMConverter's rounding).
    @inline(__always)
    static func sample(_ base: UnsafeRawPointer, _ offset: Int) -> Int32 {
        Int32(roundClip16(base.loadUnaligned(fromByteOffset: offset, as: Float.self) * 32768))
    }

    /// Writes a block's big-endian header: the predictor's top 9 bits and the step index.
    @inline(__always)
    static func storeHeader(predictor: Int32, stepIndex: Int32, at block: UnsafeMutableRawPointer) {
        let header = UInt16(truncatingIfNeeded: predictor) & 0xFF80 | UInt16(truncatingIfNeeded: stepIndex)
        block.storeBytes(of: header.bigEndian, as: UInt16.self)
    }

    /// The quantizer's tables, fetched once per call.
    struct Tables {
        let steps: UnsafeBufferPointer<Int32>
        let indices: UnsafeBufferPointer<Int32>
    }

    /// The IMA reference quantizer: the 4-bit code for `sample`, updating the predictor and step
    /// index exactly as ``expand(_:predictor:stepIndex:)`` will when it decodes the code.
    ///
    /// The magnitude of the difference from the predictor is compared with the step, then what
    /// is left with half the step, then with a quarter of it (each halving truncated, as the
    /// decoder truncates them); every step passed adds its part to the predictor's move, which
    /// starts at an eighth of the step. Written with masks instead of branches: the comparisons
    /// go either way on real signals, and mispredicted branches would cost more than the rest.
    @inline(__always)
    static func compress(_ sample: Int32, predictor: inout Int32, stepIndex: inout Int32, _ tables: Tables) -> Int32 {
        let step = tables.steps[Int(stepIndex)]
        let delta = sample &- predictor
        let negative = delta >> 31  // all ones when the difference is negative
        var rest = (delta ^ negative) &- negative
        // Each `pass` is all ones when what is left reaches the part it is compared with.
        let pass4 = (step &- 1 &- rest) >> 31
        rest &-= step & pass4
        var move = (step >> 3) &+ (step & pass4)
        let half = step >> 1
        let pass2 = (half &- 1 &- rest) >> 31
        rest &-= half & pass2
        move &+= half & pass2
        let quarter = step >> 2
        let pass1 = (quarter &- 1 &- rest) >> 31
        move &+= quarter & pass1
        let code = (pass4 & 4) | (pass2 & 2) | (pass1 & 1)
        predictor = min(max(predictor &+ ((move ^ negative) &- negative), -32768), 32767)
        stepIndex = min(max(stepIndex &+ tables.indices[Int(code)], 0), 88)
        return code | (negative & 8)
    }
}
