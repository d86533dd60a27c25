#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import Dispatch
import Synchronization
import ToolSupport

/// The chapter's buffer count (section 2.1, `kNumberBuffers`).
let numberOfBuffers = 3

/// Records into `path` until Ctrl-C or `duration` seconds, as the chapter's sections 2.8 to
/// 2.15 do; returns the exit status.
func record(to path: String, type: AudioFileType, format asked: AudioStreamBasicDescription, duration: Double?, device: String?) throws -> Int32 {
    // The queue (section 2.9), its callbacks on a serial queue of its own. The recorder is
    // made once the queue has said the complete format (section 2.10).
    let box = RecorderBox()
    let queue = try AudioInputQueue(format: asked, callbackQueue: nil, device: nil) { queue, buffer, start, packets, descriptions in
        box.recorder?.handleInputBuffer(queue, buffer, start, packets, descriptions)
    }
    defer { try? queue.dispose(immediate: true) }
    if let device { try queue.setCurrentDevice(device) }
    let dataFormat = queue.streamDescription

    // The file (section 2.11), replacing one that exists.
    let file = try AudioFileWriter(path: path, type: type, format: dataFormat, flags: .eraseFile)
    let recorder = Recorder(dataFormat: dataFormat, file: file)
    box.recorder = recorder

    // Buffers of half a second (sections 2.12 and 2.13), and the cookie before recording (2.7).
    let bufferByteSize = try deriveBufferSize(queue, dataFormat, seconds: 0.5)
    try setMagicCookie(from: queue, to: file)
    for _ in 0..<numberOfBuffers {
        try queue.enqueue(try queue.allocateBuffer(byteCapacity: bufferByteSize))
    }

    let showStatus = isatty(STDERR_FILENO) != 0
    if showStatus { try queue.setLevelMeteringEnabled(true) }

    // The main thread waits on this: Ctrl-C, the duration, a failed write and the queue
    // stopping by itself (its device failed) all signal it.
    let wake = DispatchSemaphore(value: 0)
    let interrupted = Atomic<Bool>(false)
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    interrupt.setEventHandler {
        interrupted.store(true, ordering: .relaxed)
        wake.signal()
    }
    interrupt.resume()
    defer { interrupt.cancel() }
    recorder.onFailure = { wake.signal() }
    let stopped = DispatchSemaphore(value: 0)
    try queue.addPropertyListener(.isRunning) { q, _ in
        if !q.isRunning {
            stopped.signal()
            wake.signal()
        }
    }

    // Record (section 2.14).
    recorder.isRunning.store(true, ordering: .relaxed)
    try queue.start()
    let info = queue.currentDeviceInfo
    print("recording from \(info?.uid ?? "the default input")" + (info?.note.map { " (\($0))" } ?? "") + " into \(path)")
    fflush(nil)

    var status = StatusLine(enabled: showStatus)
    let started = DispatchTime.now()
    let deadline = duration.map { started + .nanoseconds(Int($0 * 1e9)) }
    while true {
        let now = DispatchTime.now()
        if let deadline, now >= deadline { break }
        // Without a status line to redraw, nothing but the deadline or a signal needs the
        // main thread.
        var next = showStatus ? now + .milliseconds(100) : DispatchTime.distantFuture
        if let deadline, deadline < next { next = deadline }
        _ = wake.wait(timeout: next)
        if interrupted.load(ordering: .relaxed) || recorder.failure != nil || queue.state == .stopped { break }
        if showStatus {
            let seconds = Double(now.uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            let levels = (try? queue.currentLevelMeterDB()).map { "  " + meterBars($0) } ?? ""
            status.show("recording \(clock(seconds))" + levels)
        }
    }
    status.end()

    // Stop (section 2.15): asynchronously, so that everything recorded until now is written;
    // the callback keeps enqueueing until the queue has stopped.
    let deviceFailed = queue.state == .stopped
    if !deviceFailed {
        try queue.stop(immediate: false)
        _ = stopped.wait(timeout: .now() + 10)
    }
    recorder.isRunning.store(false, ordering: .relaxed)
    let lost = try queue.lostFrameCount
    let deviceError = queue.converterError
    // The cookie again, since some encoders update it when they stop (section 2.7).
    try setMagicCookie(from: queue, to: file)
    // An encoder's priming and the silence that completed its last packet (AAC): the packet
    // table says which frames are the recording, so it plays and loops without them.
    let prime = try queue.primeInfo
    if prime.leadingFrames > 0 || prime.trailingFrames > 0, dataFormat.framesPerPacket > 0 {
        let frames = file.packetCount * Int64(dataFormat.framesPerPacket)
        try? file.setPacketTableInfo(AudioFilePacketTableInfo(
            numberValidFrames: max(0, frames - Int64(prime.leadingFrames) - Int64(prime.trailingFrames)),
            primingFrames: Int32(prime.leadingFrames), remainderFrames: Int32(prime.trailingFrames)))
    }
    try queue.dispose(immediate: true)
    if let failure = recorder.failure {
        try? file.close()
        throw failure
    }
    try file.close()
    let frames = file.packetTableInfo?.numberValidFrames ?? file.totalFrames
    print("recorded \(frames) frames (\(clock(Double(frames) / dataFormat.sampleRate))) to \(path)")
    if lost > 0 {
        printError("aqrecord: warning: \(lost) frames were lost: buffers were not given back in time")
    }
    if deviceFailed && !interrupted.load(ordering: .relaxed) {
        printError("aqrecord: \(info?.uid ?? "the input device") stopped: \(deviceError == AudioQueueError.Code.queueInvalidated.rawValue ? "the device failed" : "error \(deviceError)") (\(deviceError))")
        return 1
    }
    return 0
}

/// Holds the recorder for the queue's callback, which is made before it.
final class RecorderBox: @unchecked Sendable {
    var recorder: Recorder?
}
