public import AudioCore

/// A buffer of audio data owned by one audio queue (Apple's `AudioQueueBuffer`).
///
/// Allocate buffers with ``AudioQueue/allocateBuffer(byteCapacity:packetDescriptionCapacity:)``;
/// the queue frees them when it is disposed of. Fill ``audioData``, set ``audioDataByteSize``
/// (and, for VBR data, the packet descriptions), then enqueue. Between enqueueing and the
/// callback that hands it back, the buffer belongs to the queue: don't touch its memory.
///
/// Without pointers: ``fill(with:packetDescriptions:)`` copies bytes or samples in,
/// ``bytes`` and ``samples(as:)`` copy them out, ``packets`` views the packet descriptions as a
/// collection, and ``withContents(_:)`` lends the valid bytes as a `RawSpan` without copying.
///
/// Sizes and counts are `Int` (Apple's `UInt32` fields are `Int` here; the C API's
/// `AudioQueueBuffer` struct keeps them `UInt32`). A size outside `0...capacity` set by the
/// program is refused when the buffer is enqueued, never trusted.
///
/// `@unchecked Sendable`: the buffer's memory is handed back and forth between the program and
/// the queue, and the compiler cannot see that hand-over. The rule that makes it sound is the
/// one above — the program touches the buffer only while it holds it (before enqueueing, and
/// inside the callback that hands it back); the queue only while it is enqueued. See
/// <doc:Threading>.
public final class AudioQueueBuffer: @unchecked Sendable {
    /// Bytes ``audioData`` can hold (`mAudioDataBytesCapacity`).
    public let audioDataBytesCapacity: Int
    /// The buffer's memory (`mAudioData`), ``audioDataBytesCapacity`` bytes, 16-byte aligned.
    public let audioData: UnsafeMutableRawPointer
    /// Bytes of valid audio in ``audioData`` (`mAudioDataByteSize`).
    public var audioDataByteSize: Int = 0
    /// Anything the program wants to attach (`mUserData`).
    public var userData: (any Sendable)?
    /// Packet descriptions the buffer can hold (`mPacketDescriptionCapacity`).
    public let packetDescriptionCapacity: Int
    /// The buffer's packet descriptions (`mPacketDescriptions`): ``packetDescriptionCapacity``
    /// entries; nil when allocated without any.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    /// Valid entries in ``packetDescriptions`` (`mPacketDescriptionCount`). Enqueueing without
    /// explicit descriptions uses these.
    public var packetDescriptionCount: Int = 0

    /// The whole capacity as a buffer pointer.
    public var data: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: audioData, count: audioDataBytesCapacity)
    }

    /// The valid bytes (the first ``audioDataByteSize``, at most the capacity).
    public var validData: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: audioData, count: validByteCount)
    }

    /// The packet descriptions' whole capacity as a buffer pointer (empty without any).
    public var packetDescriptionBuffer: UnsafeMutableBufferPointer<AudioStreamPacketDescription> {
        UnsafeMutableBufferPointer(start: packetDescriptions, count: packetDescriptions == nil ? 0 : packetDescriptionCapacity)
    }

    /// ``audioDataByteSize`` clamped to `0...audioDataBytesCapacity`.
    var validByteCount: Int { min(max(audioDataByteSize, 0), audioDataBytesCapacity) }

    /// ``packetDescriptionCount`` clamped to `0...packetDescriptionCapacity` (0 without any).
    var validDescriptionCount: Int {
        packetDescriptions == nil ? 0 : min(max(packetDescriptionCount, 0), packetDescriptionCapacity)
    }

    // Owned by the queue's lock.
    let owner: UInt64
    var state: State = .idle

    enum State {
        /// With the program.
        case idle
        /// In the buffer queue (or being decoded).
        case enqueued
        /// Finished with; waiting for its callback.
        case completed
        /// Inside its callback (where it may be re-enqueued or freed).
        case inCallback
        /// Freed or its queue disposed of.
        case freed
    }

    init(owner: UInt64, capacity: Int, packetDescriptionCapacity: Int) {
        self.owner = owner
        audioDataBytesCapacity = capacity
        audioData = .allocate(byteCount: max(capacity, 1), alignment: 16)
        audioData.initializeMemory(as: UInt8.self, repeating: 0, count: max(capacity, 1))
        self.packetDescriptionCapacity = packetDescriptionCapacity
        if packetDescriptionCapacity > 0 {
            let p = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: packetDescriptionCapacity)
            p.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0), count: packetDescriptionCapacity)
            packetDescriptions = p
        } else {
            packetDescriptions = nil
        }
    }

    deinit {
        audioData.deallocate()
        packetDescriptions?.deallocate()
    }
}
