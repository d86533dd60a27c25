public import AudioCore
import Synchronization

/// Turns interleaved Float32 PCM into packets of one format (temporary minimal seam).
public protocol AudioEncoder: AnyObject {
    /// Makes an encoder from `input` (interleaved native-endian Float32) to `output`.
    init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError)
    /// The PCM format taken.
    var inputFormat: AudioStreamBasicDescription { get }
    /// The complete output format.
    var outputFormat: AudioStreamBasicDescription { get }
    /// Frames in one packet.
    var framesPerPacket: Int { get }
    /// The largest packet, in bytes.
    var maximumPacketSize: Int { get }
    /// The format's magic cookie, if it has one.
    var magicCookie: [UInt8]? { get }
    /// Encodes `frameCount` frames (whole packets) into `output`.
    func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int)
    /// Forgets state carried between packets.
    func reset()
}

/// Makes encoders by format ID.
public enum AudioEncoders {
    /// Builds an encoder.
    public typealias Factory = @Sendable (AudioStreamBasicDescription, AudioStreamBasicDescription) throws(AudioCodecError) -> any AudioEncoder
    private static let table = Mutex<[AudioFormatID: Factory]>([
        .linearPCM: { i, o throws(AudioCodecError) in try PCMEncoder(input: i, output: o) },
    ])

    /// An encoder from `input` to `output`.
    public static func make(from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription) throws(AudioCodecError) -> any AudioEncoder {
        guard let f = table.withLock({ $0[output.formatID] }) else {
            throw AudioCodecError(.formatNotSupported, "no encoder for '\(output.formatID)'")
        }
        return try f(input, output)
    }
}

/// Linear PCM out.
public final class PCMEncoder: AudioEncoder {
    public let inputFormat: AudioStreamBasicDescription
    public let outputFormat: AudioStreamBasicDescription
    private let converter: PCMConverter
    public var framesPerPacket: Int { 1 }
    public var maximumPacketSize: Int { Int(outputFormat.bytesPerPacket) }
    public var magicCookie: [UInt8]? { nil }

    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        inputFormat = input
        outputFormat = output
        converter = try PCMConverter(from: input, to: output)
    }

    public func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int) {
        try converter.convert(input, frameCount: frameCount, into: output)
        return (frameCount, frameCount * Int(outputFormat.bytesPerFrame) * (outputFormat.isInterleaved ? 1 : Int(outputFormat.channelsPerFrame)))
    }

    public func reset() {}
}
