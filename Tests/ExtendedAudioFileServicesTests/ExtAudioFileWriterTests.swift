import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioConverterServices
import AudioFileServices
import ExtendedAudioFileServices
import ProcessSupport
import AudioCodecAVCodec
import AudioCodecFAAD

/// A 1.5 s stereo Float32 WAVE that ffmpeg makes (two tones and noise, peaks near full scale),
/// the source the writer tests convert; made once per process.
let writerSource: String = {
    let path = temporaryPath("writer-source.wav")
    _ = try? run(ffmpeg ?? "/usr/bin/ffmpeg", [
        "-v", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=0.6*sin(2*PI*440*t)+0.3*sin(2*PI*3000*t)+0.05*(random(0)-0.5)|0.7*sin(2*PI*660*t+1)+0.2*(random(1)-0.5):s=44100:d=1.5",
        "-c:a", "pcm_f32le", path,
    ])
    return path
}()

/// What ffmpeg writes for `arguments` applied to `input`, as raw bytes of `format` (`s16le`, …).
func ffmpegRaw(_ input: String, _ arguments: [String], format: String) throws -> [UInt8] {
    let tool = try #require(ffmpeg, "ffmpeg is needed (Scripts/test installs it)")
    let out = temporaryPath("ffmpeg-\(UUID().uuidString).raw")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try run(tool, ["-v", "error", "-y", "-i", input] + arguments + ["-f", format, out])
    #expect(result.status == 0, "\(result.err)")
    return [UInt8](FileManager.default.contents(atPath: out) ?? Data())
}

/// Reads `path` whole as interleaved Float32 at its own rate and channel count.
func readFloat(_ path: String) throws -> (frames: PCMBuffer, format: AudioStreamBasicDescription) {
    let reader = try ExtAudioFile(path: path)
    let format = AudioStreamBasicDescription.linearPCM(
        sampleRate: reader.decodedFormat.sampleRate, channels: reader.decodedFormat.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    try reader.setClientDataFormat(format)
    let buffer = try #require(PCMBuffer(format: format, frameCapacity: Int(reader.clientLengthFrames)))
    while try reader.read(into: buffer, frameCount: buffer.framesFree) > 0 {}
    return (buffer, format)
}

@Suite("ExtAudioFile writing")
struct ExtAudioFileWriterTests {
    /// Float32 client frames written to 16-bit WAVE and CAF are ffmpeg's own conversion of the
    /// source to 16 bits, byte for byte.
    @Test(arguments: [("wav", AudioFileType.wave, false), ("caf", AudioFileType.caf, true)])
    func int16FromFloatEqualsFFmpeg(ext: String, type: AudioFileType, bigEndian: Bool) throws {
        let (source, client) = try readFloat(writerSource)
        let out = temporaryPath("int16.\(ext)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isBigEndian: bigEndian)
        let writer = try ExtAudioFileWriter(path: out, type: type, format: format, flags: .eraseFile)
        try writer.setClientDataFormat(client)
        // In uneven pieces, as a program's render callback hands them.
        var at = 0
        let frameBytes = Int(client.bytesPerFrame)
        for piece in [1, 511, 4096, 3, 20000].cycled(until: source.frameLength) {
            let n = min(piece, source.frameLength - at)
            try writer.write(frameCount: n, buffers: [UnsafeRawBufferPointer(rebasing: source.region()[(at * frameBytes)..<((at + n) * frameBytes)])])
            at += n
        }
        try writer.close()
        #expect(writer.framesWritten == Int64(source.frameLength))
        let expected = try ffmpegRaw(writerSource, ["-c:a", bigEndian ? "pcm_s16be" : "pcm_s16le"], format: bigEndian ? "s16be" : "s16le")
        let file = try AudioFile(path: out)
        #expect(file.totalFrames == Int64(source.frameLength))
        let written = try file.readBytes(at: 0, count: Int(file.dataByteCount))
        #expect(written.count == expected.count)
        #expect(firstDifference(written, expected) == nil)
    }

    /// G.711 written through the converter from 16-bit client frames decodes in ffmpeg to what
    /// ffmpeg's own encoder (which takes 16-bit samples) writes: the same level for nearly every
    /// sample, a neighbouring one for the rest (ffmpeg's tables put the decision values at a
    /// segment's edge a step away from G.711's: see G711EncodeTests).
    @Test(arguments: [("ulaw", AudioFormatID.uLaw, "pcm_mulaw"), ("alaw", AudioFormatID.aLaw, "pcm_alaw")])
    func g711EqualsFFmpegEncoder(name: String, id: AudioFormatID, codec: String) throws {
        let reader = try ExtAudioFile(path: writerSource)
        let client = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        try reader.setClientDataFormat(client)
        let source = try #require(PCMBuffer(format: client, frameCapacity: Int(reader.clientLengthFrames)))
        while try reader.read(into: source, frameCount: source.framesFree) > 0 {}
        let out = temporaryPath("\(name).caf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let format = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: id, bytesPerPacket: 2, framesPerPacket: 1, bytesPerFrame: 2, channelsPerFrame: 2, bitsPerChannel: 8)
        let writer = try ExtAudioFileWriter(path: out, type: .caf, format: format, flags: .eraseFile)
        try writer.setClientDataFormat(client)
        try writer.write(source)
        try writer.close()
        let ours = try ffmpegRaw(out, ["-c:a", "pcm_s16le"], format: "s16le")
        let reference = temporaryPath("\(name)-ref.caf")
        defer { try? FileManager.default.removeItem(atPath: reference) }
        _ = try ffmpegRaw(writerSource, ["-c:a", codec], format: "caf").withUnsafeBytes {
            FileManager.default.createFile(atPath: reference, contents: Data($0))
        }
        let theirs = try ffmpegRaw(reference, ["-c:a", "pcm_s16le"], format: "s16le")
        #expect(ours.count == source.frameLength * 4)
        #expect(ours.count == theirs.count)
        var differing = 0
        for i in stride(from: 0, to: min(ours.count, theirs.count) - 1, by: 2) {
            let a = Int(Int16(bitPattern: UInt16(ours[i]) | UInt16(ours[i + 1]) << 8))
            let b = Int(Int16(bitPattern: UInt16(theirs[i]) | UInt16(theirs[i + 1]) << 8))
            guard a != b else { continue }
            differing += 1
            // One level apart: a step is at most 1/16 of the magnitude (plus the smallest step).
            #expect(abs(a - b) <= max(abs(b), abs(a)) / 8 + 16, "sample \(i / 2): \(a) and \(b)")
        }
        #expect(differing * 20 < ours.count / 2, "\(differing) of \(ours.count / 2) samples differ")
    }

    /// IMA4 in CAF: the packet table says the frames that complete the last packet, so the
    /// file reads back as exactly the frames written; ffmpeg decodes every packet.
    @Test func ima4KeepsTheLength() throws {
        let (source, client) = try readFloat(writerSource)
        let out = temporaryPath("ima4.caf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let format = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .appleIMA4, bytesPerPacket: 68, framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let writer = try ExtAudioFileWriter(path: out, type: .caf, format: format, flags: .eraseFile)
        try writer.setClientDataFormat(client)
        try writer.write(source)
        try writer.close()
        let packets = (source.frameLength + 63) / 64
        let file = try AudioFile(path: out)
        #expect(file.packetCount == Int64(packets))
        let table = try #require(file.packetTableInfo)
        #expect(table.numberValidFrames == Int64(source.frameLength))
        #expect(Int(table.remainderFrames) == packets * 64 - source.frameLength)
        let decoded = try ffmpegRaw(out, ["-c:a", "pcm_s16le"], format: "s16le")
        #expect(decoded.count >= source.frameLength * 4)
        #expect(try readFloat(out).frames.frameLength == source.frameLength)
    }

    /// Asynchronous writes (primed by a call of no frames) leave the same file as synchronous ones.
    @Test func asyncWritesEqualSynchronousOnes() throws {
        let (source, client) = try readFloat(writerSource)
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 24)
        var files: [[UInt8]] = []
        for async in [false, true] {
            let out = temporaryPath("async-\(async).wav")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let writer = try ExtAudioFileWriter(path: out, type: .wave, format: format, flags: .eraseFile)
            try writer.setClientDataFormat(client)
            if async { try writer.writeAsync(frameCount: 0, buffers: []) }
            let frameBytes = Int(client.bytesPerFrame)
            var at = 0
            while at < source.frameLength {
                let n = min(1000, source.frameLength - at)
                let piece = [UnsafeRawBufferPointer(rebasing: source.region()[(at * frameBytes)..<((at + n) * frameBytes)])]
                if async { try writer.writeAsync(frameCount: n, buffers: piece) } else { try writer.write(frameCount: n, buffers: piece) }
                at += n
            }
            try writer.close()
            files.append([UInt8](FileManager.default.contents(atPath: out) ?? Data()))
        }
        #expect(files[0].count > source.frameLength * 6)
        #expect(firstDifference(files[0], files[1]) == nil)
    }

    /// A writer wrapped around a file the caller created writes into it and leaves it open.
    @Test func wrappingLeavesTheFileOpen() throws {
        let (source, client) = try readFloat(writerSource)
        let out = temporaryPath("wrapped.caf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let file = try AudioFileWriter(path: out, type: .caf, format: client, flags: .eraseFile)
        let writer = try ExtAudioFileWriter(wrapping: file)
        #expect(writer.clientDataFormat == client)
        try writer.write(source)
        try writer.close()
        #expect(file.isOpen)
        #expect(file.totalFrames == Int64(source.frameLength))
        try file.close()
    }

    /// Misuse: non-PCM client formats, writes before an encoded file's client format, and
    /// writes after close fail with ExtAudioFile's codes.
    @Test func misuse() throws {
        let out = temporaryPath("misuse.caf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let ima4 = AudioStreamBasicDescription(
            sampleRate: 8000, formatID: .appleIMA4, bytesPerPacket: 34, framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0)
        let writer = try ExtAudioFileWriter(path: out, type: .caf, format: ima4, flags: .eraseFile)
        let bytes = [UInt8](repeating: 0, count: 256)
        try bytes.withUnsafeBytes { raw in
            #expect(throws: ExtAudioFileError.self) { try writer.write(frameCount: 64, buffers: [raw]) }
            #expect { try writer.setClientDataFormat(ima4) } throws: { ($0 as? ExtAudioFileError)?.code == .nonPCMClientFormat }
            try writer.setClientDataFormat(.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16))
            #expect { try writer.write(frameCount: 129, buffers: [raw]) } throws: { ($0 as? ExtAudioFileError) != nil }
            try writer.write(frameCount: 128, buffers: [raw])
            try writer.close()
            #expect { try writer.write(frameCount: 1, buffers: [raw]) } throws: { ($0 as? ExtAudioFileError)?.code == .invalidOperationOrder }
        }
    }
}

/// The first index where `a` and `b` differ (in length or content); nil when they are equal.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) { return i }
    return a.count == b.count ? nil : min(a.count, b.count)
}

extension Array where Element == Int {
    /// The pieces repeated until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var out: [Int] = []
        var sum = 0
        while sum < total {
            for n in self where sum < total {
                out.append(n)
                sum += n
            }
        }
        return out
    }
}

/// AAC through ExtAudioFileWriter (the encoder registered by AudioQueueKit's codec module).
@Suite("ExtAudioFile writing AAC")
struct ExtAudioFileAACWriterTests {
    init() {
        AACEncoder.register()
        AACDecoder.register()
    }

    /// An AAC file closed before any frame was written closes cleanly: no packets, no packet
    /// table, and it opens.
    @Test(arguments: ["caff", "m4af"])
    func emptyAACFileCloses(type: String) throws {
        let out = temporaryPath("empty-aac-\(type)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let format = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let writer = try ExtAudioFileWriter(path: out, type: AudioFileType(rawValue: FourCharCode(type).rawValue), format: format, flags: .eraseFile)
        try writer.setClientDataFormat(.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true))
        try writer.close()
        #expect(!writer.file.isOpen)
        #expect(try AudioFile(path: out).packetCount == 0)
    }

    /// CAF, M4A and ADTS: ffprobe reads AAC-LC; CAF and M4A record 2112 priming frames and the
    /// remainder, so the file reads back as exactly the frames written and its ends join: the
    /// first and last 2048 frames are as close to the source as the middle (no gap, no shift),
    /// as a loop (QA1636) needs.
    @Test(arguments: [("caf", "caff"), ("m4a", "m4af"), ("aac", "adts")])
    func aacFilesLoopGaplessly(ext: String, type: String) throws {
        let (source, client) = try readFloat(writerSource)
        let out = temporaryPath("aac.\(ext)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let format = AudioStreamBasicDescription(
            sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
        let writer = try ExtAudioFileWriter(path: out, type: AudioFileType(rawValue: FourCharCode(type).rawValue), format: format, flags: .eraseFile)
        try writer.setClientDataFormat(client)
        try writer.converter?.setEncodeBitRate(192_000)
        try writer.write(source)
        try writer.close()
        let tool = try #require(ffmpeg)
        let probe = try run(tool.replacingOccurrences(of: "ffmpeg", with: "ffprobe"), [
            "-v", "error", "-count_packets", "-show_entries", "stream=codec_name,profile,nb_read_packets", "-of", "csv=p=0", out,
        ])
        let packets = (2112 + source.frameLength + 1023) / 1024
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "aac,LC,\(packets)", "\(probe.out)\(probe.err)")
        let file = try AudioFile(path: out)
        #expect(file.packetCount == Int64(packets))
        guard type != "adts" else { return }  // ADTS has no packet table: it reads with the priming
        let table = try #require(file.packetTableInfo)
        #expect(table.primingFrames == 2112)
        #expect(table.numberValidFrames == Int64(source.frameLength))
        let decoded = try readFloat(out).frames
        #expect(decoded.frameLength == source.frameLength)
        let a = source.region().baseAddress!.assumingMemoryBound(to: Float.self)
        let b = decoded.region().baseAddress!.assumingMemoryBound(to: Float.self)
        func snr(_ from: Int, _ count: Int) -> Double {
            var signal = 0.0, noise = 0.0
            for i in (from * 2)..<((from + count) * 2) {
                signal += Double(a[i]) * Double(a[i])
                noise += Double(a[i] - b[i]) * Double(a[i] - b[i])
            }
            return 10 * log10(signal / max(noise, 1e-30))
        }
        let n = min(decoded.frameLength, source.frameLength)
        let middle = snr(n / 2, 2048), head = snr(0, 2048), tail = snr(n - 2048, 2048)
        #expect(middle > 15, "\(middle) dB in the middle")
        #expect(head > middle - 6 && tail > middle - 6, "ends \(head) and \(tail) dB, middle \(middle) dB")
    }
}
