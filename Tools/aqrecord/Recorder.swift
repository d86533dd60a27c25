#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import Synchronization

/// The chapter's recorder state (section 2.1, `AQRecorderState`): the format, the file, the
/// packet index to write next, and whether the queue runs. The callbacks run one at a time on
/// the queue's callback queue, which alone touches `currentPacket`.
final class Recorder: @unchecked Sendable {
    let dataFormat: AudioStreamBasicDescription
    let file: AudioFileWriter
    private(set) var currentPacket: Int64 = 0
    /// `mIsRunning`: while true, the callback gives each buffer back to the queue.
    let isRunning = Atomic<Bool>(false)
    /// The first write that failed; recording stops.
    private let failureState = Mutex<AudioFileError?>(nil)
    /// Called once when a write fails.
    var onFailure: (@Sendable () -> Void)?

    init(dataFormat: AudioStreamBasicDescription, file: AudioFileWriter) {
        self.dataFormat = dataFormat
        self.file = file
    }

    var failure: AudioFileError? { failureState.withLock { $0 } }

    /// The input callback (sections 2.2 to 2.5, `HandleInputBuffer`): writes the buffer's
    /// packets to the file and enqueues the buffer again while recording.
    func handleInputBuffer(
        _ queue: AudioInputQueue, _ buffer: AudioQueueBuffer, _ startTime: AudioTimeStamp, _ packetCount: Int,
        _ descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
    ) {
        var packets = packetCount
        if packets == 0 && dataFormat.bytesPerPacket != 0 {
            packets = buffer.audioDataByteSize / Int(dataFormat.bytesPerPacket)
        }
        if packets > 0 {
            do {
                let written = try file.writePackets(
                    startingPacket: currentPacket, bytes: UnsafeRawBufferPointer(buffer.validData), descriptions: descriptions,
                    packetCount: packets)
                currentPacket += Int64(written)
            } catch {
                let first = failureState.withLock { f -> Bool in
                    defer { if f == nil { f = error } }
                    return f == nil
                }
                if first {
                    isRunning.store(false, ordering: .relaxed)
                    onFailure?()
                }
            }
        }
        guard isRunning.load(ordering: .relaxed) else { return }
        try? queue.enqueue(buffer)
    }
}

/// The chapter's `DeriveBufferSize` (section 2.6): bytes for `seconds` of audio, at most
/// 320 KiB. Unlike the listing, which assumes one frame per packet, it counts packets, so that
/// a buffer of IMA4 (64 frames a packet) also holds about `seconds`.
func deriveBufferSize(_ queue: AudioInputQueue, _ format: AudioStreamBasicDescription, seconds: Double) throws -> Int {
    let maxBufferSize = 0x50000
    var maxPacketSize = Int(format.bytesPerPacket)
    if maxPacketSize == 0 { maxPacketSize = try queue.maximumOutputPacketSize }
    if !format.isInterleaved { maxPacketSize *= Int(format.channelsPerFrame) }
    let framesPerPacket = max(1, Int(format.framesPerPacket))
    let packets = (format.sampleRate * seconds / Double(framesPerPacket)).rounded(.up)
    let bytes = packets * Double(maxPacketSize)
    return max(maxPacketSize, min(Int(bytes), maxBufferSize))
}

/// Copies the queue's magic cookie to the file (section 2.7, `SetMagicCookieForFile`), where
/// the format has one.
func setMagicCookie(from queue: AudioInputQueue, to file: AudioFileWriter) throws {
    guard let cookie = try queue.magicCookie, !cookie.isEmpty else { return }
    try file.setMagicCookie(cookie)
}
