import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import AudioCodecMPG123
import ExtendedAudioFileServices

/// Fixtures of every compressed format readAll splits, by directory and name.
enum Pieces {
    static func path(_ relative: String) -> String { Fixtures.root.appendingPathComponent(relative).path }

    static let fixtures = [
        "valid/adts-aac-2ch-44100.aac", "valid/adts-aac-6ch-48000.aac", "valid/adts-aac-1ch-8000.aac",
        "mp4/aac-2ch-44100.m4a", "mp4/aac-1ch-22050.mp4", "mp4/aac-2ch-44100-frag.m4a", "valid/caf-aac-2ch-48000.caf",
        "mp3/cbr-128k-2ch-44100.mp3", "mp3/vbr-q4-2ch-44100.mp3", "mp3/mpeg2-32k-1ch-22050.mp3", "mp3/layer2-2ch-48000.mp2",
        "alac/alac-2ch-44100-s16-tone.caf", "alac/alac-6ch-48000-s24-tone.caf", "mp4/alac-16-6ch-44100.m4a",
        "valid/caf-adpcm_ima_qt-2ch-44100.caf", "valid/aifc-adpcm_ima_qt-2ch-44100.aifc",
    ]

    static func register() {
        AACDecoder.register()
        MP3Decoder.register()
    }

    static func open(_ path: String, int16: Bool) throws -> ExtAudioFile {
        register()
        let reader = try ExtAudioFile(path: path)
        if int16 {
            let d = reader.decodedFormat
            try reader.setClientDataFormat(.linearPCM(sampleRate: d.sampleRate, channels: d.channelsPerFrame, bitsPerChannel: 16))
        }
        return reader
    }

    /// The single-threaded read: `read(into:frameCount:)` 4096 frames at a time to the end.
    static func serial(_ reader: ExtAudioFile) throws -> [UInt8] {
        let buffer = try #require(PCMBuffer(format: reader.clientDataFormat, frameCapacity: 4096))
        var bytes: [UInt8] = []
        while true {
            buffer.frameLength = 0
            guard try reader.read(into: buffer, frameCount: 4096) > 0 else { return bytes }
            bytes += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength])
        }
    }

    /// `readAll` on `threads` threads in pieces of `piece` packets.
    static func parallel(_ reader: ExtAudioFile, threads: Int, piece: Int?) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let frames = try reader.readAll(maximumThreads: threads, packetsPerPiece: piece) { buffer in
            bytes += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength])
            return true
        }
        #expect(Int(frames) * Int(reader.clientDataFormat.bytesPerFrame) == bytes.count)
        return bytes
    }

    /// Where two decodes first differ (a frame index and the lengths), nil when they are equal;
    /// compared by hand, as a collection difference of megabytes would take hours.
    static func mismatch(_ got: [UInt8], _ expected: [UInt8], frameBytes: Int) -> String? {
        if got == expected { return nil }
        let first = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
        return "first difference at frame \(first / max(frameBytes, 1)); \(got.count) bytes against \(expected.count)"
    }

    /// A file made by ffmpeg in a temporary directory; without ffmpeg, a failure.
    static func generated(_ name: String, _ arguments: [String]) throws -> String {
        let ffmpeg = try #require(ffmpeg, "ffmpeg is not installed (Scripts/test installs it)")
        let out = temporaryPath(name)
        if !FileManager.default.fileExists(atPath: out) {
            let result = try run(ffmpeg, ["-v", "error", "-y"] + arguments + [out])
            try #require(result.status == 0, "\(result.err)")
        }
        return out
    }

    /// 40 seconds of stereo pink noise with a tone (the benchmark's kind of signal, whose AAC
    /// uses perceptual noise substitution), in the format `codec` makes.
    static func long(_ name: String, codec: [String]) throws -> String {
        try generated(name, [
            "-f", "lavfi", "-i", "anoisesrc=c=pink:d=40:r=44100:a=0.3:s=7", "-f", "lavfi", "-i", "sine=f=440:d=40:r=44100",
            "-filter_complex", "[0][1]amix=inputs=2,aformat=channel_layouts=stereo", "-ac", "2",
        ] + codec)
    }
}

@Suite("ExtAudioFile.readAll")
struct ReadAllTests {
    /// For every compressed fixture, the pieces joined are byte for byte the single-threaded
    /// read, in the decoder's format and converted to 16 bits, for several thread counts and
    /// piece sizes (1 packet included).
    @Test(arguments: Pieces.fixtures)
    func equalsSerialRead(fixture: String) throws {
        let path = Pieces.path(fixture)
        for int16 in [false, true] {
            let reader = try Pieces.open(path, int16: int16)
            let frameBytes = Int(reader.clientDataFormat.bytesPerFrame)
            let expected = try Pieces.serial(reader)
            #expect(!expected.isEmpty)
            for (threads, piece) in [(2, 1), (3, 7), (4, 1), (2, nil), (8, 3), (2, Int.max)] as [(Int, Int?)] {
                let got = try Pieces.parallel(Pieces.open(path, int16: int16), threads: threads, piece: piece)
                #expect(Pieces.mismatch(got, expected, frameBytes: frameBytes) == nil, "\(fixture): \(threads) threads, pieces of \(piece.map(String.init) ?? "default") packets, int16 \(int16)")
            }
        }
    }

    /// Long files: AAC in ADTS and in M4A (40 s: more than three reset intervals, with noise
    /// substitution), and MP3; whole-file pieces by default and small ones.
    @Test(arguments: [
        ("long.aac", ["-c:a", "aac", "-b:a", "128k", "-f", "adts"]),
        ("long.m4a", ["-c:a", "aac", "-b:a", "96k"]),
        ("long.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]),
    ])
    func longFileEqualsSerialRead(name: String, codec: [String]) throws {
        let path = try Pieces.long(name, codec: codec)
        let expected = try Pieces.serial(Pieces.open(path, int16: true))
        #expect(expected.count > 6_000_000)
        for (threads, piece) in [(2, nil), (3, 100), (2, 513)] as [(Int, Int?)] {
            let got = try Pieces.parallel(Pieces.open(path, int16: true), threads: threads, piece: piece)
            #expect(Pieces.mismatch(got, expected, frameBytes: 4) == nil, "\(name): \(threads) threads, pieces of \(piece.map(String.init) ?? "default") packets")
        }
    }

    /// After a seek, readAll delivers what reading on would; stopped by its body, the read
    /// position is just after the frames handed out and reading on continues seamlessly.
    @Test(arguments: ["valid/adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3", "alac/alac-2ch-44100-s16-tone.caf"])
    func seekAndStop(fixture: String) throws {
        let path = Pieces.path(fixture)
        let whole = try Pieces.serial(Pieces.open(path, int16: true))
        let reader = try Pieces.open(path, int16: true)
        let frameBytes = Int(reader.clientDataFormat.bytesPerFrame)
        let start = Int64(whole.count / frameBytes / 3 + 17)
        try reader.seek(toFrame: start)
        let rest = try Pieces.parallel(reader, threads: 3, piece: 2)
        #expect(Pieces.mismatch(rest, Array(whole[(Int(start) * frameBytes)...]), frameBytes: frameBytes) == nil)
        #expect(reader.tell() == Int64(whole.count / frameBytes))

        let stopping = try Pieces.open(path, int16: true)
        var first: [UInt8] = []
        let handed = try stopping.readAll(maximumThreads: 2, packetsPerPiece: 3) { buffer in
            first += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength])
            return false
        }
        #expect(handed > 0 && stopping.tell() == handed)
        let after = try Pieces.serial(stopping)
        #expect(Pieces.mismatch(first + after, whole, frameBytes: frameBytes) == nil)
    }

    /// A file cut short after it was opened: readAll throws the single-threaded read's error
    /// (a file error with the same result code), whatever the pieces.
    @Test(arguments: ["valid/adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3"])
    func errorInAPieceIsTheSerialError(fixture: String) throws {
        let copy = temporaryPath("cut-" + fixture.replacingOccurrences(of: "/", with: "-"))
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let data = try Data(contentsOf: URL(fileURLWithPath: Pieces.path(fixture)))
        func cutReader() throws -> ExtAudioFile {
            try data.write(to: URL(fileURLWithPath: copy))
            let reader = try Pieces.open(copy, int16: false)
            try #require(truncate(copy, off_t(data.count / 2)) == 0)
            return reader
        }
        var serialError: ExtAudioFileError?
        do { _ = try Pieces.serial(cutReader()) } catch let error as ExtAudioFileError { serialError = error }
        let expected = try #require(serialError, "reading a file cut short must fail")
        guard let expectedFile = expected.fileError else {
            Issue.record("expected a file error, got \(expected)")
            return
        }
        for (threads, piece) in [(2, 1), (3, 5), (2, nil)] as [(Int, Int?)] {
            var parallelError: ExtAudioFileError?
            do { _ = try Pieces.parallel(cutReader(), threads: threads, piece: piece) } catch let error as ExtAudioFileError { parallelError = error }
            guard let got = parallelError?.fileError else {
                Issue.record("\(threads) threads, pieces of \(piece ?? 0): expected a file error, got \(String(describing: parallelError))")
                continue
            }
            #expect(got.code == expectedFile.code)
            #expect(parallelError?.status == expected.status)
        }
    }

    /// Damaged files (the malformed fixtures and the fuzz regressions) that open for decoding
    /// end alike read on one thread and in pieces of one packet on several: the same bytes and
    /// count of concealed packets, or the same error.
    @Test func damagedFilesEndAlike() throws {
        var opened = 0
        for directory in ["malformed", "fuzz-regressions", "mp3"] {
            let folder = Fixtures.root.appendingPathComponent(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where !name.hasSuffix(".json") && !name.hasSuffix(".framecrc") && !name.hasSuffix(".txt") {
                let path = folder.appendingPathComponent(name).path
                guard (try? Pieces.open(path, int16: false)) != nil else { continue }
                opened += 1
                func outcome(threads: Int) -> String {
                    do {
                        let reader = try Pieces.open(path, int16: false)
                        let bytes = threads == 1 ? try Pieces.serial(reader) : try Pieces.parallel(reader, threads: threads, piece: 1)
                        return "\(bytes.count) bytes, Adler-32 \(adler32(bytes[...])), \(reader.badPackets) concealed"
                    } catch let error as ExtAudioFileError {
                        return "error \(error.status)"
                    } catch {
                        return "\(error)"
                    }
                }
                #expect(outcome(threads: 3) == outcome(threads: 1), "\(directory)/\(name)")
            }
        }
        #expect(opened > 10)
    }
}
