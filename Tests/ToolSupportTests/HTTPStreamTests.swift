import Foundation
import Testing
import AudioFileServices
import HTTPTestSupport
@testable import ToolSupport

/// The HTTP client aqplay plays streams with, against the in-process server: every framing,
/// ICY metadata, redirects, and each way a stream fails.
@Suite("HTTP stream client")
struct HTTPStreamTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let mp3Path = fixtures.appendingPathComponent("mp3/cbr-128k-2ch-44100.mp3").path
    static let mp3 = [UInt8](FileManager.default.contents(atPath: mp3Path) ?? Data())
    static let wave = [UInt8](FileManager.default.contents(atPath: fixtures.appendingPathComponent("valid/wav-pcm_s16le-2ch-44100.wav").path) ?? Data())

    /// Everything a stream gives, read `size` bytes at a time, and the error that ended it.
    static func drain(_ stream: some ByteStream, size: Int = 3000) -> (bytes: [UInt8], error: ByteStreamError?) {
        var out: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        do {
            while true {
                let n = try stream.read(into: buffer)
                if n == 0 { return (out, nil) }
                out += buffer[..<n]
            }
        } catch {
            return (out, error)
        }
    }

    /// Titles reported by a stream, in order.
    final class Titles: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ title: String) { lock.withLock { list.append(title) } }
        var all: [String] { lock.withLock { list } }
    }

    @Test func fixturesArePresent() {
        #expect(Self.mp3.count > 4096)
        #expect(Self.wave.count > 4096)
    }

    /// A body with Content-Length: the file byte for byte; the request says what the client
    /// promises (Host with the port, ICY metadata, closing).
    @Test func contentLengthBody() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/a.mp3", ServedResponse(body: Self.mp3))
        let stream = try HTTPStream(url: server.url("/a.mp3"))
        #expect(stream.statusCode == 200 && !stream.isICY)
        #expect(stream.contentLength == Int64(Self.mp3.count))
        let (bytes, error) = Self.drain(stream)
        #expect(error == nil)
        #expect(bytes == Self.mp3)
        let request = try #require(server.requests.first)
        #expect(request[":method"] == "GET" && request[":path"] == "/a.mp3" && request[":version"] == "HTTP/1.1")
        #expect(request["host"] == "127.0.0.1:\(server.port)")
        #expect(request["icy-metadata"] == "1")
        #expect(request["connection"] == "close")
    }

    /// Chunked bodies of many chunk sizes (1 byte up to larger than the client's buffer), with
    /// chunk extensions and a trailer, read through buffers of several sizes.
    @Test(arguments: [[1], [7, 1, 300], [4096, 3], [70000], [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987]])
    func chunkedBody(sizes: [Int]) throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/c", ServedResponse(body: Self.wave, framing: .chunked(sizes)))
        for readSize in [1, 500, 65536] {
            let stream = try HTTPStream(url: server.url("/c"))
            #expect(stream.contentLength == nil)
            let (bytes, error) = Self.drain(stream, size: readSize)
            #expect(error == nil, "\(sizes) read \(readSize) at a time: \(String(describing: error))")
            #expect(bytes == Self.wave, "\(sizes) read \(readSize) at a time: \(bytes.count) of \(Self.wave.count) bytes")
        }
    }

    /// No length: the body is everything until the server closes.
    @Test func readToCloseBody() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/r", ServedResponse(body: Self.mp3, framing: .close))
        let (bytes, error) = Self.drain(try HTTPStream(url: server.url("/r")))
        #expect(error == nil)
        #expect(bytes == Self.mp3)
    }

    /// ICY metadata every K bytes, in every framing: the audio out is the file, and the titles
    /// come in the order sent (quotes and UTF-8 included).
    @Test(arguments: [1, 100, 1000, 8192, 1 << 20])
    func icyMetadataIsTakenOut(interval: Int) throws {
        let titles = ["First – Café", "Rock 'n' Roll", "Third; with a semicolon", "Fourth"]
        let server = try LocalHTTPServer()
        defer { server.stop() }
        for (path, framing) in [("/icy-length", ServedResponse.Framing.contentLength), ("/icy-chunked", .chunked([333, 1])),
                                ("/icy-close", .close)] {
            var response = ServedResponse(body: Self.mp3, framing: framing)
            response.metadataInterval = interval
            response.titles = interval == 1 ? titles : titles + ["Fifth", "Sixth", "Seventh"]
            server.route(path, response)
            let stream = try HTTPStream(url: server.url(path))
            #expect(stream.metadataInterval == interval)
            let seen = Titles()
            stream.onTitle = { seen.append($0) }
            let (bytes, error) = Self.drain(stream, size: 777)
            #expect(error == nil, "\(path) every \(interval): \(String(describing: error))")
            #expect(bytes == Self.mp3, "\(path) every \(interval): \(bytes.count) of \(Self.mp3.count) bytes")
            let blocks = (Self.mp3.count - 1) / interval
            #expect(seen.all == Array(response.titles.prefix(blocks)), "\(path) every \(interval)")
        }
    }

    /// Without `Icy-MetaData: 1` the server sends none and the client strips none.
    @Test func noMetadataWhenNotAsked() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3)
        response.metadataInterval = 1000
        response.titles = ["A"]
        server.route("/m", response)
        var options = HTTPStream.Options()
        options.requestsMetadata = false
        let stream = try HTTPStream(url: server.url("/m"), options: options)
        #expect(stream.metadataInterval == nil)
        #expect(Self.drain(stream).bytes == Self.mp3)
        #expect(server.requests.first?["icy-metadata"] == nil)
    }

    /// SHOUTcast's `ICY 200 OK` status line, with its icy- headers and a body to the close.
    @Test func icyStatusLine() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3, framing: .close)
        response.statusLine = "ICY 200 OK"
        response.headers = [("icy-name", "Test Radio"), ("content-type", "audio/mpeg")]
        response.metadataInterval = 4096
        response.titles = ["Now playing"]
        server.route("/;", response)
        let stream = try HTTPStream(url: server.url("/;"))
        #expect(stream.isICY && stream.statusCode == 200)
        #expect(stream.header("ICY-NAME") == "Test Radio")
        let seen = Titles()
        stream.onTitle = { seen.append($0) }
        #expect(Self.drain(stream).bytes == Self.mp3)
        #expect(seen.all == ["Now playing"])
        #expect(stream.title == "Now playing")
    }

    /// Throttled to real time (the stream's bit rate, as ffprobe reports it): the same bytes
    /// arrive, titles included.
    @Test func throttledToRealTime() throws {
        let probe = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.mp3Path + ".ffprobe.json")))
        let streams = (probe as? [String: Any])?["streams"] as? [[String: Any]]
        let bitRate = try #require((streams?.first?["bit_rate"] as? String).flatMap { Int($0) })
        #expect(bitRate == 128000)
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3, framing: .chunked([1000]))
        response.bytesPerSecond = bitRate / 8
        response.metadataInterval = 2000
        response.titles = ["One", "Two"]
        server.route("/slow", response)
        let stream = try HTTPStream(url: server.url("/slow"))
        let seen = Titles()
        stream.onTitle = { seen.append($0) }
        let (bytes, error) = Self.drain(stream)
        #expect(error == nil)
        #expect(bytes == Self.mp3)
        #expect(seen.all == ["One", "Two"])
    }

    /// A cut body: every byte that arrived, then an error that says how many of how many.
    @Test func cutContentLength() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3)
        response.cutAfter = 5000
        server.route("/cut", response)
        let (bytes, error) = Self.drain(try HTTPStream(url: server.url("/cut")))
        #expect(bytes == Array(Self.mp3.prefix(5000)))
        #expect(error?.kind == .truncated)
        #expect(error?.message == "connection closed after 5000 of \(Self.mp3.count) bytes")
    }

    @Test func cutChunked() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3, framing: .chunked([1024]))
        response.cutAfter = 3000
        server.route("/cut", response)
        let (bytes, error) = Self.drain(try HTTPStream(url: server.url("/cut")))
        #expect(bytes == Array(Self.mp3.prefix(3000)))
        #expect(error?.kind == .truncated)
        #expect(error?.message == "connection closed after 3000 bytes, 952 of a 1024-byte chunk")
    }

    @Test func cutWithMetadata() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3)
        response.metadataInterval = 1000
        response.titles = ["a", "b", "c", "d"]
        response.cutAfter = 2500
        server.route("/cut", response)
        let stream = try HTTPStream(url: server.url("/cut"))
        let seen = Titles()
        stream.onTitle = { seen.append($0) }
        let (bytes, error) = Self.drain(stream)
        #expect(bytes == Array(Self.mp3.prefix(2500)))
        #expect(error?.kind == .truncated)
        #expect(seen.all == ["a", "b"])
    }

    /// A connection reset mid-body is named as one, after a prefix of the file.
    @Test func resetMidBody() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3, framing: .close)
        response.cutAfter = 4000
        response.resetAtCut = true
        server.route("/reset", response)
        let (bytes, error) = Self.drain(try HTTPStream(url: server.url("/reset")))
        #expect(error?.kind == .connectionReset, "\(String(describing: error))")
        #expect(bytes.count <= 4000 && bytes == Array(Self.mp3.prefix(bytes.count)))
    }

    /// Redirects are followed (absolute, path and relative), up to five.
    @Test func followsRedirects() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/dir/file", ServedResponse(body: Self.mp3))
        server.route("/r1", .redirect(to: server.url("/r2"), status: 301))
        server.route("/r2", .redirect(to: "/dir/r3", status: 307))
        server.route("/dir/r3", .redirect(to: "file", status: 308))
        let stream = try HTTPStream(url: server.url("/r1"))
        #expect(stream.url.target == "/dir/file")
        #expect(Self.drain(stream).bytes == Self.mp3)

        for i in 0..<6 { server.route("/loop\(i)", .redirect(to: "/loop\(i + 1)")) }
        server.route("/loop6", ServedResponse(body: Self.mp3))
        let five = try HTTPStream(url: server.url("/loop1"))
        #expect(Self.drain(five).bytes == Self.mp3)
        do {
            _ = try HTTPStream(url: server.url("/loop0"))
            Issue.record("six redirects were followed")
        } catch {
            #expect(error.kind == .tooManyRedirects)
            #expect(error.message == "too many redirects (more than 5)")
        }
        server.route("/tls", .redirect(to: "https://127.0.0.1/x"))
        #expect { try HTTPStream(url: server.url("/tls")) } throws: { ($0 as? ByteStreamError)?.kind == .unsupportedURL }
    }

    @Test func notFound() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        do {
            _ = try HTTPStream(url: server.url("/missing"))
            Issue.record("a 404 opened")
        } catch {
            #expect(error.kind == .httpStatus(404))
            #expect(error.message == "the server answered 404 Not Found")
        }
    }

    @Test func connectionRefused() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let url = server.url("/x")
        server.stop()
        do {
            _ = try HTTPStream(url: url)
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.kind == .connectionRefused)
            #expect(error.message == "connection refused by 127.0.0.1 port \(server.port)")
        }
    }

    /// A server that stops sending fails the read after the read timeout, after the bytes that came.
    @Test func stallTimesOut() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: Self.mp3)
        response.stallAfter = 2000
        response.stallSeconds = 30
        server.route("/stall", response)
        // Two seconds: the server's thread may wait that long for a core on a busy machine
        // before it sends the first bytes; the stall it times out on is 30 s.
        var options = HTTPStream.Options()
        options.readTimeout = 2
        let (bytes, error) = Self.drain(try HTTPStream(url: server.url("/stall"), options: options))
        #expect(bytes == Array(Self.mp3.prefix(2000)))
        #expect(error?.kind == .timedOut)
        #expect(error?.message.hasPrefix("no data for 2 s") == true, "\(String(describing: error))")
    }

    /// A server that sends its headers a byte now and then, each within the read time-out, still
    /// fails once the whole head has taken longer than the time-out.
    @Test func headersTricklingInTimeOut() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: [])
        response.raw = Array("HTTP/1.1 200 OK\r\nX-Padding: \(String(repeating: "a", count: 400))\r\n\r\n".utf8)
        response.rawByteInterval = 0.02
        server.route("/trickle", response)
        var options = HTTPStream.Options()
        options.readTimeout = 0.3
        do {
            _ = try HTTPStream(url: server.url("/trickle"), options: options)
            Issue.record("the stream opened")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.message.hasPrefix("the response headers did not arrive within 0.3 s"), "\(error)")
        }
    }

    /// https:// and other schemes are refused clearly; URLs are taken apart as written.
    @Test func urls() throws {
        #expect { try HTTPURL("https://example.com/") } throws: {
            ($0 as? ByteStreamError)?.message == "https:// is not supported (TLS is not built in); use an http:// URL"
        }
        #expect { try HTTPURL("ftp://example.com/") } throws: { ($0 as? ByteStreamError)?.kind == .unsupportedURL }
        #expect { try HTTPURL("http://:80/") } throws: { ($0 as? ByteStreamError)?.kind == .badURL }
        #expect { try HTTPURL("http://host:99999/") } throws: { ($0 as? ByteStreamError)?.kind == .badURL }
        #expect(try HTTPURL("http://radio.example:8000/stream?x=1#frag") == HTTPURL("HTTP://radio.example:8000/stream?x=1"))
        let v6 = try HTTPURL("http://[::1]:8080")
        #expect(v6.host == "::1" && v6.port == 8080 && v6.target == "/" && v6.hostHeader == "[::1]:8080")
        #expect(try HTTPURL("http://h/?q").target == "/?q")
        #expect(try HTTPURL("http://h/a/b").resolving("c").description == "http://h/a/c")
        #expect(HTTPURL.looksLikeURL("http://x") && !HTTPURL.looksLikeURL("-") && !HTTPURL.looksLikeURL("a/b.mp3"))
    }

    @Test func streamTitles() {
        #expect(ICYMetadata.streamTitle(in: Array("StreamTitle='A - B';StreamUrl='http://x';".utf8) + [0, 0]) == "A - B")
        #expect(ICYMetadata.streamTitle(in: Array("StreamUrl='x';".utf8)) == nil)
        #expect(ICYMetadata.streamTitle(in: Array("StreamTitle='';".utf8)) == "")
        #expect(ICYMetadata.streamTitle(in: Array("StreamTitle='no end".utf8)) == "no end")
        #expect(ICYMetadata.streamTitle(in: Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8)) == "Café")  // Latin-1
        #expect(ICYMetadata.streamTitle(in: Array("StreamTitle='it's';".utf8)) == "it's")
    }

    /// Standard input that sends nothing for longer than its time limit fails as timed out.
    @Test func fileDescriptorStreamTimesOut() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        _ = write(fds[1], "abc", 3)
        let (bytes, error) = Self.drain(FileDescriptorStream(fd: fds[0], timeout: 0.2))
        #expect(bytes == Array("abc".utf8))
        #expect(error?.kind == .timedOut && error?.message == "no data for 0.2 s; the input stalled")
    }

    /// Standard input (here a pipe) is read to its end.
    @Test func fileDescriptorStream() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            _ = Self.mp3.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            close(writeEnd)
        }
        writer.start()
        let (bytes, error) = Self.drain(FileDescriptorStream(fd: readEnd), size: 1000)
        close(readEnd)
        #expect(error == nil)
        #expect(bytes == Self.mp3)
    }
}
