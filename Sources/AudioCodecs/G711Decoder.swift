public import AudioCore

/// ITU-T G.711 A-law and µ-law: one byte per sample in, 16-bit signed native-endian out.
///
/// The expansion is the one of G.711's tables, scaled to 16 bits as ffmpeg's `pcm_alaw` and
/// `pcm_mulaw` decoders (and Apple's) do: A-law spans ±32256, µ-law ±32124. A packet is one frame
/// (one byte per channel); a call may pass several whole frames at once.
public final class G711Decoder: AudioDecoder {
    /// Interleaved 16-bit signed little-endian PCM at the input's rate and channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// One frame per packet.
    public var maximumFramesPerPacket: Int { 1 }

    private let table: [Int16]
    private let channels: Int
    private let layout: PCMSampleLayout

    /// A decoder for `'alaw'` or `'ulaw'` input; `formatNotSupported` for other format IDs, no
    /// channels, or packets that are not one byte per channel. The cookie is ignored.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        switch input.formatID {
        case .aLaw: table = G711.aLawTable
        case .uLaw: table = G711.muLawTable
        default: throw AudioCodecError(.formatNotSupported, "\(input.formatID.messageName) is not G.711")
        }
        let channels = input.channelsPerFrame
        guard channels > 0, channels <= 1 << 16 else {
            throw AudioCodecError(.formatNotSupported, "G.711 with \(channels) channels")
        }
        guard input.bytesPerPacket == 0 || input.bytesPerPacket == channels,
              input.framesPerPacket == 0 || input.framesPerPacket == 1 else {
            throw AudioCodecError(.formatNotSupported, "G.711 packets are one byte per channel and one frame")
        }
        self.channels = Int(channels)
        outputFormat = .linearPCM(sampleRate: input.sampleRate, channels: channels, bitsPerChannel: 16)
        layout = try PCMSampleLayout(outputFormat)
    }

    /// Expands the bytes of `packet` (whole frames) and appends them to `buffer`. A packet that
    /// is not a whole number of frames (or disagrees with `frames`) throws `badData` after
    /// appending silence for the frames it claims. `formatNotSupported` when `buffer.format` is
    /// not ``outputFormat``; `invalidOutputSize` when the frames don't fit.
    @discardableResult
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        let expected = max(frames ?? packet.count / channels, 0)
        try buffer.checkAppend(expected, as: outputFormat)
        guard packet.count == expected * channels, frames.map({ $0 >= 0 }) ?? true else {
            buffer.appendSilence(frames: expected, layout: layout)
            throw AudioCodecError(.badData, "a G.711 packet of \(packet.count) bytes is not \(expected) frames of \(channels) channels")
        }
        guard expected > 0, let source = packet.baseAddress, let region = buffer.region(0).baseAddress else { return 0 }
        let out = (region + buffer.byteLength).assumingMemoryBound(to: Int16.self)
        let input = source.assumingMemoryBound(to: UInt8.self)
        table.withUnsafeBufferPointer { table in
            for i in 0..<packet.count { out[i] = table[Int(input[i])] }
        }
        buffer.frameLength += expected
        return expected
    }

    /// Nothing to forget: G.711 carries no state between samples.
    public func reset() {}
}

/// G.711 expansion (ITU-T Rec. G.711, tables 1 and 2), in 16-bit units.
enum G711 {
    /// A-law: the even bits are inverted on the line; after undoing that, the byte is a sign
    /// (1 = positive), a 3-bit segment and a 4-bit step within it.
    static func aLaw(_ byte: UInt8) -> Int16 {
        let a = Int(byte ^ 0x55)
        let segment = (a >> 4) & 7
        let step = a & 0x0F
        // Decision values are at the middle of each interval: (2·step + 1) half-steps.
        let magnitude = segment == 0 ? (step << 4) + 8 : ((step << 4) + 0x108) << (segment - 1)
        return Int16(a & 0x80 != 0 ? magnitude : -magnitude)
    }

    /// µ-law: the whole byte is inverted on the line; after undoing that, a sign (1 = negative),
    /// a 3-bit segment and a 4-bit step, on a scale biased by 0x84 (33 in 14-bit units).
    static func muLaw(_ byte: UInt8) -> Int16 {
        let u = Int(~byte)
        let segment = (u >> 4) & 7
        let step = u & 0x0F
        let biased = ((step << 3) + 0x84) << segment
        return Int16(u & 0x80 != 0 ? 0x84 - biased : biased - 0x84)
    }

    static let aLawTable: [Int16] = (0...255).map { aLaw(UInt8($0)) }
    static let muLawTable: [Int16] = (0...255).map { muLaw(UInt8($0)) }
}
