import AudioCore
import AudioCodecs
import Dispatch
import Locking

/// The thread of ``ExtAudioFileWriter/writeAsync(frameCount:buffers:)``: copies of the frames
/// wait in order for a serial queue that writes them; an error there is reported by the next
/// call.
final class AsyncWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "ExtAudioFileWriter.async")
    private struct State {
        var pendingBytes = 0
        var error: ExtAudioFileError?
    }
    private let state = Guarded(State())
    /// The most bytes waiting before a write is refused with `asyncWriteBufferOverflow`.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Queues `copies` (`bytes` in all) for `body` on the writing thread.
    func submit(bytes: Int, _ body: @escaping @Sendable () throws(ExtAudioFileError) -> Void) throws(ExtAudioFileError) {
        try state.withLock { s throws(ExtAudioFileError) in
            if let error = s.error {
                s.error = nil
                throw error
            }
            guard s.pendingBytes + bytes <= limit else {
                throw ExtAudioFileError(.asyncWriteBufferOverflow, "\(s.pendingBytes) bytes still wait to be written")
            }
            s.pendingBytes += bytes
        }
        queue.async { [state] in
            var failure: ExtAudioFileError?
            do throws(ExtAudioFileError) { try body() } catch { failure = error }
            state.withLock { s in
                s.pendingBytes -= bytes
                if let failure, s.error == nil { s.error = failure }
            }
        }
    }

    /// Waits until everything queued is written; throws the first error the thread met.
    func wait() throws(ExtAudioFileError) {
        queue.sync {}
        try state.withLock { s throws(ExtAudioFileError) in
            if let error = s.error {
                s.error = nil
                throw error
            }
        }
    }
}

extension ExtAudioFileWriter {
    /// Writes `frameCount` frames on a thread of the writer's own (Apple's
    /// `ExtAudioFileWriteAsync`): the frames are copied and the call returns at once. The first
    /// call makes the thread; a call of 0 frames and no buffers does only that (Apple's
    /// `ExtAudioFileWriteAsync(file, 0, NULL)`, which programs make before a real-time thread
    /// writes). An error the thread met is thrown by the next call (or ``close()``).
    /// `asyncWriteBufferOverflow` when more than ten seconds of audio (at least 1 MiB) wait.
    public func writeAsync(frameCount: Int, buffers: [UnsafeRawBufferPointer]) throws(ExtAudioFileError) {
        let client = clientDataFormat
        if async == nil {
            let second = client.map { Int($0.sampleRate) * Int($0.bytesPerFrame) * $0.bufferCount } ?? 0
            async = AsyncWriter(limit: max(1 << 20, 10 * second))
        }
        guard frameCount > 0 else { return }
        guard let client else {
            throw ExtAudioFileError(.invalidOperationOrder, "an encoded file needs a client format before the first write")
        }
        let bytes = try Self.byteCount(of: frameCount, in: buffers, client: client)
        let copies = buffers.map { [UInt8](UnsafeRawBufferPointer(rebasing: $0[0..<bytes])) }
        let writer = UncheckedWriter(self)
        try async!.submit(bytes: bytes * copies.count) { () throws(ExtAudioFileError) in
            try writer.write(copies, frameCount: frameCount)
        }
        framesWritten += Int64(frameCount)
    }

    /// Waits for the writing thread before a call that writes here.
    func waitForAsync() throws(ExtAudioFileError) {
        try async?.wait()
    }

    /// Waits for the writing thread at close.
    func finishAsync() throws(ExtAudioFileError) {
        try async?.wait()
    }
}

/// The writer as the writing thread uses it: only there, while the caller's thread waits for
/// it (``ExtAudioFileWriter/waitForAsync()``) before touching the writer itself.
private struct UncheckedWriter: @unchecked Sendable {
    let writer: ExtAudioFileWriter
    init(_ writer: ExtAudioFileWriter) { self.writer = writer }

    func write(_ copies: [[UInt8]], frameCount: Int) throws(ExtAudioFileError) {
        var pointers: [UnsafeRawBufferPointer] = []
        var result: Result<Void, ExtAudioFileError> = .success(())
        func nest(_ i: Int) {
            if i == copies.count {
                do throws(ExtAudioFileError) {
                    try writer.writeNow(frameCount: frameCount, buffers: pointers, counting: false)
                } catch {
                    result = .failure(error)
                }
                return
            }
            copies[i].withUnsafeBytes { raw in
                pointers.append(raw)
                nest(i + 1)
            }
        }
        nest(0)
        try result.get()
    }
}
