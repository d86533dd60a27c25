#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import AudioCore

/// A file open for writing through `pwrite`, with one buffer that gathers appended bytes into
/// large writes. Not thread-safe: ``AudioFileWriter`` holds it under its lock.
struct FileSink {
    let path: String
    private(set) var descriptor: Int32
    /// Appended bytes not yet written; they belong at `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart: Int64 = 0

    /// Appends gather up to this many bytes before they are written; larger appends go straight
    /// to the file.
    static let gatherSize = 1 << 18

    /// Creates the file at `path`: truncates an existing file when `erase` is set, else refuses
    /// it with `dupFNErr` as `AudioFileCreateWithURL` does.
    init(creating path: String, erase: Bool) throws(AudioFileError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (erase ? O_TRUNC : O_EXCL)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST {
                throw AudioFileError(.duplicateFileName, "\(path) exists; pass eraseFile to replace it")
            }
            if code == EISDIR {
                throw AudioFileError(.permissions, "\(path) is a directory")
            }
            throw FileByteSource.error(code, path)
        }
        self.path = path
        descriptor = fd
        pending.reserveCapacity(Self.gatherSize)
    }

    var isOpen: Bool { descriptor >= 0 }

    /// Bytes waiting in the buffer.
    var pendingCount: Int { pending.count }

    /// Writes `bytes` at `offset`; bytes that continue the previous append are gathered.
    mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        guard !bytes.isEmpty else { return }
        if !pending.isEmpty && offset != pendingStart + Int64(pending.count) { try flush() }
        if pending.count + bytes.count > Self.gatherSize { try flush() }
        if bytes.count >= Self.gatherSize {
            try write(bytes, at: offset)
            return
        }
        if pending.isEmpty { pendingStart = offset }
        pending.append(contentsOf: bytes)
    }

    /// Writes whatever the buffer holds.
    mutating func flush() throws(AudioFileError) {
        guard !pending.isEmpty else { return }
        let start = pendingStart
        let path = self.path, fd = descriptor
        try pending.withBytes { raw throws(AudioFileError) in try Self.writeAll(fd, raw, at: start, path: path) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` at `offset` now, after what the buffer holds.
    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        try flush()
        try Self.writeAll(descriptor, bytes, at: offset, path: path)
    }

    /// Writes `bytes` at `offset` now.
    mutating func write(_ bytes: [UInt8], at offset: Int64) throws(AudioFileError) {
        try bytes.withBytes { raw throws(AudioFileError) in try write(raw, at: offset) }
    }

    /// Sets the file's length.
    func truncate(to length: Int64) throws(AudioFileError) {
        while ftruncate(descriptor, off_t(length)) != 0 {
            if errno != EINTR { throw FileByteSource.error(errno, path) }
        }
    }

    /// Closes the file descriptor (what the buffer holds is lost: flush first).
    mutating func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
        pending = []
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64, path: String) throws(AudioFileError) {
        guard fd >= 0 else { throw AudioFileError(.notOpen, "\(path) is closed") }
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileByteSource.error(errno, path)
            }
            done += n
        }
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
