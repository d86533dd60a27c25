import Foundation
import Testing
import ProcessSupport
import HTTPTestSupport
@testable import ToolSupport

/// Responses no server should send: each ends in a named error (or, where the bytes happen to
/// be a valid response, in data) — never a crash, a hang or an allocation sized by the response.
@Suite("HTTP stream client, malformed responses")
struct MalformedResponseTests {
    static func raw(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Opens `bytes` served as a whole response and reads the body; the error, if any.
    static func outcome(_ bytes: [UInt8]) throws -> (bytes: [UInt8], error: ByteStreamError?) {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        var response = ServedResponse(body: [])
        response.raw = bytes
        server.route("/", response)
        var options = HTTPStream.Options()
        options.readTimeout = 5
        do {
            let stream = try HTTPStream(url: server.url("/"), options: options)
            return HTTPStreamTests.drain(stream)
        } catch {
            return ([], error)
        }
    }

    @Test(arguments: [
        ("", "the server closed the connection without answering"),
        ("garbage\r\n\r\n", "not an HTTP response"),
        ("HTTP/1.1 2000 OK\r\n\r\n", "not an HTTP response"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n", "connection closed inside the response headers"),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "bad header line"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "unsupported transfer coding gzip"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size line"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", "bad chunk size line"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n", "bad chunk size line"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7FFFFFFFFFFFFFF\r\nabc", "connection closed after 3 bytes, 3 of a"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n", "a chunk is longer than its size line says"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", "connection closed after 3 bytes, before the last chunk"),
        ("HTTP/1.1 200 OK\r\nicy-metaint: 0\r\n\r\n", "bad icy-metaint 0"),
        ("HTTP/1.1 200 OK\r\nicy-metaint: many\r\n\r\n", "bad icy-metaint many"),
        ("HTTP/1.1 200 OK\r\nicy-metaint: 2\r\n\r\nab\u{3}StreamTitle", "connection closed inside a metadata block, after 2 bytes of audio"),
        ("HTTP/1.1 302 Found\r\nLocation: ftp://x/\r\n\r\n", "redirected to ftp://x/: ftp:// is not supported"),
        ("HTTP/1.1 500 Internal Server Error\r\n\r\n", "the server answered 500 Internal Server Error"),
    ])
    func namedError(response: String, message: String) throws {
        let (_, error) = try Self.outcome(Self.raw(response))
        #expect(error?.message.contains(message) == true, "\(response.debugDescription): \(String(describing: error))")
    }

    /// A header line of 100 KB and a flood of header fields are refused, not gathered.
    @Test func oversizeHeaders() throws {
        let long = try Self.outcome(Self.raw("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 100_000) + "\r\n\r\n"))
        #expect(long.error?.message == "a header line is longer than 8192 bytes")
        let many = try Self.outcome(Self.raw("HTTP/1.1 200 OK\r\n" + String(repeating: "X: y\r\n", count: 1000) + "\r\n"))
        #expect(many.error?.message == "the response headers are too large")
    }

    /// Responses whose bytes are random after a plausible start: whatever happens, it is an
    /// answer or a named error (the test ends; no crash).
    @Test func randomResponses() throws {
        var generator = SplitMix(seed: 0x5EED)
        let starts = ["HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                      "HTTP/1.1 200 OK\r\nicy-metaint: 16\r\n\r\n", "ICY 200 OK\r\n", ""]
        var errors = 0
        for i in 0..<100 {
            var bytes = Self.raw(starts[i % starts.count])
            let count = Int(generator.next() % 600)
            for _ in 0..<count {
                let r = generator.next()
                // Mostly printable bytes, CR LF and hex digits, which reach deeper into the parsers.
                switch r % 8 {
                case 0: bytes += [0x0D, 0x0A]
                case 1: bytes.append(Array("0123456789abcdef;".utf8)[Int(r >> 8) % 17])
                default: bytes.append(UInt8(truncatingIfNeeded: r >> 16))
                }
            }
            if try Self.outcome(bytes).error != nil { errors += 1 }
        }
        #expect(errors > 0)
    }
}

