public import AudioCore

/// A buffer of audio data owned by one audio queue (Apple's `AudioQueueBuffer`).
///
/// Allocate buffers with ``AudioQueue/allocateBuffer(byteCapacity:packetDescriptionCapacity:)``;
/// the queue frees them when it is disposed of. Fill ``audioData``, set ``audioDataByteSize``
/// (and, for VBR data, the packet descriptions), then enqueue. Between enqueueing and the
/// callback that hands it back, the buffer belongs to the queue: don't touch its memory.
public final class AudioQueueBuffer: @unchecked Sendable {
    /// Bytes ``audioData`` can hold (`mAudioDataBytesCapacity`).
    public let audioDataBytesCapacity: UInt32
    /// The buffer's memory (`mAudioData`), ``audioDataBytesCapacity`` bytes, 16-byte aligned.
    public let audioData: UnsafeMutableRawPointer
    /// Bytes of valid audio in ``audioData`` (`mAudioDataByteSize`).
    public var audioDataByteSize: UInt32 = 0
    /// Anything the program wants to attach (`mUserData`).
    public var userData: (any Sendable)?
    /// Packet descriptions the buffer can hold (`mPacketDescriptionCapacity`).
    public let packetDescriptionCapacity: UInt32
    /// The buffer's packet descriptions (`mPacketDescriptions`): ``packetDescriptionCapacity``
    /// entries; nil when allocated without any.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    /// Valid entries in ``packetDescriptions`` (`mPacketDescriptionCount`). Enqueueing without
    /// explicit descriptions uses these.
    public var packetDescriptionCount: UInt32 = 0

    /// The whole capacity as a buffer pointer.
    public var data: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: audioData, count: Int(audioDataBytesCapacity))
    }

    /// The valid bytes (the first ``audioDataByteSize``, at most the capacity).
    public var validData: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: audioData, count: Int(min(audioDataByteSize, audioDataBytesCapacity)))
    }

    /// The packet descriptions' whole capacity as a buffer pointer (empty without any).
    public var packetDescriptionBuffer: UnsafeMutableBufferPointer<AudioStreamPacketDescription> {
        UnsafeMutableBufferPointer(start: packetDescriptions, count: packetDescriptions == nil ? 0 : Int(packetDescriptionCapacity))
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

    init(owner: UInt64, capacity: UInt32, packetDescriptionCapacity: UInt32) {
        self.owner = owner
        audioDataBytesCapacity = capacity
        audioData = .allocate(byteCount: max(Int(capacity), 1), alignment: 16)
        audioData.initializeMemory(as: UInt8.self, repeating: 0, count: max(Int(capacity), 1))
        self.packetDescriptionCapacity = packetDescriptionCapacity
        if packetDescriptionCapacity > 0 {
            let p = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: Int(packetDescriptionCapacity))
            p.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0), count: Int(packetDescriptionCapacity))
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
