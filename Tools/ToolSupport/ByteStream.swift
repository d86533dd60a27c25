// Bytes that arrive over time, for the tools that play streams: standard input, HTTP bodies.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A source of bytes read in order, once: standard input or an HTTP response body.
/// Reads happen on one thread at a time; ``cancel()`` may come from any thread.
public protocol ByteStream: AnyObject, Sendable {
    /// Reads up to `buffer.count` bytes into `buffer`, waiting until at least one byte has
    /// arrived; 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteStreamError) -> Int
    /// Wakes a read waiting on another thread, which then ends with ``ByteStreamError/Kind/cancelled``
    /// (or the end of the stream), and makes every later read do the same.
    func cancel()
}

/// Why a stream could not be opened or read, worded for the user.
public struct ByteStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Equatable, Sendable {
        /// A URL this client does not speak (https://, ftp://, credentials).
        case unsupportedURL
        /// A URL that cannot be parsed.
        case badURL
        /// The host name did not resolve.
        case hostNotFound
        /// Nothing listens at the address.
        case connectionRefused
        /// The peer reset the connection.
        case connectionReset
        /// Connecting, or waiting for the next bytes, took longer than allowed.
        case timedOut
        /// The connection ended before the body it announced did.
        case truncated
        /// The server's answer is not HTTP this client understands.
        case badResponse
        /// The server answered with a status other than success (its code).
        case httpStatus(Int)
        /// More redirects than allowed.
        case tooManyRedirects
        /// A system call failed (its errno).
        case system(Int32)
        /// ``ByteStream/cancel()`` was called.
        case cancelled
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The failure in words, without the URL or file name.
    public let message: String

    /// A failure of `kind` described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A failed system call: `what` and the text of `code`.
    static func system(_ what: String, _ code: Int32) -> ByteStreamError {
        ByteStreamError(.system(code), "\(what): \(String(cString: strerror(code)))")
    }

    public var description: String { message }
}

/// A file descriptor read to its end: standard input for `-`.
public final class FileDescriptorStream: ByteStream, @unchecked Sendable {
    private let fd: Int32
    private let timeout: Double?
    private let cancelled = Atomic<Bool>(false)

    /// Reads `fd` (standard input by default), failing with ``ByteStreamError/Kind/timedOut``
    /// when nothing arrives for `timeout` seconds (nil: waits as long as it takes). The
    /// descriptor stays open.
    public init(fd: Int32 = 0, timeout: Double? = nil) {
        self.fd = fd
        self.timeout = timeout
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteStreamError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        while true {
            if cancelled.load(ordering: .relaxed) { throw ByteStreamError(.cancelled, "reading was cancelled") }
            if let timeout {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min(timeout * 1000, 1_000_000_000).rounded(.up)))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 {
                    let shown = timeout == timeout.rounded() ? "\(Int(timeout))" : "\(timeout)"
                    throw ByteStreamError(.timedOut, "no data for \(shown) s; the input stalled")
                }
            }
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw .system("cannot read standard input", errno)
        }
    }

    /// Marks the stream cancelled; a read already waiting returns when its data or end arrives.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
