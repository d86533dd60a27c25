public import AudioCodecs
public import ExtendedAudioFileServices
public import AudioFileServices
import AudioCore

/// A failure of the decode test support itself.
public struct DecodeSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension PCMBuffer {
    /// Appends the buffer's frames, interleaved Float32 (its format must be), to `samples`.
    public func appendFloats(to samples: inout [Float]) {
        let count = frameLength * Int(format.channelsPerFrame)
        guard count > 0, let base = region(0).baseAddress else { return }
        samples += UnsafeBufferPointer(start: base.assumingMemoryBound(to: Float.self), count: count)
    }
}

/// Every frame of `reader` as interleaved Float32, `chunk` frames a read: what afconvert's
/// decode writes. At `sampleRate` with `channels` (nil: the file's, `fileDataFormat`; a caller
/// wanting what the decoder gives, HE-AAC's doubled rate or PS's two channels, passes
/// `decodedFormat`'s).
public func readAllFloat(_ reader: ExtAudioFile, sampleRate: Double? = nil, channels: UInt32? = nil, chunk: Int = 1000) throws -> [Float] {
    let format = reader.fileDataFormat
    let client = AudioStreamBasicDescription.linearPCM(
        sampleRate: sampleRate ?? format.sampleRate, channels: channels ?? format.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    try reader.setClientDataFormat(client)
    guard let buffer = PCMBuffer(format: client, frameCapacity: chunk) else {
        throw DecodeSupportError("no buffer of \(chunk) frames of \(client)")
    }
    var samples: [Float] = []
    while true {
        buffer.frameLength = 0
        if try reader.read(into: buffer, frameCount: chunk) == 0 { break }
        buffer.appendFloats(to: &samples)
    }
    return samples
}

/// Every packet of `file` through `decoder` (made for the file by the caller), each with its
/// packet description's frames, after `reset()`: the decoder's output per packet, untrimmed.
public func decodeEachPacket(_ file: AudioFile, with decoder: any AudioDecoder) throws -> [[Float]] {
    decoder.reset()
    let all = try file.readPackets(from: 0, count: Int(file.packetCount))
    guard let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: decoder.maximumFramesPerPacket) else { return [] }
    var out: [[Float]] = []
    try all.data.withUnsafeBytes { bytes in
        for d in all.descriptions ?? [] {
            buffer.frameLength = 0
            let packet = UnsafeRawBufferPointer(rebasing: bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
            _ = try decoder.decode(packet: packet, frames: d.variableFramesInPacket > 0 ? Int(d.variableFramesInPacket) : nil, into: buffer)
            var samples: [Float] = []
            buffer.appendFloats(to: &samples)
            out.append(samples)
        }
    }
    return out
}

/// The output of ``decodeEachPacket(_:with:)`` back to back, trimmed by the file's packet table
/// (its priming frames dropped, its valid frames kept), as a reader trims it.
public func decodeTrimmed(_ file: AudioFile, with decoder: any AudioDecoder) throws -> [Float] {
    let channels = Int(decoder.outputFormat.channelsPerFrame)
    let whole = try decodeEachPacket(file, with: decoder).flatMap { $0 }
    guard let table = file.packetTableInfo else { return whole }
    let start = min(whole.count, Int(table.primingFrames) * channels)
    let end = min(whole.count, start + Int(table.numberValidFrames) * channels)
    return Array(whole[start..<end])
}
