import Foundation
import Testing
import AudioCore
import AudioFileServices
import AudioTestSupport
import HTTPTestSupport
import ProcessSupport

/// aqplay playing streams through Audio File Stream Services, rendering offline: standard input
/// and HTTP (as it is, chunked, with ICY metadata, cut short) give exactly the WAVE file the
/// same file gives when aqplay reads it as a file.
@Suite("aqplay streams")
struct AqplayStreamTests {
    /// One file of each container the stream parser reads.
    static let sources = [
        "valid/adts-aac-2ch-44100.aac", "valid/adts-aac-1ch-44100-id3v23.aac", "valid/adts-aac-1ch-44100-junk.aac", "mp3/cbr-128k-2ch-44100.mp3",
        "mp3/junk-2ch-44100.mp3", "mp3/ape-2ch-44100.mp3",
        "mp3/vbr-q4-2ch-44100.mp3", "mp3/id3v24-id3v1-1ch-44100.mp3", "valid/caf-aac-2ch-48000.caf",
        "valid/caf-pcm_s16le-1ch-11025.caf", "valid/wav-pcm_s16le-2ch-44100.wav", "valid/wav-pcm_f32le-6ch-44100.wav",
        "valid/aiff-pcm_s16be-2ch-44100.aiff", "valid/aifc-pcm_f32be-2ch-44100.aifc", "mp4/aac-2ch-44100-faststart.m4a",
        "mp4/built-itunsmpb-2ch-44100.m4a", "flac/flac-2ch-44100-s16.flac", "flac/flac-2ch-44100-s16-variable.flac",
        "ac3/ac3-6ch-48000.ac3", "ac3/eac3-2ch-48000.ec3",
    ]

    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent(name).path }

    /// A temporary path of its own (test cases run in parallel).
    static func output(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("aqplay-stream-\(label)-\(UUID().uuidString).wav").path
    }

    /// Runs aqplay with standard input read from `stdinPath` (else empty).
    static func aqplayWithInput(_ arguments: [String], stdinPath: String?) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aqplay)
        process.arguments = arguments
        process.standardInput = stdinPath.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on its own thread so that neither pipe can fill up and stall aqplay.
        let errData = ReadBox()
        let reader = Thread {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            errData.done.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errData.done.wait()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.data, as: UTF8.self))
    }

    /// `aqplay --offline OUT FILE`: the reference every stream rendering must equal.
    static func renderFile(_ name: String) throws -> Data {
        let out = output("file-\(name.replacingOccurrences(of: "/", with: "_"))")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--offline", out, path(name)])
        #expect(result.status == 0, "\(name) as a file: \(result.err)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// `cat FILE | aqplay --offline OUT -` writes the same WAVE file, byte for byte.
    @Test(arguments: sources)
    func standardInputEqualsTheFile(name: String) throws {
        let reference = try Self.renderFile(name)
        let out = Self.output("stdin")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try Self.aqplayWithInput(["--offline", out, "-"], stdinPath: Self.path(name))
        #expect(result.status == 0, "\(name) on standard input: \(result.err)")
        let rendered = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(rendered.count > 44 && rendered == reference, "\(name): \(rendered.count) bytes from standard input, \(reference.count) from the file")
    }

    /// Every fixture aqplay plays as a file plays the same from standard input — or, laid out so
    /// that it cannot be streamed (the CAF `pakt` or the MPEG-4 `moov` after the audio), is
    /// refused with Audio File Stream Services' kAudioFileStreamError_NotOptimized; fragmented
    /// MPEG-4, which the stream parser does not read, is refused by name.
    @Test func everyFixtureFromStandardInput() throws {
        var compared = 0, refused = 0
        for directory in ["valid", "mp3", "mp4", "alac", "aac-refs"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.path(directory)).sorted()
            for file in names where ![".json", ".framecrc", ".f32crc", ".f32", ".txt"].contains(where: { file.hasSuffix($0) }) {
                let name = "\(directory)/\(file)"
                let asFile = Self.output("sweep-file"), asStream = Self.output("sweep-stdin")
                defer {
                    try? FileManager.default.removeItem(atPath: asFile)
                    try? FileManager.default.removeItem(atPath: asStream)
                }
                guard try runProcess(aqplay, ["--offline", asFile, Self.path(name)]).status == 0 else { continue }
                let result = try Self.aqplayWithInput(["--offline", asStream, "-"], stdinPath: Self.path(name))
                if result.status == 1
                    && (result.err.contains("('optm')") || result.err.contains("fragmented MPEG-4 streams are not supported")) {
                    refused += 1
                    continue
                }
                #expect(result.status == 0, "\(name): \(result.err)")
                guard result.status == 0 else { continue }
                let same = FileManager.default.contentsEqual(atPath: asFile, andPath: asStream)
                #expect(same, "\(name): standard input renders differently")
                compared += 1
            }
        }
        print("\(compared) fixtures render the same from standard input; \(refused) cannot be streamed")
        #expect(compared > 100)
    }

    /// Over HTTP from the in-process server — with a length, chunked, to the close, with ICY
    /// metadata every 1000 bytes — the same WAVE file, and the titles on stdout in order.
    @Test(arguments: ["valid/adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3", "mp3/vbr-q4-2ch-44100.mp3",
                      "valid/wav-pcm_s16le-2ch-44100.wav", "valid/caf-aac-2ch-48000.caf", "ac3/ac3-6ch-48000.ac3",
                      "ac3/eac3-2ch-48000.ec3"])
    func httpEqualsTheFile(name: String) throws {
        let reference = try Self.renderFile(name)
        let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/plain", ServedResponse(body: body))
        server.route("/chunked", ServedResponse(body: body, framing: .chunked([1, 500, 4096, 3])))
        var icy = ServedResponse(body: body, framing: .close)
        icy.statusLine = "ICY 200 OK"
        icy.headers = [("icy-name", "Test FM")]
        icy.metadataInterval = 1000
        icy.titles = ["Artist – First", "Artist – Second 'live'"]
        server.route("/icy", icy)
        for route in ["/plain", "/chunked", "/icy"] {
            let out = Self.output("http")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try runProcess(aqplay, ["--offline", out, server.url(route)])
            #expect(result.status == 0, "\(name) \(route): \(result.err)")
            let rendered = try Data(contentsOf: URL(fileURLWithPath: out))
            #expect(rendered.count > 44 && rendered == reference, "\(name) \(route): \(rendered.count) bytes, \(reference.count) from the file")
            if route == "/icy" {
                let titles = result.out.split(separator: "\n").filter { $0.hasPrefix("stream title: ") }
                #expect(titles == ["stream title: Artist – First", "stream title: Artist – Second 'live'"], "\(result.out)")
                #expect(result.out.hasPrefix("station: Test FM\n"), "\(result.out)")
            }
        }
    }

    /// Rendering offline does not depend on when the bytes come: a stream sent at its own bit
    /// rate that stalls for a second renders the file's WAVE; one that stalls beyond
    /// `--timeout` renders what came, then fails naming the stall.
    @Test func stallsOffline() throws {
        let name = "mp3/cbr-128k-2ch-44100.mp3"
        let reference = try Self.renderFile(name)
        let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var slow = ServedResponse(body: body)
        slow.bytesPerSecond = 16000 * 4
        slow.stallAfter = 4000
        slow.stallSeconds = 1
        server.route("/slow", slow)
        var stuck = slow
        stuck.stallSeconds = 30
        server.route("/stuck", stuck)

        let out = Self.output("slow")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--offline", out, server.url("/slow")])
        #expect(result.status == 0, "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == reference)

        let partial = Self.output("stuck")
        defer { try? FileManager.default.removeItem(atPath: partial) }
        // A time-out of 2 s, well past what a busy machine may keep the server's thread
        // waiting, and well short of the 30 s stall.
        let timedOut = try runProcess(aqplay, ["--timeout", "2", "--offline", partial, server.url("/stuck")])
        #expect(timedOut.status == 1)
        #expect(timedOut.err.contains("\(server.url("/stuck")): no data for 2 s (after "), "\(timedOut.err)")
        #expect(try AqplayTests.floats(partial).samples.count > 0)
        let misuse = try runProcess(aqplay, ["--timeout", "5", "--offline", partial, Self.path(name)])
        #expect(misuse.status == 2 && misuse.err.contains("--timeout is for streams"), "\(misuse.err)")
    }

    /// A connection cut mid-stream: aqplay renders what arrived (a prefix of the whole
    /// rendering), then exits 1 naming how many bytes of how many came.
    @Test(arguments: ["valid/wav-pcm_s16le-2ch-44100.wav", "mp3/cbr-128k-2ch-44100.mp3"])
    func cutStreamPlaysWhatArrivedThenFails(name: String) throws {
        let whole = try Self.renderFile(name)
        let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let cut = body.count / 2
        var response = ServedResponse(body: body)
        response.cutAfter = cut
        server.route("/cut", response)
        let out = Self.output("cut")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess(aqplay, ["--offline", out, server.url("/cut")])
        #expect(result.status == 1)
        #expect(result.err.contains("connection closed after \(cut) of \(body.count) bytes"), "\(result.err)")
        let partial = try AqplayTests.floats(out).samples
        let wholePath = try Self.writeTemporary(whole)
        defer { try? FileManager.default.removeItem(atPath: wholePath) }
        let full = try AqplayTests.floats(wholePath).samples
        #expect(!partial.isEmpty && partial.count < full.count, "\(partial.count) samples of \(full.count)")
        // Everything rendered is the whole rendering's beginning (the last packet's decode
        // may differ where the decoder ran out of input).
        let channels = Int(try AudioFile(path: Self.path(name)).dataFormat.channelsPerFrame)
        let compared = max(0, partial.count - 2048 * channels)
        let first = (0..<compared).first { partial[$0] != full[$0] }
        #expect(first == nil, "sample \(first ?? -1) differs from the whole rendering's")
        #expect(partial.count >= full.count / 3, "only \(partial.count) of \(full.count) samples for half the bytes")
    }

    /// Playing live (to the WAVE file backend, in real time), standard input gives exactly what
    /// the file gives — for streams shorter than the buffers, where the queue starts at the end,
    /// and for one of six seconds, where it starts once its buffers are full.
    @Test(arguments: ["valid/adts-aac-2ch-44100.aac", "mp3/cbr-128k-2ch-44100.mp3", "valid/wav-pcm_u8-1ch-8000.wav",
                      "streams/tone-6s-1ch-22050.mp3"])
    func livePlaybackEqualsTheFile(name: String) throws {
        let asFile = Self.output("live-file"), asStream = Self.output("live-stdin")
        defer {
            try? FileManager.default.removeItem(atPath: asFile)
            try? FileManager.default.removeItem(atPath: asStream)
        }
        let file = try runProcess(aqplay, [Self.path(name)], environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": asFile])
        #expect(file.status == 0, "\(file.err)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aqplay)
        process.arguments = ["-"]
        process.environment = mergedEnvironment(["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_DEVICE": asStream])
        process.standardInput = FileHandle(forReadingAtPath: Self.path(name))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: asFile)), b = try Data(contentsOf: URL(fileURLWithPath: asStream))
        #expect(a.count > 44 && a == b, "\(name): \(b.count) bytes played from standard input, \(a.count) from the file")
    }

    /// Playing (to the null device), a cut stream also plays what arrived, then fails.
    @Test func cutStreamFailsWhenPlaying() throws {
        let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path("mp3/cbr-128k-2ch-44100.mp3"))))
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: body, framing: .chunked([1000]))
        response.cutAfter = 6000
        server.route("/cut.mp3", response)
        let result = try runProcess(aqplay, ["--backend", "null", server.url("/cut.mp3")])
        #expect(result.status == 1)
        #expect(result.out.contains("playing through null:null"), "\(result.out)")
        #expect(result.err.contains("\(server.url("/cut.mp3")): connection closed after 6000 bytes"), "\(result.err)")
    }

    /// An MPEG-4 file whose `moov` follows its audio cannot be streamed: a clear error.
    @Test func moovLastIsRefused() throws {
        let result = try Self.aqplayWithInput(["--offline", Self.output("moov-last"), "-"], stdinPath: Self.path("mp4/aac-2ch-44100.m4a"))
        #expect(result.status == 1)
        #expect(result.err.contains("aqplay: standard input: ") && result.err.contains("moov"), "\(result.err)")
    }

    static func writeTemporary(_ data: Data) throws -> String {
        let path = output("whole")
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Failures before any audio: a 404, an https:// URL, nothing listening; and a stream
    /// cannot loop.
    @Test func refusals() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let missing = try runProcess(aqplay, ["--offline", Self.output("404"), server.url("/missing.mp3")])
        #expect(missing.status == 1)
        #expect(missing.err.contains("\(server.url("/missing.mp3")): the server answered 404 Not Found"), "\(missing.err)")
        var playlist = ServedResponse(body: Array("http://127.0.0.1/a.mp3\n".utf8))
        playlist.headers = [("Content-Type", "audio/x-mpegurl")]
        server.route("/radio.m3u", playlist)
        let m3u = try runProcess(aqplay, ["--offline", Self.output("m3u"), server.url("/radio.m3u")])
        #expect(m3u.status == 1)
        #expect(m3u.err.contains("the server sent a playlist (audio/x-mpegurl), not audio"), "\(m3u.err)")
        let tls = try runProcess(aqplay, ["--offline", Self.output("tls"), "https://127.0.0.1/x.mp3"])
        #expect(tls.status == 1)
        #expect(tls.err.contains("https:// is not supported"), "\(tls.err)")
        let url = server.url("/x")
        server.stop()
        let refused = try runProcess(aqplay, ["--offline", Self.output("refused"), url])
        #expect(refused.status == 1)
        #expect(refused.err.contains("connection refused"), "\(refused.err)")
        let loops = try runProcess(aqplay, ["--loops", "2", "--offline", Self.output("loops"), "-"])
        #expect(loops.status == 2)
        #expect(loops.err.contains("a stream plays once"), "\(loops.err)")
        let empty = try Self.aqplayWithInput(["--offline", Self.output("empty"), "-"], stdinPath: nil)
        #expect(empty.status == 1)
        #expect(empty.err.contains("standard input"), "\(empty.err)")
    }
}

/// What a reader thread read, handed over when `done` is signalled.
final class ReadBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
