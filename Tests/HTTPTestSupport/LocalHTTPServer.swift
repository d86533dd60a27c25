// An HTTP server on 127.0.0.1 inside the test process, serving files the ways streams arrive:
// as they are, chunked, throttled, cut, with ICY metadata, redirected.
import Foundation
import Locking
import Synchronization

/// A response the server gives for one path.
public struct ServedResponse: Sendable {
    /// How the body is framed on the wire.
    public enum Framing: Sendable {
        /// `Content-Length` (of the whole body, metadata included, even when cut).
        case contentLength
        /// Chunked transfer coding with chunk sizes taken in turn from the list (with a chunk
        /// extension on every other size line, and a trailer field at the end).
        case chunked([Int])
        /// No length: the body ends when the connection closes.
        case close
    }

    /// The status line, without CR LF.
    public var statusLine = "HTTP/1.1 200 OK"
    /// Header fields besides the framing and `icy-metaint` ones.
    public var headers: [(String, String)] = [("Content-Type", "application/octet-stream")]
    /// The audio bytes.
    public var body: [UInt8] = []
    /// How the body is framed.
    public var framing: Framing = .contentLength
    /// When set, these bytes are the whole response (status line, headers and all), sent as
    /// they are before the connection closes: for malformed responses.
    public var raw: [UInt8]?
    /// When set, ``raw`` is sent one byte at a time, this many seconds apart.
    public var rawByteInterval: Double?
    /// Body bytes per second on the wire (sent in tenths of a second); nil for as fast as possible.
    public var bytesPerSecond: Int?
    /// Closes the connection after this many audio bytes.
    public var cutAfter: Int?
    /// Resets the connection (RST) at the cut instead of closing it.
    public var resetAtCut = false
    /// Pauses once for `stallSeconds` after this many audio bytes.
    public var stallAfter: Int?
    public var stallSeconds: Double = 0
    /// Audio bytes between ICY metadata blocks (sent with `icy-metaint`), when the request
    /// asks for them (`Icy-MetaData: 1`).
    public var metadataInterval: Int?
    /// The title in each metadata block in turn (`StreamTitle='…';`); once they run out,
    /// blocks are empty (length 0).
    public var titles: [String] = []

    public init(body: [UInt8], framing: Framing = .contentLength) {
        self.body = body
        self.framing = framing
    }

    /// A redirect to `location` with `status` (302 by default).
    public static func redirect(to location: String, status: Int = 302) -> ServedResponse {
        var r = ServedResponse(body: [])
        r.statusLine = "HTTP/1.1 \(status) Found"
        r.headers = [("Location", location)]
        return r
    }

    /// One metadata block: the length byte and the text padded with zeros to 16 × length.
    public static func metadataBlock(title: String?) -> [UInt8] {
        guard let title else { return [0] }
        var text = Array("StreamTitle='\(title)';StreamUrl='';".utf8)
        let blocks = (text.count + 15) / 16
        text += [UInt8](repeating: 0, count: blocks * 16 - text.count)
        return [UInt8(blocks)] + text
    }

    /// The body as sent when metadata is asked for: a block after every `metadataInterval`
    /// audio bytes that more audio follows; and, for each audio offset, where it lies on the wire.
    func wireBody(withMetadata: Bool) -> (bytes: [UInt8], wireOffset: (Int) -> Int) {
        guard withMetadata, let interval = metadataInterval else { return (body, { $0 }) }
        var out: [UInt8] = []
        var offsets: [Int] = []  // wire offset of the audio byte at each multiple of the interval
        var position = 0
        var block = 0
        while position < body.count {
            if position > 0 {
                out += Self.metadataBlock(title: block < titles.count ? titles[block] : nil)
                block += 1
            }
            offsets.append(out.count)
            let end = min(body.count, position + interval)
            out += body[position..<end]
            position = end
        }
        let total = out.count
        return (out, { audio in
            guard audio < self.body.count else { return total }
            return offsets[audio / interval] + audio % interval
        })
    }
}

/// The in-process server: listens on 127.0.0.1 at an ephemeral port, one thread per connection.
public final class LocalHTTPServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: UInt16
    private let listener: Int32
    private let routes = Guarded<[String: ServedResponse]>([:])
    private let log = Guarded<[[String: String]]>([])
    private let stopped = Atomic<Bool>(false)

    /// Starts listening.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// Serves `response` at `path`.
    public func route(_ path: String, _ response: ServedResponse) {
        routes.withLock { $0[path] = response }
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests received so far: `:path` and each header, names lowercased.
    public var requests: [[String: String]] { log.withLock { $0 } }

    /// Stops accepting connections.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in
                serve(client)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var closeNormally = true
        defer {
            if closeNormally { shutdown(fd, Int32(SHUT_WR)) }
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        log.withLock { $0.append(request) }
        guard let response = routes.withLock({ $0[request[":path"] ?? ""] }) else {
            _ = send(fd, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        if let raw = response.raw {
            if let interval = response.rawByteInterval {
                for byte in raw {
                    guard send(fd, [byte]) else { return }
                    Thread.sleep(forTimeInterval: interval)
                }
            } else {
                _ = send(fd, raw)
            }
            return
        }
        let withMetadata = request["icy-metadata"] == "1" && response.metadataInterval != nil
        let (wire, wireOffset) = response.wireBody(withMetadata: withMetadata)
        var head = response.statusLine + "\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if withMetadata, let interval = response.metadataInterval { head += "icy-metaint: \(interval)\r\n" }
        switch response.framing {
        case .contentLength: head += "Content-Length: \(wire.count)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .close: break
        }
        head += "Connection: close\r\n\r\n"
        guard send(fd, Array(head.utf8)) else { return }

        let cut = response.cutAfter.map(wireOffset) ?? wire.count
        let stall = response.stallAfter.map(wireOffset)
        var sent = 0
        var chunkIndex = 0
        var stalled = false
        while sent < cut {
            var piece = cut - sent
            if let rate = response.bytesPerSecond { piece = min(piece, max(1, rate / 10)) }
            if let stall, !stalled, sent < stall { piece = min(piece, stall - sent) }
            if case .chunked(let sizes) = response.framing, !sizes.isEmpty {
                // One whole chunk per step; the cut may fall inside it.
                let size = min(sizes[chunkIndex % sizes.count], wire.count - sent)
                let extensionText = chunkIndex % 2 == 1 ? ";name=value" : ""
                guard send(fd, Array((String(size, radix: 16) + extensionText + "\r\n").utf8)) else { return }
                chunkIndex += 1
                piece = min(size, cut - sent)
                guard send(fd, Array(wire[sent..<(sent + piece)])) else { return }
                sent += piece
                if piece == size { guard send(fd, [0x0D, 0x0A]) else { return } }
            } else {
                guard send(fd, Array(wire[sent..<(sent + piece)])) else { return }
                sent += piece
            }
            if let stall, !stalled, sent >= stall {
                stalled = true
                Thread.sleep(forTimeInterval: response.stallSeconds)
            }
            if let rate = response.bytesPerSecond { Thread.sleep(forTimeInterval: Double(piece) / Double(rate)) }
        }
        if sent < wire.count {
            if response.resetAtCut {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                closeNormally = false
            }
            return
        }
        if case .chunked = response.framing {
            _ = send(fd, Array("0\r\nX-Trailer: done\r\n\r\n".utf8))
        }
    }

    /// The request line's path and the header fields, up to the empty line.
    private func readRequest(_ fd: Int32) -> [String: String]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !bytes.ends(with: [0x0D, 0x0A, 0x0D, 0x0A]) {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0, bytes.count < 65536 else { return nil }
            bytes += chunk[..<n]
            if let end = bytes.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) { bytes = Array(bytes[..<end.upperBound]) }
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var result = [":method": String(requestLine[0]), ":path": String(requestLine[1]), ":version": String(requestLine[2])]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// Sends all of `bytes`; false when the client went away.
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
