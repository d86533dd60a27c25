#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCore
import Locking

/// Random-access bytes an ``AudioFileFormat`` parses: a file, or memory.
///
/// Reads may come from several threads at once; a conformer must allow that.
public protocol AudioByteSource: Sendable {
    /// Total bytes available.
    var size: Int64 { get }
    /// Copies up to `buffer.count` bytes starting at `offset` into `buffer` and returns how many
    /// were copied: fewer only at the end of the source.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int
}

extension AudioByteSource {
    /// Reads exactly `count` bytes at `offset`, or throws `invalidFile` naming `chunk` when the
    /// source ends first. `count` must already be checked against ``size`` by the caller when it
    /// comes from file data; this function also refuses ranges beyond the source.
    func bytes(at offset: Int64, count: Int, chunk: String) throws(AudioFileError) -> [UInt8] {
        try checkRange(at: offset, count: count, chunk: chunk)
        var result = [UInt8](repeating: 0, count: count)
        try result.withMutableBytes { buffer throws(AudioFileError) in try read(at: offset, filling: buffer, chunk: chunk) }
        return result
    }

    /// Fills `buffer` with the bytes at `offset`, with the checks and errors of
    /// ``bytes(at:count:chunk:)``.
    func read(at offset: Int64, filling buffer: UnsafeMutableRawBufferPointer, chunk: String) throws(AudioFileError) {
        try checkRange(at: offset, count: buffer.count, chunk: chunk)
        let got = try read(at: offset, into: buffer)
        guard got == buffer.count else {
            throw AudioFileError(.invalidFile, "short read: \(got) of \(buffer.count) bytes", chunk: chunk, offset: offset)
        }
    }

    private func checkRange(at offset: Int64, count: Int, chunk: String) throws(AudioFileError) {
        guard count >= 0, offset >= 0, offset <= size, Int64(count) <= size - offset else {
            throw AudioFileError(
                .invalidFile, "\(count) bytes at offset \(offset) run past the end of the file (\(size) bytes)",
                chunk: chunk, offset: offset)
        }
    }

    /// Reads up to `count` bytes at `offset` (fewer at the end of the source).
    func prefix(_ count: Int) throws(AudioFileError) -> [UInt8] {
        let n = Int(min(Int64(count), size))
        return try bytes(at: 0, count: n, chunk: "header")
    }
}

/// Bytes held in memory: for parsing data that is already loaded, and for tests.
public struct MemoryByteSource: AudioByteSource {
    /// The bytes.
    public let storage: [UInt8]
    /// A source over `bytes`.
    public init(_ bytes: [UInt8]) { storage = bytes }
    public var size: Int64 { Int64(storage.count) }
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        guard offset >= 0 else { throw AudioFileError(.position, "negative offset \(offset)") }
        guard offset < size else { return 0 }
        let n = min(buffer.count, storage.count - Int(offset))
        storage.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + Int(offset), byteCount: n)
        }
        return n
    }
}

/// A file opened read-only; reads use `pread`, so any thread may read at any offset.
public final class FileByteSource: AudioByteSource {
    private let descriptor: Guarded<Int32>
    public let size: Int64
    /// The path the file was opened from.
    public let path: String

    /// Opens `path` for reading.
    public init(path: String) throws(AudioFileError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(errno, path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let e = errno
            _ = Glibc.close(fd)
            throw Self.error(e, path)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            _ = Glibc.close(fd)
            throw AudioFileError(.invalidFile, "\(path) is a directory")
        }
        descriptor = Guarded(fd)
        size = Int64(info.st_size)
    }

    deinit { close() }

    /// Closes the file; reads after this throw `notOpen`.
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 {
                _ = Glibc.close(fd)
                fd = -1
            }
        }
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        guard offset >= 0 else { throw AudioFileError(.position, "negative offset \(offset)") }
        let fd = descriptor.withLock { $0 }
        guard fd >= 0 else { throw AudioFileError(.notOpen, "file \(path) is closed") }
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, path)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    static func error(_ code: Int32, _ path: String) -> AudioFileError {
        let text = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR: return AudioFileError(.fileNotFound, "\(path): \(text)")
        case EACCES, EPERM: return AudioFileError(.permissions, "\(path): \(text)")
        default: return AudioFileError(.unspecified, "\(path): \(text)")
        }
    }
}
