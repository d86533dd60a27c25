package import AudioCore

/// The one way the package decodes a stream's packets: the registry's decoder for a format and
/// magic cookie, with what every reader needs around it.
///
/// - The frame scale: decoded frames per frame the stream description counts. 2 where the
///   description counts the core of an AAC stream the decoder doubles with SBR (its
///   `maximumFramesPerPacket` twice the description's frames per packet, its rate twice the
///   description's), else 1. A packet description's `variableFramesInPacket` is scaled by it
///   before the decoder sees it.
/// - Concealment: a packet the decoder cannot decode leaves its silence in the output, is
///   counted in ``badPackets`` and kept in ``lastConcealment``; decoding goes on.
/// - Conversion, when asked for: each packet's frames converted to interleaved Float32 (what
///   the output queue plays and the converter's stages work in).
/// - The decoder's ``traits`` (pre-roll, reset interval), which readers plan seeks and restarts by.
///
/// One instance serves one stream on one thread at a time.
package final class PacketDecoder {
    /// The stream's description, as the decoder was made from it.
    package let inputFormat: AudioStreamBasicDescription
    /// What the decoder writes.
    package let decodedFormat: AudioStreamBasicDescription
    /// What ``decode(packet:frames:into:)`` appends: ``decodedFormat``, or interleaved Float32
    /// at its rate and channel count when made converting to it.
    package let outputFormat: AudioStreamBasicDescription
    /// The most frames one packet (one access unit) decodes to.
    package let maximumFramesPerPacket: Int
    /// Decoded frames per frame the stream description counts (2 for SBR decoded at twice the
    /// described rate, else 1).
    package let frameScale: Int
    /// How the decoder restarts: pre-roll, reset interval, start alignment.
    package let traits: AudioDecoderTraits
    /// Packets concealed with silence (pre-roll excepted).
    package private(set) var badPackets = 0
    /// The error of the last concealed packet.
    package private(set) var lastConcealment: AudioCodecError?

    private let decoder: any AudioDecoder
    /// Decoded frames waiting for conversion to ``outputFormat``; nil without conversion.
    private let staging: PCMBuffer?
    private let converter: PCMConverter?
    /// True when ``decode(packet:frames:into:)`` converts (the output format is not the decoded one).
    private let converts: Bool

    /// A decoder for packets of `format` configured by `magicCookie`, from the registry
    /// (`formatNotSupported` naming the format when none is registered, else the decoder's
    /// error). With `convertingToFloat32`, decoded frames are converted to interleaved Float32
    /// at the decoded rate and channel count.
    package init(format: AudioStreamBasicDescription, magicCookie: [UInt8]?, convertingToFloat32: Bool = false) throws(AudioCodecError) {
        let decoder = try AudioDecoders.make(for: format, magicCookie: magicCookie)
        let decoded = decoder.outputFormat
        let output: AudioStreamBasicDescription? = convertingToFloat32
            ? .linearPCM(sampleRate: decoded.sampleRate, channels: decoded.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
            : nil
        self.decoder = decoder
        inputFormat = format
        decodedFormat = decoder.outputFormat
        outputFormat = output ?? decoder.outputFormat
        maximumFramesPerPacket = decoder.maximumFramesPerPacket
        frameScale = Self.frameScale(of: format, decodedFormat: decoder.outputFormat, maximumFramesPerPacket: maximumFramesPerPacket)
        traits = decoder.traits
        if let output {
            converter = try PCMConverter(from: decoder.outputFormat, to: output)
            // Room for a packet of several access units (an ADTS frame of up to 4 blocks).
            let capacity = max(8192, 4 * max(maximumFramesPerPacket, 1))
            guard let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: capacity) else {
                throw AudioCodecError(.formatNotSupported, "decoder output \(decoder.outputFormat) is not linear PCM")
            }
            staging = buffer
            converts = output != decoder.outputFormat
        } else {
            converter = nil
            staging = nil
            converts = false
        }
    }

    /// Decoded frames per frame `format` counts: 2 when the decoder doubles each packet and the
    /// rate (SBR over an AAC core the description names), else 1. A decoder whose packets are
    /// merely longer than the description says (a FLAC or ALAC description whose frames per
    /// packet is below the stream's block size) does not scale the description's counts.
    package static func frameScale(
        of format: AudioStreamBasicDescription, decodedFormat: AudioStreamBasicDescription, maximumFramesPerPacket: Int
    ) -> Int {
        let perPacket = Int(format.framesPerPacket)
        return perPacket > 0 && maximumFramesPerPacket == 2 * perPacket && decodedFormat.sampleRate == 2 * format.sampleRate ? 2 : 1
    }

    /// The order of the decoded channels where the codec defines it.
    package var outputChannelLayout: AudioChannelLayout? { decoder.outputChannelLayout }

    /// Forgets the state carried between packets (after a seek or a queue reset).
    package func reset() { decoder.reset() }

    /// `variableFramesInPacket` of a packet description as decoded frames; nil when it gives none.
    @inline(__always)
    package func decodedFrames(_ description: AudioStreamPacketDescription) -> Int? {
        description.variableFramesInPacket > 0 ? Int(description.variableFramesInPacket) * frameScale : nil
    }

    /// Decodes one packet and appends its frames to `buffer` in ``outputFormat``. `frames` is
    /// the packet's frame count in decoded frames (``decodedFrames(_:)``), nil where the
    /// container gives none. A packet that cannot be decoded appends the decoder's silence and
    /// is counted (``badPackets``); any other error is thrown. Returns the frames appended.
    @discardableResult
    package func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard converts, let staging, let converter else { return try decodeConcealing(packet, frames, into: buffer) }
        staging.frameLength = 0
        try decodeConcealing(packet, frames, into: staging)
        try converter.convert(staging, appendingTo: buffer)
        return staging.frameLength
    }

    /// Decodes one packet and converts its frames to ``outputFormat`` (interleaved) into the
    /// memory `reserve` gives for that many frames. Concealment as ``decode(packet:frames:into:)``.
    /// Needs an output format. Returns the frames written.
    @discardableResult
    package func decode(
        packet: UnsafeRawBufferPointer, frames: Int?, reserving reserve: (Int) -> UnsafeMutableRawBufferPointer
    ) throws(AudioCodecError) -> Int {
        guard let staging, let converter else {
            throw AudioCodecError(.formatNotSupported, "the packet decoder has no output format to convert to")
        }
        staging.frameLength = 0
        try decodeConcealing(packet, frames, into: staging)
        let n = staging.frameLength
        guard n > 0 else { return 0 }
        try converter.convert(UnsafeRawBufferPointer(staging.region(0)), frameCount: n, into: reserve(n))
        return n
    }

    /// Decodes `count` packets as `AudioFile.readPackets` left them in `bytes` (each at its
    /// description's offset, or back to back at the format's bytes per packet when
    /// `descriptions` is nil) and appends their frames to `output` (in ``decodedFormat``),
    /// stopping before a packet that might not fit (the caller reads it again). The first
    /// `dropping` packets are pre-roll: decoded for the decoder's state, their frames dropped,
    /// a failure among them not counted. Returns the packets used.
    package func decode(
        packets count: Int, bytes: UnsafeRawBufferPointer, descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?,
        dropping: Int, into output: PCMBuffer
    ) throws(AudioCodecError) -> Int {
        let bytesPerPacket = Int(inputFormat.bytesPerPacket)
        for i in 0..<count {
            let start: Int, size: Int, frames: Int?
            if let descriptions {
                start = Int(descriptions[i].startOffset)
                size = Int(descriptions[i].dataByteSize)
                frames = decodedFrames(descriptions[i])
            } else {
                (start, size, frames) = (i * bytesPerPacket, bytesPerPacket, nil)
            }
            // Packets of several blocks (or of more frames than usual) may not all fit: the rest
            // are decoded by the next call (after at least one packet that is kept).
            if i > dropping && output.framesFree < max(frames ?? 0, maximumFramesPerPacket) { return i }
            let mark = output.frameLength
            let packet = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)])
            if i < dropping {
                do { try decoder.decode(packet: packet, frames: frames, into: output) } catch where error.code == .badData {}
                output.frameLength = mark
            } else {
                try decodeConcealing(packet, frames, into: output)
            }
        }
        return count
    }

    @inline(__always)
    @discardableResult
    private func decodeConcealing(_ packet: UnsafeRawBufferPointer, _ frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        let mark = buffer.frameLength
        do {
            return try decoder.decode(packet: packet, frames: frames, into: buffer)
        } catch where error.code == .badData {
            badPackets += 1
            lastConcealment = error
            return buffer.frameLength - mark
        }
    }
}
