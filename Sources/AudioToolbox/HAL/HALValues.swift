import CAudioToolbox

// A property's value, as the HAL's Get calls copy it out.

/// A HAL result code other than kAudioHardwareNoError.
struct HALError: Error {
    let status: OSStatus
    static let unknownProperty = HALError(status: kAudioHardwareUnknownPropertyError)
    static let badSize = HALError(status: kAudioHardwareBadPropertySizeError)
    static let illegal = HALError(status: kAudioHardwareIllegalOperationError)
    static let badObject = HALError(status: kAudioHardwareBadObjectError)
    static let unspecified = HALError(status: kAudioHardwareUnspecifiedError)
}

/// The value of a property.
enum HALValue {
    case uint32(UInt32)
    /// A variable-length array: a Get copies as many as fit.
    case uint32s([UInt32])
    case float32(Float)
    case float64(Double)
    /// A new CFStringRef the caller releases.
    case string(String)
    /// A NUL-terminated C string (the older name properties): a Get copies what fits.
    case cString(String)
    /// A variable-length array of AudioValueRange.
    case ranges([(Double, Double)])
    /// An AudioBufferList of one buffer of `channels` channels (no buffers for nil).
    case bufferList(channels: Int?)
    /// Interleaved Float32 at a rate with a channel count.
    case floatFormat(sampleRate: Double, channels: Int)
    /// A pointer-sized value (a CFRunLoopRef), as its bits.
    case pointer(UInt)

    private static let bufferListHeader = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!

    /// The size in bytes of the whole value.
    var size: Int {
        switch self {
        case .uint32: 4
        case .uint32s(let values): 4 * values.count
        case .float32: 4
        case .float64: 8
        case .string, .pointer: MemoryLayout<UInt>.size
        case .cString(let text): text.utf8.count + 1
        case .ranges(let values): MemoryLayout<AudioValueRange>.stride * values.count
        case .bufferList(let channels): Self.bufferListHeader + (channels == nil ? 0 : MemoryLayout<AudioBuffer>.stride)
        case .floatFormat: MemoryLayout<AudioStreamBasicDescription>.size
        }
    }

    /// Copies the value into `out`, which holds `capacity` bytes; returns the bytes written.
    /// A fixed-size value needs its whole size (else kAudioHardwareBadPropertySizeError); an
    /// array gives as many elements as fit, a C string as many bytes, NUL-terminated.
    func write(into out: UnsafeMutableRawPointer, capacity: Int) throws(HALError) -> Int {
        switch self {
        case .uint32s(let values):
            let count = min(values.count, capacity / 4)
            for i in 0..<count { out.storeBytes(of: values[i], toByteOffset: 4 * i, as: UInt32.self) }
            return 4 * count
        case .ranges(let values):
            let stride = MemoryLayout<AudioValueRange>.stride
            let count = min(values.count, capacity / stride)
            for i in 0..<count {
                out.storeBytes(of: AudioValueRange(mMinimum: values[i].0, mMaximum: values[i].1), toByteOffset: stride * i, as: AudioValueRange.self)
            }
            return stride * count
        case .cString(let text):
            guard capacity > 0 else { throw .badSize }
            let bytes = Array(text.utf8.prefix(capacity - 1))
            for (i, b) in bytes.enumerated() { out.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
            out.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
            return bytes.count + 1
        default:
            break
        }
        guard capacity >= size else { throw .badSize }
        switch self {
        case .uint32(let v): out.storeBytes(of: v, as: UInt32.self)
        case .float32(let v): out.storeBytes(of: v, as: Float.self)
        case .float64(let v): out.storeBytes(of: v, as: Double.self)
        case .string(let text): out.storeBytes(of: UInt(bitPattern: CFObjects.makeString(text)), as: UInt.self)
        case .pointer(let bits): out.storeBytes(of: bits, as: UInt.self)
        case .bufferList(let channels):
            out.storeBytes(of: channels == nil ? 0 : 1, as: UInt32.self)
            if let channels {
                out.storeBytes(
                    of: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: 0, mData: nil),
                    toByteOffset: Self.bufferListHeader, as: AudioBuffer.self)
            }
        case .floatFormat(let rate, let channels):
            let frameBytes = UInt32(4 * channels)
            out.storeBytes(of: AudioStreamBasicDescription(
                mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
                mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0), as: AudioStreamBasicDescription.self)
        case .uint32s, .ranges, .cString:
            break
        }
        return size
    }
}
