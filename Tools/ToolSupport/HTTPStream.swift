// An HTTP/1.1 GET whose body is read as a stream: redirects, Content-Length, chunked transfer
// coding or read-to-close, and SHOUTcast/Icecast (ICY) metadata taken out of the audio.
import Synchronization

/// The body of an HTTP GET, read as it arrives: what `aqplay http://…` plays.
///
/// The request asks for ICY metadata (`Icy-MetaData: 1`); when the server interleaves it
/// (`icy-metaint`), ``read(into:)`` returns only the audio and each new `StreamTitle` goes
/// to ``onTitle``. Servers answering with SHOUTcast's `ICY 200 OK` status line are accepted.
/// Reads happen on one thread at a time; ``cancel()`` may come from any thread.
public final class HTTPStream: ByteStream, @unchecked Sendable {
    /// Limits for opening and reading.
    public struct Options: Sendable {
        /// Seconds to wait for a connection.
        public var connectTimeout: Double = 10
        /// Seconds to wait for the whole response head (status line and headers), and then for
        /// each next bytes of the body.
        public var readTimeout: Double = 30
        /// Redirects followed before giving up.
        public var maximumRedirects = 5
        /// Whether to ask for ICY metadata.
        public var requestsMetadata = true

        /// The defaults: 10 s to connect, 30 s without data, 5 redirects, ICY metadata asked for.
        public init() {}
    }

    /// The URL the body comes from, after redirects.
    public let url: HTTPURL
    /// The response's status code (200 for `ICY 200 OK`).
    public let statusCode: Int
    /// True when the status line was SHOUTcast's `ICY 200 OK`.
    public let isICY: Bool
    /// The response headers, names as sent.
    public let headers: [(name: String, value: String)]
    /// The body's length from `Content-Length`; nil for chunked and read-to-close bodies.
    public let contentLength: Int64?
    /// Audio bytes between metadata blocks (`icy-metaint`), when the server sends metadata.
    public let metadataInterval: Int?
    /// Called on the reading thread with each new stream title.
    public var onTitle: (@Sendable (String) -> Void)?
    /// The last stream title seen.
    public private(set) var title: String?

    private let connection: HTTPConnection
    private var body: BodyReader
    /// Audio bytes left before the next metadata block.
    private var audioUntilMetadata = 0
    /// Audio bytes returned so far.
    public private(set) var audioBytesRead: Int64 = 0

    /// Connects, sends the GET, reads the response headers and follows redirects: afterwards
    /// the body is ready to read. Fails for any status other than 2xx.
    public init(url text: String, options: Options = Options()) throws(ByteStreamError) {
        var url = try HTTPURL(text)
        var redirects = 0
        while true {
            let connection = try HTTPConnection(
                host: url.host, port: url.port, connectTimeout: options.connectTimeout, readTimeout: options.readTimeout)
            try connection.send(Self.request(for: url, metadata: options.requestsMetadata))
            let head = try ResponseHead(reading: connection, timeout: options.readTimeout)
            if [301, 302, 303, 307, 308].contains(head.status), let location = head.value(of: "location") {
                redirects += 1
                guard redirects <= options.maximumRedirects else {
                    throw ByteStreamError(.tooManyRedirects, "too many redirects (more than \(options.maximumRedirects))")
                }
                do {
                    url = try url.resolving(location)
                } catch {
                    throw ByteStreamError(error.kind, "redirected to \(location): \(error.message)")
                }
                continue
            }
            guard (200..<300).contains(head.status) else {
                throw ByteStreamError(.httpStatus(head.status), "the server answered \(head.statusLine)")
            }
            self.url = url
            statusCode = head.status
            isICY = head.isICY
            headers = head.fields
            self.connection = connection
            let framing = try head.framing()
            if case .length(let n) = framing { contentLength = n } else { contentLength = nil }
            body = BodyReader(connection: connection, framing: framing)
            var interval: Int?
            if options.requestsMetadata, let value = head.value(of: "icy-metaint") {
                guard let n = Int(value.trimmingSpaces), n > 0, n <= 16 << 20 else {
                    throw ByteStreamError(.badResponse, "bad icy-metaint \(value)")
                }
                interval = n
            }
            metadataInterval = interval
            audioUntilMetadata = interval ?? 0
            return
        }
    }

    /// The value of the first header named `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The request: a GET of the target, asking the server to close the connection after it.
    private static func request(for url: HTTPURL, metadata: Bool) -> [UInt8] {
        var text = "GET \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUser-Agent: aqplay\r\nAccept: */*\r\n"
        if metadata { text += "Icy-MetaData: 1\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// Reads audio bytes (metadata blocks taken out); 0 at the end of the body.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteStreamError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        guard let interval = metadataInterval else {
            let n = try body.read(into: buffer)
            audioBytesRead += Int64(n)
            return n
        }
        if audioUntilMetadata == 0 {
            guard try readMetadataBlock() else { return 0 }
            audioUntilMetadata = interval
        }
        let n = try body.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, audioUntilMetadata)]))
        audioUntilMetadata -= n
        audioBytesRead += Int64(n)
        return n
    }

    /// Reads one metadata block (a length byte, then 16 × that many bytes) and reports a new
    /// title; false when the body ends where the block would start.
    private func readMetadataBlock() throws(ByteStreamError) -> Bool {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 + 255 * 16, alignment: 1)
        defer { block.deallocate() }
        guard try body.read(into: UnsafeMutableRawBufferPointer(rebasing: block[..<1])) == 1 else { return false }
        let count = Int(block[0]) * 16
        guard count > 0 else { return true }
        var filled = 0
        while filled < count {
            let n = try body.read(into: UnsafeMutableRawBufferPointer(rebasing: block[(1 + filled)..<(1 + count)]))
            guard n > 0 else {
                throw ByteStreamError(.truncated, "connection closed inside a metadata block, after \(audioBytesRead) bytes of audio")
            }
            filled += n
        }
        if let newTitle = ICYMetadata.streamTitle(in: Array(block[1..<(1 + count)])), newTitle != title {
            title = newTitle
            onTitle?(newTitle)
        }
        return true
    }

    /// Wakes a read waiting on another thread; it and every later read fail as cancelled.
    public func cancel() {
        connection.cancel()
    }
}

/// The status line and headers of a response.
private struct ResponseHead {
    var statusLine: String
    var status: Int
    var isICY: Bool
    var fields: [(name: String, value: String)] = []

    /// Reads the head, all of it within `timeout` seconds.
    init(reading connection: HTTPConnection, timeout: Double) throws(ByteStreamError) {
        connection.startDeadline(timeout, for: "the response headers")
        defer { connection.endDeadline() }
        guard let line = try connection.readLine(limit: 8192) else {
            throw ByteStreamError(.badResponse, "the server closed the connection without answering")
        }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") || parts[0] == "ICY", parts[1].count == 3,
            let code = Int(parts[1]), code >= 100
        else {
            throw ByteStreamError(.badResponse, "not an HTTP response (status line \(line.prefix(80).debugDescription))")
        }
        statusLine = parts.count == 3 ? "\(code) \(parts[2])" : "\(code)"
        status = code
        isICY = parts[0] == "ICY"
        var total = line.utf8.count
        while true {
            guard let field = try connection.readLine(limit: 8192) else {
                throw ByteStreamError(.truncated, "connection closed inside the response headers")
            }
            if field.isEmpty { break }
            total += field.utf8.count
            guard total <= 65536, fields.count < 200 else { throw ByteStreamError(.badResponse, "the response headers are too large") }
            guard let colon = field.firstIndex(of: ":") else {
                throw ByteStreamError(.badResponse, "bad header line \(field.prefix(80).debugDescription)")
            }
            fields.append((String(field[..<colon]).trimmingSpaces, String(field[field.index(after: colon)...]).trimmingSpaces))
        }
    }

    func value(of name: String) -> String? {
        fields.first { $0.name.lowercased() == name }?.value
    }

    /// How the body ends: chunked when the last transfer coding is chunked, else the
    /// Content-Length, else the end of the connection.
    func framing() throws(ByteStreamError) -> BodyReader.Framing {
        let codings = fields.filter { $0.name.lowercased() == "transfer-encoding" }
            .flatMap { $0.value.split(separator: ",") }.map { String($0).trimmingSpaces.lowercased() }
        if let last = codings.last {
            guard last == "chunked", codings.count == 1 else {
                throw ByteStreamError(.badResponse, "unsupported transfer coding \(codings.joined(separator: ", "))")
            }
            return .chunked
        }
        let lengths = Set(fields.filter { $0.name.lowercased() == "content-length" }
            .flatMap { $0.value.split(separator: ",") }.map { String($0).trimmingSpaces })
        guard let length = lengths.first else { return .close }
        guard lengths.count == 1, length.count <= 18, length.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(length) else {
            throw ByteStreamError(.badResponse, "bad Content-Length \(lengths.sorted().joined(separator: ", "))")
        }
        return .length(n)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex { $0 != 0x20 && $0 != 0x09 }!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
