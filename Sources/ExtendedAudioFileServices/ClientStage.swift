import AudioCore
import AudioCodecs
import AudioConverterServices

/// An ``ExtAudioFile``'s conversion to a client format of another sample rate or channel count:
/// the decoded, trimmed frames pass through an ``AudioConverter``, and the read position counts
/// client frames.
///
/// A seek restarts the converter where the decoded and client timelines meet exactly (for
/// integer rates A and B, every A / gcd(A, B) decoded frames), far enough before the target that
/// the sample-rate converter's filter is full of the audio before it, and reads up to the
/// target: the frames then are those a read from the start gives, to within the converter's
/// rounding.
final class ClientStage {
    let converter: AudioConverter
    /// Decoded frames, handed to the converter.
    private let staging: PCMBuffer
    /// Client frames read and discarded to reach a seek target.
    private let discard: PCMBuffer
    /// The file's length in client frames.
    let length: Int64
    /// The read position in client frames.
    private(set) var position: Int64 = 0
    private let decodedRate: Double
    private let clientRate: Double
    /// Decoded and client frames that span the same time exactly; nil where the rates have no
    /// small common period (or are equal).
    private let period: (decoded: Int64, client: Int64)?
    /// Decoded frames read before a seek target, for the filter: at least 8192, more where the
    /// sample-rate converter recommends it (256 frames of the lower rate).
    private let prerollFrames: Int64

    init(decoded: AudioStreamBasicDescription, client: AudioStreamBasicDescription, quality: SampleRateConverterQuality, fileLength: Int64)
        throws(AudioCodecError)
    {
        converter = try AudioConverter(from: decoded, to: client)
        converter.sampleRateConverterQuality = quality
        guard let staging = PCMBuffer(format: decoded, frameCapacity: 8192),
              let discard = PCMBuffer(format: client, frameCapacity: 8192) else {
            throw AudioCodecError(.formatNotSupported, "cannot hold frames of \(decoded) or \(client)")
        }
        self.staging = staging
        self.discard = discard
        decodedRate = decoded.sampleRate
        clientRate = client.sampleRate
        prerollFrames = Int64(max(8192, SampleRateConverter.recommendedPreRoll(inputRate: decoded.sampleRate, outputRate: client.sampleRate)))
        if decodedRate == clientRate {
            length = fileLength
            period = (1, 1)
        } else {
            length = Int64((Double(fileLength) * clientRate / decodedRate).rounded())
            // A common period of more than 2^20 decoded frames is too coarse to restart on.
            period = SampleRateConverter.alignment(inputRate: decodedRate, outputRate: clientRate).flatMap {
                $0.inputFrames <= 1 << 20 ? (Int64($0.inputFrames), Int64($0.outputFrames)) : nil
            }
        }
    }

    func release() { converter.reset() }

    /// Restarts the conversion for a seek to client frame `frame`: returns the decoded frame to
    /// read from and the client frame it starts.
    func restart(for frame: Int64) -> (decodedFrame: Int64, clientFrame: Int64) {
        converter.reset()
        let start: (Int64, Int64)
        if decodedRate == clientRate {
            start = (frame, frame)
        } else if let period {
            let blocks = max(0, frame / period.client - (prerollFrames + period.decoded - 1) / period.decoded)
            start = (blocks * period.decoded, blocks * period.client)
        } else {
            // No common period: the nearest client frame at or before the pre-roll.
            let decoded = max(0, Int64((Double(frame) * decodedRate / clientRate).rounded(.down)) - prerollFrames)
            start = (decoded, min(frame, Int64((Double(decoded) * clientRate / decodedRate).rounded())))
        }
        position = start.1
        return start
    }

    /// Reads up to `frameCount` client frames into `buffer`, pulling decoded frames from `source`.
    func read(
        into buffer: PCMBuffer, frameCount: Int, source: (PCMBuffer, Int) throws(ExtAudioFileError) -> Int
    ) throws(ExtAudioFileError) -> Int {
        let wanted = Int(min(Int64(min(frameCount, buffer.framesFree)), max(0, length - position)))
        guard wanted > 0 else { return 0 }
        let outputs = (0..<buffer.regionCount).map { buffer.freeSpace($0) }
        var failure: ExtAudioFileError?
        let staging = self.staging
        let result: AudioConverterFillResult
        do throws(AudioCodecError) {
            result = try converter.fill(AudioConverterOutput(buffers: outputs, packetCapacity: wanted)) { packets throws(AudioCodecError) in
                staging.frameLength = 0
                let n: Int
                do throws(ExtAudioFileError) {
                    n = try source(staging, min(max(packets, 1), staging.frameCapacity))
                } catch {
                    failure = error
                    throw AudioCodecError(.unspecified, "reading the file failed")
                }
                guard n > 0 else { return nil }
                let regions = (0..<staging.regionCount).map { UnsafeRawBufferPointer(staging.region($0)) }
                return AudioConverterInputData(buffers: regions, packetCount: n)
            }
        } catch {
            throw .codec(error)
        }
        buffer.frameLength += result.packetCount
        position += Int64(result.packetCount)
        if let failure { throw failure }
        return result.packetCount
    }

    /// Reads and drops `frames` client frames.
    func skip(_ frames: Int64, source: (PCMBuffer, Int) throws(ExtAudioFileError) -> Int) throws(ExtAudioFileError) {
        var left = frames
        while left > 0 {
            discard.frameLength = 0
            let n = try read(into: discard, frameCount: Int(min(left, Int64(discard.frameCapacity))), source: source)
            if n == 0 { break }
            left -= Int64(n)
        }
    }
}
