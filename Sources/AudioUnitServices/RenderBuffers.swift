public import AudioCore

// The render call's buffers and time stamp are Apple's C structures (`AudioBufferList`,
// `AudioTimeStamp`), read and written in place through these views: a C program's buffers
// reach a Swift unit, and a Swift unit's reach a C callback, without a copy or an allocation.

/// One buffer of an ``AudioBufferListPointer``: Apple's `AudioBuffer`.
public struct AudioUnitBuffer: Sendable {
    /// Interleaved channels in the buffer (1 for each buffer of a non-interleaved format).
    public var numberChannels: UInt32
    /// Bytes of audio at ``data``.
    public var dataByteSize: UInt32
    /// The audio; nil asks the unit that renders to supply its own buffer.
    public nonisolated(unsafe) var data: UnsafeMutableRawPointer?

    /// A buffer of `numberChannels` channels, `dataByteSize` bytes at `data`.
    public init(numberChannels: UInt32, dataByteSize: UInt32, data: UnsafeMutableRawPointer?) {
        self.numberChannels = numberChannels
        self.dataByteSize = dataByteSize
        self.data = data
    }
}

/// A view of Apple's `AudioBufferList` in memory: a count and that many `AudioBuffer`s.
public struct AudioBufferListPointer: @unchecked Sendable {
    /// The list's first byte.
    public let raw: UnsafeMutableRawPointer

    /// The list at `raw`.
    public init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }

    /// Offset of the first `AudioBuffer` (the alignment of a pointer).
    public static let buffersOffset = MemoryLayout<UnsafeRawPointer>.alignment
    /// Bytes of one `AudioBuffer`: two `UInt32`s and a pointer.
    public static let bufferStride = 8 + MemoryLayout<UnsafeRawPointer>.size

    /// Bytes of a list of `count` buffers (Apple's `offsetof(AudioBufferList, mBuffers[count])`).
    public static func byteSize(buffers count: Int) -> Int { buffersOffset + max(1, count) * bufferStride }

    /// `mNumberBuffers`.
    public var count: Int {
        get { Int(raw.load(as: UInt32.self)) }
        nonmutating set { raw.storeBytes(of: UInt32(newValue), as: UInt32.self) }
    }

    /// Buffer `index` (`mBuffers[index]`).
    public subscript(index: Int) -> AudioUnitBuffer {
        get {
            let b = raw + Self.buffersOffset + index * Self.bufferStride
            return AudioUnitBuffer(
                numberChannels: b.load(as: UInt32.self), dataByteSize: b.load(fromByteOffset: 4, as: UInt32.self),
                data: b.load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self))
        }
        nonmutating set {
            let b = raw + Self.buffersOffset + index * Self.bufferStride
            b.storeBytes(of: newValue.numberChannels, as: UInt32.self)
            b.storeBytes(of: newValue.dataByteSize, toByteOffset: 4, as: UInt32.self)
            b.storeBytes(of: newValue.data, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
        }
    }
}

/// A view of Apple's `AudioTimeStamp` in memory (64 bytes).
public struct AudioTimeStampPointer: @unchecked Sendable {
    /// The time stamp's first byte.
    public let raw: UnsafeMutableRawPointer

    /// The time stamp at `raw`.
    public init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }

    /// Bytes of an `AudioTimeStamp`.
    public static let byteSize = 64

    /// `mSampleTime`.
    public var sampleTime: Double {
        get { raw.load(as: Double.self) }
        nonmutating set { raw.storeBytes(of: newValue, as: Double.self) }
    }
    /// `mHostTime`, in nanoseconds of the monotonic clock (`mach_absolute_time`'s unit here).
    public var hostTime: UInt64 {
        get { raw.load(fromByteOffset: 8, as: UInt64.self) }
        nonmutating set { raw.storeBytes(of: newValue, toByteOffset: 8, as: UInt64.self) }
    }
    /// `mRateScalar`.
    public var rateScalar: Double {
        get { raw.load(fromByteOffset: 16, as: Double.self) }
        nonmutating set { raw.storeBytes(of: newValue, toByteOffset: 16, as: Double.self) }
    }
    /// `mFlags`.
    public var flags: AudioTimeStamp.Flags {
        get { AudioTimeStamp.Flags(rawValue: raw.load(fromByteOffset: 56, as: UInt32.self)) }
        nonmutating set { raw.storeBytes(of: newValue.rawValue, toByteOffset: 56, as: UInt32.self) }
    }

    /// The time stamp as a Swift value (its SMPTE time left out).
    public var value: AudioTimeStamp {
        AudioTimeStamp(
            sampleTime: sampleTime, hostTime: hostTime, rateScalar: rateScalar,
            wordClockTime: raw.load(fromByteOffset: 24, as: UInt64.self), flags: flags)
    }

    /// Sets every field: sample and host time valid, rate 1, the rest zero.
    public func set(sampleTime: Double, hostTime: UInt64) {
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: Self.byteSize)
        self.sampleTime = sampleTime
        self.hostTime = hostTime
        rateScalar = 1
        flags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
    }
}

/// Memory the unit owns for one bus's audio in one format: a buffer list and, behind it, room
/// for `capacity` frames. Allocated when the unit is initialized, never in a render.
final class AudioBufferListStorage: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    let capacity: Int
    let list: AudioBufferListPointer
    private let listMemory: UnsafeMutableRawPointer
    private let samples: UnsafeMutableRawPointer
    let buffers: Int
    let bytesPerBuffer: Int

    init(format: AudioStreamBasicDescription, capacity: Int) {
        self.format = format
        self.capacity = capacity
        let channels = max(1, Int(format.channelsPerFrame))
        buffers = format.isInterleaved ? 1 : channels
        let frameBytes = format.bytesPerFrame > 0 ? Int(format.bytesPerFrame) : 4 * (format.isInterleaved ? channels : 1)
        bytesPerBuffer = frameBytes * capacity
        listMemory = .allocate(byteCount: AudioBufferListPointer.byteSize(buffers: buffers), alignment: 16)
        samples = .allocate(byteCount: max(16, bytesPerBuffer * buffers), alignment: 16)
        samples.initializeMemory(as: UInt8.self, repeating: 0, count: max(16, bytesPerBuffer * buffers))
        list = AudioBufferListPointer(listMemory)
        reset(frames: capacity)
    }

    deinit {
        listMemory.deallocate()
        samples.deallocate()
    }

    /// Points the list at the unit's memory again, sized for `frames` frames.
    func reset(frames: Int) {
        list.count = buffers
        let channelsPerBuffer = format.isInterleaved ? UInt32(max(1, format.channelsPerFrame)) : 1
        let bytes = bytesPerBuffer / max(1, capacity) * frames
        for i in 0..<buffers {
            list[i] = AudioUnitBuffer(numberChannels: channelsPerBuffer, dataByteSize: UInt32(bytes), data: samples + i * bytesPerBuffer)
        }
    }

    /// Zeros the first `frames` frames of every buffer.
    func silence(frames: Int) {
        let bytes = bytesPerBuffer / max(1, capacity) * frames
        for i in 0..<buffers { (samples + i * bytesPerBuffer).initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
    }
}
