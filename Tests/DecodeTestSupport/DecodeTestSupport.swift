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
