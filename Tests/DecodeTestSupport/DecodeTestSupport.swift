public import AudioCodecs
public import ExtendedAudioFileServices
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
        let region = self.region(0)
        samples.reserveCapacity(samples.count + count)
        for s in 0..<count { samples.append(region.load(fromByteOffset: 4 * s, as: Float.self)) }
    }
}

/// Every frame of `reader` as interleaved Float32 at `sampleRate` (nil: the file's rate) with
/// the file's channels, `chunk` frames a read: what afconvert's decode writes.
public func readAllFloat(_ reader: ExtAudioFile, sampleRate: Double? = nil, chunk: Int = 1000) throws -> [Float] {
    let format = reader.fileDataFormat
    let client = AudioStreamBasicDescription.linearPCM(
        sampleRate: sampleRate ?? format.sampleRate, channels: format.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
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
