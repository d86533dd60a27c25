#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import AudioCore

/// Storage an ``AudioFileWriter`` writes a file into: a file descriptor (``FileDescriptorSink``)
/// or a program's own storage (the C API's `AudioFileInitializeWithCallbacks` calls the
/// program's write and set-size procedures through one).
///
/// The writer calls a sink from one thread at a time, under its lock.
public protocol AudioByteSink: AnyObject, Sendable {
    /// What errors name the storage by: a path, or a description.
    var name: String { get }
    /// Writes all of `bytes` at `offset`, extending the storage as needed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError)
    /// Sets the storage's length: the writer sets it to 0 before the header and to the file's
    /// end at close.
    func setSize(_ size: Int64) throws(AudioFileError)
    /// Releases the storage; the writer calls it once, at close or when creation fails.
    func close()
}

/// A file open for writing through `pwrite`.
public final class FileDescriptorSink: AudioByteSink, @unchecked Sendable {
    public let name: String
    /// The descriptor; -1 once closed. Changed only by ``close()``, under the writer's lock.
    private var descriptor: Int32

    /// Creates the file at `path`: truncates an existing file when `erase` is set, else refuses
    /// it with `duplicateFileName` (`dupFNErr`) as `AudioFileCreateWithURL` does.
    public init(creating path: String, erase: Bool) throws(AudioFileError) {
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
        name = path
        descriptor = fd
    }

    /// Opens the existing file at `path` for reading and writing, to append to it.
    public init(openingExisting path: String) throws(AudioFileError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw FileByteSource.error(errno, path) }
        name = path
        descriptor = fd
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        guard descriptor >= 0 else { throw AudioFileError(.notOpen, "\(name) is closed") }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileByteSource.error(errno, name)
            }
            done += n
        }
    }

    public func setSize(_ size: Int64) throws(AudioFileError) {
        while ftruncate(descriptor, off_t(size)) != 0 {
            if errno != EINTR { throw FileByteSource.error(errno, name) }
        }
    }

    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }
}

/// The writer's view of its ``AudioByteSink``, with one buffer that gathers appended bytes into
/// large writes. Not thread-safe: ``AudioFileWriter`` holds it under its lock.
struct FileSink {
    let storage: any AudioByteSink
    private(set) var isOpen = true
    /// Appended bytes not yet written; they belong at `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart: Int64 = 0

    /// Appends gather up to this many bytes before they are written; larger appends go straight
    /// to the storage.
    static let gatherSize = 1 << 18

    init(_ storage: any AudioByteSink) {
        self.storage = storage
        pending.reserveCapacity(Self.gatherSize)
    }

    /// The storage's name for errors.
    var path: String { storage.name }

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

    /// Appends `bytes` at `offset` as ``append(_:at:)-(UnsafeRawBufferPointer,_)`` does.
    mutating func append(_ bytes: [UInt8], at offset: Int64) throws(AudioFileError) {
        try bytes.withBytes { raw throws(AudioFileError) in try append(raw, at: offset) }
    }

    /// Writes whatever the buffer holds.
    mutating func flush() throws(AudioFileError) {
        guard !pending.isEmpty else { return }
        try checkOpen()
        let start = pendingStart, storage = self.storage
        try pending.withBytes { raw throws(AudioFileError) in try storage.write(raw, at: start) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` at `offset` now, after what the buffer holds.
    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        try flush()
        try checkOpen()
        try storage.write(bytes, at: offset)
    }

    /// Writes `bytes` at `offset` now.
    mutating func write(_ bytes: [UInt8], at offset: Int64) throws(AudioFileError) {
        try bytes.withBytes { raw throws(AudioFileError) in try write(raw, at: offset) }
    }

    /// Sets the storage's length.
    func truncate(to length: Int64) throws(AudioFileError) {
        try checkOpen()
        try storage.setSize(length)
    }

    /// Closes the storage (what the buffer holds is lost: flush first).
    mutating func close() {
        guard isOpen else { return }
        storage.close()
        isOpen = false
        pending = []
    }

    private func checkOpen() throws(AudioFileError) {
        guard isOpen else { throw AudioFileError(.notOpen, "\(path) is closed") }
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
