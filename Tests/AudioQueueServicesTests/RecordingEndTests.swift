import Foundation
import Testing
import AudioCore
import AudioDevices
import AudioQueueServices
import AudioQueueKit

/// How a recording ends: a stop hands back every frame the device delivered before it, and an
/// encoder with a delay (AAC) gives out its last packets, so that the packets hold the whole
/// recording between the encoder's priming and the remainder that completes the last packet.
@Suite("The end of a recording")
struct RecordingEndTests {
    static let rate = 48000.0
    static let aac = AudioStreamBasicDescription(
        sampleRate: rate, formatID: .mpeg4AAC, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 1024,
        bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)

    /// An AAC queue recording `frames` frames of a music-like signal into `buffers` buffers of
    /// `packetsPerBuffer` of the encoder's largest packets each, stopped as `immediate` says;
    /// returns the queue (stopped) and what its callback got.
    func record(frames: Int, buffers: Int, packetsPerBuffer: Int, immediate: Bool, heldByDevice: Bool) throws
        -> (AudioInputQueue, InputRecorder)
    {
        AudioQueueKit.registerAll()
        let device = TestInputDevice(sampleRate: Self.rate, channels: 2, signal: TestInputDevice.musicLike(sampleRate: Self.rate))
        let recorder = InputRecorder()
        let queue = try AudioInputQueue(format: Self.aac, device: device, callback: recorder.callback)
        let largest = try queue.maximumOutputPacketSize
        for _ in 0..<buffers { try queue.enqueue(try queue.allocateBuffer(byteCapacity: largest * packetsPerBuffer)) }
        try queue.start()
        if heldByDevice {
            // The device still holds them when the stop comes: the stop drains it.
            device.holdUntilDrained(frames: frames)
        } else {
            #expect(device.push(frames: frames))
        }
        try queue.stop(immediate: immediate)
        #expect(eventually { queue.state == .stopped && !queue.isRunning })
        return (queue, recorder)
    }

    /// The packets hold the priming, every recorded frame and less than a packet of remainder.
    func expectWholeRecording(_ queue: AudioInputQueue, _ recorder: InputRecorder, frames: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let packets = recorder.deliveries.map(\.packetCount).reduce(0, +)
        let (leading, trailing) = try queue.primeInfo
        #expect(try queue.lostFrameCount == 0, sourceLocation: sourceLocation)
        // Apple's AAC encoder primes with 2112 frames; the remainder completes the last packet.
        #expect(leading == 2112, sourceLocation: sourceLocation)
        #expect((0..<1024).contains(trailing), "remainder \(trailing)", sourceLocation: sourceLocation)
        #expect(
            packets * 1024 == leading + frames + trailing,
            "\(packets) packets for \(frames) frames, \(leading) priming and \(trailing) remainder frames",
            sourceLocation: sourceLocation)
        for d in recorder.deliveries where d.packetCount > 0 {
            let descriptions = try #require(d.descriptions, sourceLocation: sourceLocation)
            #expect(descriptions.count == d.packetCount, sourceLocation: sourceLocation)
            #expect(descriptions.map { Int($0.dataByteSize) }.reduce(0, +) == d.bytes.count, sourceLocation: sourceLocation)
        }
    }

    /// Stopped at once or once what was recorded is in buffers, with room enough enqueued: not
    /// a frame short.
    @Test(arguments: [true, false])
    func aStopGivesOutTheEncodersLastPackets(immediate: Bool) throws {
        let (queue, recorder) = try record(frames: 24000, buffers: 4, packetsPerBuffer: 16, immediate: immediate, heldByDevice: false)
        try expectWholeRecording(queue, recorder, frames: 24000)
        try queue.dispose(immediate: true)
    }

    /// Buffers of two packets: what the encoder holds at the end spans several buffers, each
    /// handed back in turn. (Forty buffers take the whole recording without a callback's help.)
    @Test func theLastPacketsSpanSeveralBuffers() throws {
        let (queue, recorder) = try record(frames: 24000, buffers: 40, packetsPerBuffer: 2, immediate: false, heldByDevice: true)
        try expectWholeRecording(queue, recorder, frames: 24000)
        // The last buffers with packets come back after the recorded frames: more than one
        // holds packets of the encoder's end.
        let filled = recorder.deliveries.filter { $0.packetCount > 0 }
        #expect(filled.count > 24000 / 2048)
        try queue.dispose(immediate: true)
    }

    /// The same with an immediate stop: the frames the device had delivered go into the
    /// enqueued buffers, the encoder's end after them.
    @Test func anImmediateStopKeepsWhatTheDeviceDelivered() throws {
        let (queue, recorder) = try record(frames: 24000, buffers: 40, packetsPerBuffer: 2, immediate: true, heldByDevice: false)
        try expectWholeRecording(queue, recorder, frames: 24000)
        try queue.dispose(immediate: true)
    }
}
