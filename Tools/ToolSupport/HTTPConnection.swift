// A TCP connection with a receive buffer: connect with a time limit, send, read lines and bytes.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One TCP connection to an HTTP server, read through a 64 KiB buffer.
final class HTTPConnection: @unchecked Sendable {
    private let fd: Int32
    /// Seconds a read waits for the next bytes before failing.
    private let readTimeout: Double
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// Bytes received on this connection so far.
    private(set) var received: Int64 = 0
    private let cancelled = Atomic<Bool>(false)
    /// While set, the monotonic time (seconds) by which every read must be done: the response
    /// head has one time limit in all, so a server that sends a byte now and then cannot hold
    /// it open for ever.
    private var deadline: Double?
    private var deadlineWhat = ""

    /// Connects to `host`:`port` (every address the name resolves to, in order), each attempt
    /// limited to `connectTimeout` seconds.
    init(host: String, port: UInt16, connectTimeout: Double, readTimeout: Double) throws(ByteStreamError) {
        self.readTimeout = readTimeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            buffer.deallocate()
            let why = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw ByteStreamError(.hostNotFound, "cannot resolve host \(host): \(why)")
        }
        defer { freeaddrinfo(list) }
        var lastError = ByteStreamError(.hostNotFound, "no address for host \(host)")
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            do {
                fd = try Self.connect(info.pointee, timeout: connectTimeout, name: "\(host) port \(port)")
                return
            } catch {
                lastError = error
            }
        }
        buffer.deallocate()
        throw lastError
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    /// A socket connected to one address, blocking again once connected.
    private static func connect(_ info: addrinfo, timeout: Double, name: String) throws(ByteStreamError) -> Int32 {
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { throw .system("cannot create a socket", errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var result = Glibc.connect(fd, info.ai_addr, info.ai_addrlen)
        if result != 0 && errno == EINPROGRESS {
            switch waitFor(fd, events: POLLOUT, seconds: timeout) {
            case .ready:
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                errno = code
                result = code == 0 ? 0 : -1
            case .timedOut:
                close(fd)
                throw ByteStreamError(.timedOut, "connecting to \(name) timed out after \(seconds(timeout))")
            case .failed(let code):
                errno = code
                result = -1
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            switch code {
            case ECONNREFUSED: throw ByteStreamError(.connectionRefused, "connection refused by \(name)")
            case ETIMEDOUT: throw ByteStreamError(.timedOut, "connecting to \(name) timed out")
            default: throw .system("cannot connect to \(name)", code)
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        return fd
    }

    private enum Wait { case ready, timedOut, failed(Int32) }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Until ``endDeadline()``, all reads together must be done within `seconds`; past it they
    /// fail as timed out, naming `what`.
    func startDeadline(_ seconds: Double, for what: String) {
        deadline = Self.monotonicSeconds() + seconds
        deadlineWhat = what
    }

    /// Reads wait for each next bytes as long as the read time-out again.
    func endDeadline() { deadline = nil }

    /// Waits until `fd` is ready for `events`, at most `seconds`.
    private static func waitFor(_ fd: Int32, events: Int32, seconds: Double) -> Wait {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let limit = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + seconds
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = limit - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            if left <= 0 { return .timedOut }
            var poller = pollfd(fd: fd, events: Int16(events), revents: 0)
            let n = poll(&poller, 1, Int32(min(left * 1000, 1_000_000_000).rounded(.up)))
            if n > 0 { return .ready }
            if n == 0 { return .timedOut }
            if errno != EINTR { return .failed(errno) }
        }
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws(ByteStreamError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET || errno == EPIPE {
                    throw ByteStreamError(.connectionReset, "connection reset by the server while sending the request")
                }
                throw .system("cannot send the request", errno)
            }
            sent += n
        }
    }

    /// Receives more bytes into the buffer; false at the end of the connection.
    private func fill() throws(ByteStreamError) -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            // Move what is unread to the front.
            let unread = end - start
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: unread)
            start = 0
            end = unread
        }
        while true {
            if cancelled.load(ordering: .relaxed) { throw ByteStreamError(.cancelled, "reading was cancelled") }
            let wait = deadline.map { min(readTimeout, max(0, $0 - Self.monotonicSeconds())) } ?? readTimeout
            switch Self.waitFor(fd, events: POLLIN, seconds: wait) {
            case .ready: break
            case .timedOut where wait < readTimeout:
                throw ByteStreamError(.timedOut, "\(deadlineWhat) did not arrive within \(seconds(readTimeout)) (after \(received) bytes)")
            case .timedOut:
                throw ByteStreamError(.timedOut, "no data for \(seconds(readTimeout)) (after \(received) bytes); the server stalled")
            case .failed(let code): throw .system("cannot wait for data", code)
            }
            if cancelled.load(ordering: .relaxed) { throw ByteStreamError(.cancelled, "reading was cancelled") }
            let n = recv(fd, buffer.baseAddress! + end, buffer.count - end, 0)
            if n > 0 {
                end += n
                received += Int64(n)
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EINTR, EAGAIN: continue
            case ECONNRESET: throw ByteStreamError(.connectionReset, "connection reset by the server after \(received) bytes")
            default: throw .system("cannot read from the server", errno)
            }
        }
    }

    /// The next line without its CR LF (a bare LF ends one too); nil when the connection ends
    /// before any byte of it. A line longer than `limit` bytes is refused.
    func readLine(limit: Int) throws(ByteStreamError) -> String? {
        var line: [UInt8] = []
        while true {
            if start == end {
                guard try fill() else {
                    if line.isEmpty { return nil }
                    throw ByteStreamError(.truncated, "connection closed in the middle of a header line")
                }
            }
            let available = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            if let newline = available.firstIndex(of: 0x0A) {
                line += available[..<newline]
                start += newline + 1
                if line.last == 0x0D { line.removeLast() }
                guard line.count <= limit else { throw ByteStreamError(.badResponse, "a header line is longer than \(limit) bytes") }
                return String(decoding: line, as: UTF8.self)
            }
            line += available
            start = end
            guard line.count <= limit else { throw ByteStreamError(.badResponse, "a header line is longer than \(limit) bytes") }
        }
    }

    /// Reads up to `destination.count` bytes (from the buffer, else straight from the socket);
    /// 0 at the end of the connection.
    func read(into destination: UnsafeMutableRawBufferPointer) throws(ByteStreamError) -> Int {
        guard !destination.isEmpty else { return 0 }
        if start == end {
            guard try fill() else { return 0 }
        }
        let n = min(destination.count, end - start)
        destination.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: n)
        start += n
        return n
    }

    /// Wakes a read waiting on another thread; it and every later read fail as cancelled.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        shutdown(fd, Int32(SHUT_RDWR))
    }
}

/// `1 s`, `0.5 s`.
private func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
}
