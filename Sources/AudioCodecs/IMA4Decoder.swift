public import AudioCore

/// Apple IMA 4:1 ADPCM (`'ima4'`): packets of 34 bytes per channel, 64 frames, 16-bit signed
/// native-endian out.
///
/// Each channel's 34-byte block starts with a big-endian 16-bit header: the top 9 bits are the
/// predictor (the low 7 bits of the sign-extended value cleared), the low 7 bits the step index
/// (0...88). 32 bytes of 4-bit codes follow, low nibble first. As QuickTime's decoder (and
/// ffmpeg's `adpcm_ima_qt`) does, a channel keeps the full-precision predictor it ended the
/// previous packet with when the new header has the same step index and a predictor within 127
/// of it, so consecutive packets decode seamlessly; ``reset()`` forgets that.
public final class IMA4Decoder: AudioDecoder {
    /// Interleaved 16-bit signed little-endian PCM at the input's rate and channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// 64 frames per packet.
    public var maximumFramesPerPacket: Int { IMA4.framesPerPacket }
    /// 4 packets of pre-roll, not exact: the decoder carries the full-precision predictor across
    /// packets while the header's 9-bit predictor stays within reach, so a few packets bring the
    /// state back in line, close to but not bit for bit what a continuous decode has.
    public var traits: AudioDecoderTraits { AudioDecoderTraits(preRollPackets: 4, restartsExactly: false) }

    private let channels: Int
    private let layout: PCMSampleLayout
    /// Per channel: the predictor and step index the last packet ended with.
    private var predictors: [Int32]
    private var stepIndices: [Int32]

    /// A decoder for `'ima4'` input; `formatNotSupported` for other format IDs, no channels, or
    /// a description whose packets are not 34 bytes per channel and 64 frames. The cookie is
    /// ignored.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .appleIMA4 else {
            throw AudioCodecError(.formatNotSupported, "\(input.formatID.messageName) is not IMA4")
        }
        let channels = input.channelsPerFrame
        guard channels > 0, channels <= 1 << 16 else {
            throw AudioCodecError(.formatNotSupported, "IMA4 with \(channels) channels")
        }
        guard input.bytesPerPacket == 0 || input.bytesPerPacket == UInt32(IMA4.bytesPerBlock) * channels,
              input.framesPerPacket == 0 || input.framesPerPacket == UInt32(IMA4.framesPerPacket) else {
            throw AudioCodecError(.formatNotSupported, "IMA4 packets are 34 bytes per channel and 64 frames")
        }
        self.channels = Int(channels)
        outputFormat = .linearPCM(sampleRate: input.sampleRate, channels: channels, bitsPerChannel: 16)
        layout = try PCMSampleLayout(outputFormat)
        predictors = Array(repeating: 0, count: Int(channels))
        stepIndices = Array(repeating: 0, count: Int(channels))
    }

    /// Decodes one packet (34 bytes per channel) to 64 frames appended to `buffer`.
    ///
    /// A packet of another size, or one whose header has a step index above 88, throws
    /// `badData` after appending 64 frames of silence. `frames` is ignored (the format's
    /// packets always hold 64 frames). `formatNotSupported` when `buffer.format` is not
    /// ``outputFormat``; `invalidOutputSize` when 64 frames don't fit.
    @discardableResult
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        let frameCount = IMA4.framesPerPacket
        try buffer.checkAppend(frameCount, as: outputFormat)
        guard packet.count == IMA4.bytesPerBlock * channels, let input = packet.baseAddress,
              let region = buffer.region(0).baseAddress else {
            buffer.appendSilence(frames: frameCount, layout: layout)
            throw AudioCodecError(.badData, "an IMA4 packet of \(packet.count) bytes; expected \(IMA4.bytesPerBlock * channels)")
        }
        let out = (region + buffer.byteLength).assumingMemoryBound(to: Int16.self)
        let stride = channels
        for channel in 0..<channels {
            let block = input + channel * IMA4.bytesPerBlock
            let header = Int32(Int16(bitPattern: UInt16(block.load(as: UInt8.self)) << 8 | UInt16(block.load(fromByteOffset: 1, as: UInt8.self))))
            let headerStep = header & 0x7F
            let headerPredictor = header & ~0x7F
            var predictor = predictors[channel]
            var stepIndex = stepIndices[channel]
            // Keep the previous packet's full-precision predictor when the header agrees with it.
            if stepIndex != headerStep || abs(headerPredictor - predictor) > 0x7F {
                predictor = headerPredictor
                stepIndex = headerStep
            }
            predictors[channel] = predictor
            stepIndices[channel] = stepIndex
            guard stepIndex <= 88 else {
                buffer.appendSilence(frames: frameCount, layout: layout)
                throw AudioCodecError(.badData, "IMA4 channel \(channel) has step index \(stepIndex)")
            }
            var o = channel
            for byteIndex in 2..<IMA4.bytesPerBlock {
                let byte = block.load(fromByteOffset: byteIndex, as: UInt8.self)
                out[o] = IMA4.expand(Int32(byte & 0x0F), predictor: &predictor, stepIndex: &stepIndex)
                o += stride
                out[o] = IMA4.expand(Int32(byte >> 4), predictor: &predictor, stepIndex: &stepIndex)
                o += stride
            }
            predictors[channel] = predictor
            stepIndices[channel] = stepIndex
        }
        buffer.frameLength += frameCount
        return frameCount
    }

    /// Forgets the predictors carried from the previous packet (after a seek).
    public func reset() {
        for channel in 0..<channels {
            predictors[channel] = 0
            stepIndices[channel] = 0
        }
    }
}

/// The IMA ADPCM reference algorithm (IMA Digital Audio Focus and Technical Working Groups,
/// "Recommended Practices for Enhancing Digital Audio Compatibility in Multimedia Systems", 1992).
enum IMA4 {
    static let bytesPerBlock = 34
    static let framesPerPacket = 64

    /// Step index change for each 4-bit code (the sign bit does not matter).
    static let indexTable: [Int32] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]

    /// Quantizer step sizes, about 10 % apart, for step indices 0...88.
    static let stepTable: [Int32] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
        50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307,
        337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066,
        2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899,
        15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
    ]

    /// Decodes one 4-bit `code`, updating the channel's predictor and step index (0...88).
    /// The difference is built from shifted steps, bit by bit, as the reference does, rather
    /// than multiplied, so its rounding is the reference's.
    @inline(__always)
    static func expand(_ code: Int32, predictor: inout Int32, stepIndex: inout Int32) -> Int16 {
        let step = stepTable[Int(stepIndex)]
        var difference = step >> 3
        if code & 4 != 0 { difference += step }
        if code & 2 != 0 { difference += step >> 1 }
        if code & 1 != 0 { difference += step >> 2 }
        let next = code & 8 != 0 ? predictor - difference : predictor + difference
        predictor = min(max(next, -32768), 32767)
        stepIndex = min(max(stepIndex + indexTable[Int(code)], 0), 88)
        return Int16(truncatingIfNeeded: predictor)
    }
}
