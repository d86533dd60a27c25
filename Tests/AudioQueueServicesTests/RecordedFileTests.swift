import Foundation
import Testing
import Synchronization
import AudioCore
import AudioFileServices
import AudioQueueServices

/// An input queue records a music-like signal in a compressed format, the input callback
/// writes the packets to a file as the guide's does, and ffmpeg decodes the file: the decode is
/// the signal, within what the format loses.
@Suite("Recorded files decode in ffmpeg")
struct RecordedFileTests {
    struct Case: Sendable, CustomStringConvertible {
        let type: AudioFileType
        let format: AudioStreamBasicDescription
        let minimumSNR: Double
        var description: String { "\(type) \(format.formatID) \(format.channelsPerFrame) ch \(Int(format.sampleRate)) Hz" }
    }

    static func ima4(_ channels: UInt32, _ rate: Double) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 34 * channels, framesPerPacket: 64, bytesPerFrame: 0,
            channelsPerFrame: channels, bitsPerChannel: 0)
    }

    static func g711(_ id: AudioFormatID, _ channels: UInt32, _ rate: Double) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: id, bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels,
            channelsPerFrame: channels, bitsPerChannel: 8)
    }

    static let cases: [Case] = [
        Case(type: .caf, format: ima4(2, 44100), minimumSNR: 30),
        Case(type: .aifc, format: ima4(2, 44100), minimumSNR: 30),
        Case(type: .caf, format: ima4(1, 22050), minimumSNR: 30),
        Case(type: .wave, format: g711(.uLaw, 1, 8000), minimumSNR: 35),
        Case(type: .aifc, format: g711(.uLaw, 2, 44100), minimumSNR: 35),
        Case(type: .caf, format: g711(.aLaw, 2, 44100), minimumSNR: 35),
    ]

    @Test(arguments: cases)
    func recordedFileDecodesToTheSignal(_ c: Case) throws {
        let rate = c.format.sampleRate
        let channels = Int(c.format.channelsPerFrame)
        let signal = TestInputDevice.musicLike(sampleRate: rate)
        let device = TestInputDevice(sampleRate: rate, channels: channels, signal: signal)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("aq-recorded-\(getpid())-\(c.type)-\(c.format.formatID)-\(channels)-\(Int(rate))").path
        defer { unlink(path) }

        let writer = PacketWriter()
        let queue = try AudioInputQueue(format: c.format, device: device) { queue, buffer, _, packets, descriptions in
            writer.write(buffer, packets: packets, descriptions: descriptions)
            try? queue.enqueue(buffer)
        }
        writer.file = try AudioFileWriter(path: path, type: c.type, format: queue.streamDescription, flags: .eraseFile)
        // Three buffers of a second each: what is pushed below never waits for a callback.
        let bytes = Int(rate) / Int(c.format.framesPerPacket) * Int(c.format.bytesPerPacket)
        for _ in 0..<3 { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bytes)) }
        let stopped = DispatchSemaphore(value: 0)
        try queue.addPropertyListener(.isRunning) { q, _ in if !q.isRunning { stopped.signal() } }
        try queue.start()
        let frames = Int(rate * 1.5)
        device.push(frames: frames)
        try queue.stop(immediate: false)
        #expect(stopped.wait(timeout: .now() + 20) == .success)
        try queue.dispose(immediate: true)
        try #require(writer.failure == nil, "\(String(describing: writer.failure))")
        try writer.file?.close()

        // ffmpeg's decode of the file, against the signal.
        let ffmpeg = try #require(["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let raw = path + ".f32"
        defer { unlink(raw) }
        let r = try runProcess(ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", "-c:a", "pcm_f32le", raw])
        try #require(r.status == 0, "ffmpeg cannot decode \(c): \(r.err)")
        let decoded = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Whole packets: IMA4's last one is completed with silence.
        let packetFrames = Int(c.format.framesPerPacket)
        let expectedFrames = (frames + packetFrames - 1) / packetFrames * packetFrames
        #expect(decoded.count == expectedFrames * channels, "\(decoded.count / channels) frames decoded, \(expectedFrames) recorded")
        var signalPower = 0.0, noisePower = 0.0
        for f in 0..<min(frames, decoded.count / channels) {
            for ch in 0..<channels {
                let x = Double(signal(Int64(f), ch))
                let e = Double(decoded[f * channels + ch]) - x
                signalPower += x * x
                noisePower += e * e
            }
        }
        let snr = 10 * log10(signalPower / max(noisePower, 1e-30))
        #expect(snr >= c.minimumSNR, "\(c): SNR \(snr) dB")
    }
}

/// The guide's input callback's writing half: each buffer's packets go to the file after the
/// ones before. Used on the callback queue only.
final class PacketWriter: @unchecked Sendable {
    var file: AudioFileWriter?
    private var packet: Int64 = 0
    private(set) var failure: AudioFileError?

    func write(_ buffer: AudioQueueBuffer, packets: Int, descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?) {
        guard let file, packets > 0 else { return }
        do throws(AudioFileError) {
            let written = try file.writePackets(
                startingPacket: packet, bytes: UnsafeRawBufferPointer(buffer.validData), descriptions: descriptions, packetCount: packets)
            packet += Int64(written)
        } catch {
            failure = error
        }
    }
}
