// An HTTP response body as it arrives: a Content-Length, chunked transfer coding, or the rest of
// the connection; a body that ends early is an error that says how much arrived.

/// Reads a response body over its framing.
struct BodyReader {
    enum Framing: Equatable {
        /// `Content-Length` bytes.
        case length(Int64)
        /// Chunked transfer coding (RFC 9112, section 7.1).
        case chunked
        /// Everything until the server closes the connection.
        case close
    }

    let connection: HTTPConnection
    let framing: Framing
    /// Body bytes returned so far (after chunk framing).
    private(set) var bytesRead: Int64 = 0
    /// Bytes left in the current chunk.
    private var chunkLeft: Int64 = 0
    /// Bytes in the current chunk.
    private var chunkSize: Int64 = 0
    /// True once a chunk was read whose CR LF has not been.
    private var chunkOpen = false
    /// True at the end of the body.
    private var finished = false

    init(connection: HTTPConnection, framing: Framing) {
        self.connection = connection
        self.framing = framing
        if case .length(0) = framing { finished = true }
    }

    /// Reads up to `buffer.count` body bytes; 0 at the end of the body.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteStreamError) -> Int {
        guard !buffer.isEmpty, !finished else { return 0 }
        switch framing {
        case .close:
            let n = try connection.read(into: buffer)
            if n == 0 { finished = true }
            bytesRead += Int64(n)
            return n
        case .length(let total):
            let want = Int(min(Int64(buffer.count), total - bytesRead))
            let n = try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
            guard n > 0 else {
                throw ByteStreamError(.truncated, "connection closed after \(bytesRead) of \(total) bytes")
            }
            bytesRead += Int64(n)
            if bytesRead == total { finished = true }
            return n
        case .chunked:
            if chunkLeft == 0 {
                try startChunk()
                if finished { return 0 }
            }
            let want = Int(min(Int64(buffer.count), chunkLeft))
            let n = try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
            guard n > 0 else {
                throw ByteStreamError(
                    .truncated,
                    "connection closed after \(bytesRead) bytes, \(chunkSize - chunkLeft) of a \(chunkSize)-byte chunk")
            }
            chunkLeft -= Int64(n)
            bytesRead += Int64(n)
            return n
        }
    }

    /// Ends the chunk just read (its CR LF) and reads the next chunk's size line; at the last
    /// chunk, reads the trailer fields and finishes.
    private mutating func startChunk() throws(ByteStreamError) {
        if chunkOpen {
            // The CR LF that ends the chunk; anything else means the chunk ran on.
            let end: String?
            do {
                end = try connection.readLine(limit: 4096)
            } catch where error.kind == .badResponse {
                end = "?"
            }
            guard let end else { throw closedBetweenChunks() }
            guard end.isEmpty else { throw ByteStreamError(.badResponse, "a chunk is longer than its size line says") }
            chunkOpen = false
        }
        while true {
            guard let line = try connection.readLine(limit: 4096) else { throw closedBetweenChunks() }
            let sizeText = (line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
                .trimmingSpaces
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int64(sizeText, radix: 16), size >= 0,
                sizeText.allSatisfy(\.isHexDigit)
            else {
                throw ByteStreamError(.badResponse, "bad chunk size line \(line.prefix(40).debugDescription) after \(bytesRead) bytes")
            }
            if size == 0 {
                // The trailer section: fields up to an empty line, ignored.
                var fields = 0
                while true {
                    guard let trailer = try connection.readLine(limit: 8192) else { break }  // tolerated: no final CR LF
                    if trailer.isEmpty { break }
                    fields += 1
                    guard fields <= 200 else { throw ByteStreamError(.badResponse, "too many trailer fields") }
                }
                finished = true
                return
            }
            chunkSize = size
            chunkLeft = size
            chunkOpen = true
            return
        }
    }

    private func closedBetweenChunks() -> ByteStreamError {
        ByteStreamError(.truncated, "connection closed after \(bytesRead) bytes, before the last chunk")
    }
}
