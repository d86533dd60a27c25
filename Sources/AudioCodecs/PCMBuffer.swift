public import AudioCore

/// Linear PCM in memory: a format, a capacity in frames and how many frames are valid
/// (what Apple's `AVAudioPCMBuffer` and an audio queue buffer of PCM hold).
///
/// The memory is allocated once, 16-byte aligned, and never moves, so decoders, converters,
/// the queue and devices pass the same buffer around without copying. Interleaved formats use
/// one region; non-interleaved formats use one region per channel, back to back.
/// A buffer is used by one thread at a time; hand it over, don't share it.
public final class PCMBuffer: @unchecked Sendable {
    /// The sample format; always linear PCM.
    public let format: AudioStreamBasicDescription
    /// Frames the buffer can hold.
    public let frameCapacity: Int
    /// Frames holding audio, from the start; kept within 0…``frameCapacity`` (a value outside is
    /// clamped rather than trapping).
    public var frameLength: Int {
        didSet { if frameLength < 0 || frameLength > frameCapacity { frameLength = min(max(frameLength, 0), frameCapacity) } }
    }
    private let storage: UnsafeMutableRawPointer
    /// Bytes in one channel region (non-interleaved) or the whole buffer (interleaved).
    public let bytesPerRegion: Int

    /// A buffer of `frameCapacity` frames of `format`, zero-filled. Returns nil when the format
    /// is not linear PCM or the size does not fit in memory.
    public init?(format: AudioStreamBasicDescription, frameCapacity: Int) {
        guard format.isPCM, format.bytesPerFrame > 0, format.channelsPerFrame > 0, frameCapacity >= 0 else { return nil }
        let (region, overflow) = frameCapacity.multipliedReportingOverflow(by: Int(format.bytesPerFrame))
        let regions = format.isInterleaved ? 1 : Int(format.channelsPerFrame)
        guard !overflow, !region.multipliedReportingOverflow(by: regions).overflow else { return nil }
        self.format = format
        self.frameCapacity = frameCapacity
        self.frameLength = 0
        bytesPerRegion = region
        let total = max(region * regions, 16)
        storage = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: total)
    }

    deinit { storage.deallocate() }

    /// Number of separate regions: 1 for interleaved data, else one per channel.
    public var regionCount: Int { format.isInterleaved ? 1 : Int(format.channelsPerFrame) }

    /// The whole capacity of region `index` (a channel for non-interleaved data); empty for an
    /// index that is not a region.
    public func region(_ index: Int = 0) -> UnsafeMutableRawBufferPointer {
        guard index >= 0 && index < regionCount else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
        return UnsafeMutableRawBufferPointer(start: storage + index * bytesPerRegion, count: bytesPerRegion)
    }

    /// Bytes of valid audio in each region.
    public var byteLength: Int { frameLength * Int(format.bytesPerFrame) }

    /// Bytes of free space after the valid frames in region `index`.
    public func freeSpace(_ index: Int = 0) -> UnsafeMutableRawBufferPointer {
        let r = region(index)
        return UnsafeMutableRawBufferPointer(rebasing: r[byteLength...])
    }

    /// Frames that still fit.
    public var framesFree: Int { frameCapacity - frameLength }

    /// Sets every byte of every region to zero (silence for signed and float formats).
    public func zero() {
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRegion * regionCount)
    }
}
