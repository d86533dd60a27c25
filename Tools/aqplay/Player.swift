import AudioQueueKit
import Dispatch
import Synchronization

/// Buffers per queue (Listing 3-1's `kNumberBuffers`).
let numberOfBuffers = 3

/// Listing 3-7's `DeriveBufferSize`: a buffer size, in bytes, big enough for `seconds` of
/// audio, between 16 KiB and 320 KiB unless one packet is bigger, and how many packets of
/// at most `maxPacketSize` bytes to read into it per callback.
///
/// Apple's function can return 0 packets when one packet lasts longer than `seconds`; here a
/// buffer always holds at least one packet.
func deriveBufferSize(
    _ format: AudioStreamBasicDescription, maxPacketSize: Int, seconds: Double
) -> (bufferByteSize: Int, numPacketsToRead: Int) {
    let maxBufferSize = 0x50000  // 320 KiB
    let minBufferSize = 0x4000  // 16 KiB
    let maxPacketSize = max(maxPacketSize, 1)
    var size: Int
    if format.framesPerPacket != 0 {
        let numPacketsForTime = format.sampleRate / Double(format.framesPerPacket) * seconds
        size = Int(min(numPacketsForTime * Double(maxPacketSize), Double(UInt32.max)))
    } else {
        size = max(maxBufferSize, maxPacketSize)
    }
    if size > maxBufferSize && size > maxPacketSize {
        size = maxBufferSize
    } else if size < minBufferSize {
        size = minBufferSize
    }
    size = max(size, maxPacketSize)
    return (size, size / maxPacketSize)
}

/// The playback state (Listing 3-1's `AQPlayerState`, with QA1636's looping) and the output
/// callback (Listing 3-6) that refills each buffer from the file.
///
/// The queue runs the callback on its own serial callback queue, one call at a time; the
/// program also calls it directly to prime the buffers before starting, and the main thread
/// reads the outcome while callbacks may still run. The mutable state therefore lives in a
/// `Mutex`, which the callback holds for the whole of each call.
final class Player: Sendable {
    /// The file being played.
    let file: AudioFile
    /// Packets read per callback (`mNumPacketsToRead`).
    let numPacketsToRead: Int
    /// Bytes per buffer (`bufferByteSize`).
    let bufferByteSize: Int
    /// True when buffers carry packet descriptions: VBR data, or a file that describes its
    /// packets one by one.
    let usesPacketDescriptions: Bool
    /// Plays in all; 0 for endless looping.
    let plays: Int
    /// Frames the encoder added before the audio (QA1636), trimmed at the start of every play.
    let primingFrames: Int
    /// Frames that pad the last packet, trimmed at the end of every play.
    let remainderFrames: Int
    /// Set by the SIGINT handler.
    let interrupted = Atomic<Bool>(false)
    /// What the main thread waits on: signalled when the queue has stopped, on Ctrl-C and when
    /// the callback fails, so that the main thread need not look in now and then.
    let wake = DispatchSemaphore(value: 0)

    private struct State {
        /// The next packet to read (`mCurrentPacket`).
        var currentPacket: Int64 = 0
        /// Plays still to start after the current one (unused when looping endlessly).
        var playsLeft: Int
        /// Priming frames still to trim: all of them at the start of a play, the rest when the
        /// first buffer holds fewer frames than the priming.
        var primingLeft: Int
        /// True once the last packet is enqueued and the queue was told to stop, or after a
        /// failure (Listing 3-1's `mIsRunning`, inverted).
        var done = false
        /// What went wrong reading or enqueueing, if anything.
        var failure: (any Error)?
    }

    private let state: Mutex<State>

    init(file: AudioFile, plays: Int) {
        self.file = file
        self.plays = plays
        let format = file.dataFormat
        let sizes = deriveBufferSize(format, maxPacketSize: file.packetSizeUpperBound, seconds: 0.5)
        bufferByteSize = sizes.bufferByteSize
        numPacketsToRead = sizes.numPacketsToRead
        let isFormatVBR = format.bytesPerPacket == 0 || format.framesPerPacket == 0
        usesPacketDescriptions = isFormatVBR || file.needsDescriptions
        let table = file.packetTableInfo
        primingFrames = max(0, Int(table?.primingFrames ?? 0))
        remainderFrames = max(0, Int(table?.remainderFrames ?? 0))
        state = Mutex(State(playsLeft: plays - 1, primingLeft: primingFrames))
    }

    /// True once the end of the last play is enqueued (or playback failed).
    var isDone: Bool { state.withLock { $0.done } }

    /// The error that ended playback early, if any.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// Stops refilling buffers (before an immediate stop, whose callbacks must not re-enqueue).
    func finish() {
        state.withLock { $0.done = true }
    }

    /// The output callback (Listing 3-6 and QA1636's Listing 3): reads the next packets into
    /// `buffer` and enqueues it with the priming and remainder frames to trim; at the end of
    /// the file, starts the next play from packet 0, or stops the queue asynchronously.
    func handleOutputBuffer(_ queue: AudioQueue, _ buffer: AudioQueueBuffer) {
        state.withLock { s in
            guard !s.done else { return }
            do {
                var (byteCount, packetCount) = try read(from: s.currentPacket, into: buffer)
                if packetCount == 0 && s.currentPacket > 0 && (plays == 0 || s.playsLeft > 0) {
                    // The end of a play that is not the last: back to the first packet.
                    if plays != 0 { s.playsLeft -= 1 }
                    s.currentPacket = 0
                    s.primingLeft = primingFrames
                    (byteCount, packetCount) = try read(from: 0, into: buffer)
                }
                guard packetCount > 0 else {
                    // Everything is enqueued: play it out, then stop (Listing 3-5).
                    s.done = true
                    try queue.stop(immediate: false)
                    return
                }
                let frames = frameCount(of: buffer, packets: packetCount, bytes: byteCount)
                // The priming is trimmed from the first buffer of a play; whatever that buffer
                // cannot cover is trimmed from the next ones. Unknown frame counts trim it all.
                let trimStart = frames.map { min(s.primingLeft, $0) } ?? s.primingLeft
                s.primingLeft -= trimStart
                s.currentPacket += Int64(packetCount)
                var trimEnd = 0
                if s.currentPacket == file.packetCount {
                    trimEnd = frames.map { min(remainderFrames, $0 - trimStart) } ?? remainderFrames
                }
                buffer.audioDataByteSize = byteCount
                buffer.packetDescriptionCount = usesPacketDescriptions && file.needsDescriptions ? packetCount : 0
                try queue.enqueue(buffer, packetDescriptions: nil, trimFramesAtStart: trimStart, trimFramesAtEnd: trimEnd)
            } catch {
                s.failure = error
                s.done = true
                wake.signal()
            }
        }
    }

    /// Reads up to ``numPacketsToRead`` packets from `packet` on into the buffer's memory and,
    /// when it has them, its packet descriptions (Listing 3-3).
    private func read(from packet: Int64, into buffer: AudioQueueBuffer) throws(AudioFileError) -> (Int, Int) {
        let descriptions = buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer
        return try file.readPackets(from: packet, count: numPacketsToRead, into: buffer.data, descriptions: descriptions)
    }

    /// Frames the packets just read decode to.
    private func frameCount(of buffer: AudioQueueBuffer, packets: Int, bytes: Int) -> Int? {
        aqplay.frameCount(
            format: file.dataFormat, packets: packets, bytes: bytes,
            descriptions: file.needsDescriptions ? buffer.packetDescriptions : nil)
    }
}

/// Frames `packets` packets of `bytes` bytes decode to: per packet from the descriptions where
/// they say, else the format's frames per packet; nil when neither knows.
func frameCount(
    format: AudioStreamBasicDescription, packets: Int, bytes: Int, descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
) -> Int? {
    if format.isPCM && format.bytesPerFrame > 0 { return bytes / Int(format.bytesPerFrame) }
    let perPacket = Int(format.framesPerPacket)
    if let descriptions {
        var frames = 0
        for i in 0..<packets {
            let variable = Int(descriptions[i].variableFramesInPacket)
            guard variable > 0 || perPacket > 0 else { return nil }
            frames += variable > 0 ? variable : perPacket
        }
        return frames
    }
    return perPacket > 0 ? packets * perPacket : nil
}
