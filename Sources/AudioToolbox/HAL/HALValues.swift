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
    static let unsupported = HALError(status: kAudioHardwareUnsupportedOperationError)
    static let unsupportedFormat = HALError(status: kAudioDeviceUnsupportedFormatError)

    /// What a C function returns for `body`: kAudioHardwareNoError, or the code it threw.
    static func status(_ body: () throws(HALError) -> Void) -> OSStatus {
        do throws(HALError) {
            try body()
            return kAudioHardwareNoError
        } catch {
            return error.status
        }
    }
}

/// What a translation property (an AudioValueTranslation the caller fills) translates.
enum HALTranslation {
    /// kAudioHardwarePropertyDeviceForUID: a CFStringRef UID to an AudioDeviceID.
    case deviceForUID
    /// kAudioHardwarePropertyPlugInForBundleID: a CFStringRef bundle ID to a plug-in (there are none).
    case plugInForBundleID
}

/// The value of a property.
enum HALValue {
    case uint32(UInt32)
    /// A variable-length array: a Get copies as many as fit.
    case uint32s([UInt32])
    /// Two UInt32s (a stereo pair of channels), a fixed-size value.
    case uint32Pair(UInt32, UInt32)
    case float32(Float)
    case float64(Double)
    /// A new CFStringRef the caller releases.
    case string(String)
    /// A NUL-terminated C string (the older name properties): a Get copies what fits.
    case cString(String)
    /// One AudioValueRange.
    case range(Double, Double)
    /// A variable-length array of AudioValueRange.
    case ranges([(Double, Double)])
    /// An AudioBufferList of one buffer of `channels` channels (no buffers for nil).
    case bufferList(channels: Int?)
    /// One AudioStreamBasicDescription.
    case format(AudioStreamBasicDescription)
    /// A variable-length array of AudioStreamBasicDescription.
    case formats([AudioStreamBasicDescription])
    /// A variable-length array of AudioStreamRangedDescription.
    case rangedFormats([AudioStreamRangedDescription])
    /// An AudioChannelLayout with a description per label (kAudioChannelLayoutTag_UseChannelDescriptions).
    case channelLayout([AudioChannelLabel])
    /// An AudioValueTranslation whose input the caller gives in the buffer.
    case translation(HALTranslation)
    /// A pointer-sized value (a CFRunLoopRef), as its bits.
    case pointer(UInt)

    private static let bufferListHeader = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!
    private static let layoutHeader = MemoryLayout<AudioChannelLayout>.offset(of: \AudioChannelLayout.mChannelDescriptions)!

    /// The size in bytes of the whole value.
    var size: Int {
        switch self {
        case .uint32: 4
        case .uint32s(let values): 4 * values.count
        case .uint32Pair: 8
        case .float32: 4
        case .float64: 8
        case .string, .pointer: MemoryLayout<UInt>.size
        case .cString(let text): text.utf8.count + 1
        case .range: MemoryLayout<AudioValueRange>.size
        case .ranges(let values): MemoryLayout<AudioValueRange>.stride * values.count
        case .bufferList(let channels): Self.bufferListHeader + (channels == nil ? 0 : MemoryLayout<AudioBuffer>.stride)
        case .format: MemoryLayout<AudioStreamBasicDescription>.size
        case .formats(let values): MemoryLayout<AudioStreamBasicDescription>.stride * values.count
        case .rangedFormats(let values): MemoryLayout<AudioStreamRangedDescription>.stride * values.count
        case .channelLayout(let labels):
            Self.layoutHeader + MemoryLayout<AudioChannelDescription>.stride * max(labels.count, 1)
        case .translation: MemoryLayout<AudioValueTranslation>.size
        }
    }

    /// Whether the value is an array a Get cuts to whole elements (else a smaller buffer is
    /// kAudioHardwareBadPropertySizeError).
    var isArray: Bool {
        switch self {
        case .uint32s, .ranges, .formats, .rangedFormats: true
        default: false
        }
    }

    /// Copies the elements of an array that fit in `capacity` bytes; returns the bytes written.
    private static func copy<T>(_ values: [T], into out: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let stride = MemoryLayout<T>.stride
        let count = min(values.count, capacity / stride)
        for i in 0..<count { out.storeBytes(of: values[i], toByteOffset: stride * i, as: T.self) }
        return stride * count
    }

    /// Copies the value into `out`, which holds `capacity` bytes; returns the bytes written.
    /// A fixed-size value needs its whole size (else kAudioHardwareBadPropertySizeError); an
    /// array gives as many elements as fit, a C string as many bytes, NUL-terminated.
    func write(into out: UnsafeMutableRawPointer, capacity: Int) throws(HALError) -> Int {
        switch self {
        case .uint32s(let values): return Self.copy(values, into: out, capacity: capacity)
        case .ranges(let values):
            return Self.copy(values.map { AudioValueRange(mMinimum: $0.0, mMaximum: $0.1) }, into: out, capacity: capacity)
        case .formats(let values): return Self.copy(values, into: out, capacity: capacity)
        case .rangedFormats(let values): return Self.copy(values, into: out, capacity: capacity)
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
        case .uint32Pair(let a, let b):
            out.storeBytes(of: a, as: UInt32.self)
            out.storeBytes(of: b, toByteOffset: 4, as: UInt32.self)
        case .float32(let v): out.storeBytes(of: v, as: Float.self)
        case .float64(let v): out.storeBytes(of: v, as: Double.self)
        case .string(let text): out.storeBytes(of: UInt(bitPattern: CFObjects.makeString(text)), as: UInt.self)
        case .pointer(let bits): out.storeBytes(of: bits, as: UInt.self)
        case .range(let low, let high): out.storeBytes(of: AudioValueRange(mMinimum: low, mMaximum: high), as: AudioValueRange.self)
        case .bufferList(let channels):
            out.storeBytes(of: channels == nil ? 0 : 1, as: UInt32.self)
            if let channels {
                out.storeBytes(
                    of: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: 0, mData: nil),
                    toByteOffset: Self.bufferListHeader, as: AudioBuffer.self)
            }
        case .format(let format): out.storeBytes(of: format, as: AudioStreamBasicDescription.self)
        case .channelLayout(let labels):
            out.storeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions, as: UInt32.self)
            out.storeBytes(of: 0, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: UInt32(labels.count), toByteOffset: 8, as: UInt32.self)
            let stride = MemoryLayout<AudioChannelDescription>.stride
            for (i, label) in labels.enumerated() {
                out.storeBytes(
                    of: AudioChannelDescription(mChannelLabel: label, mChannelFlags: [], mCoordinates: (0, 0, 0)),
                    toByteOffset: Self.layoutHeader + stride * i, as: AudioChannelDescription.self)
            }
        case .translation(let kind):
            try Self.translate(kind, out)
        case .uint32s, .ranges, .formats, .rangedFormats, .cString:
            break
        }
        return size
    }

    /// Answers the AudioValueTranslation at `out`: its input must be one CFStringRef, its
    /// output room for one AudioObjectID (else kAudioHardwareBadPropertySizeError).
    private static func translate(_ kind: HALTranslation, _ out: UnsafeMutableRawPointer) throws(HALError) {
        // Read field by field: a program may leave a pointer NULL, which the struct's Swift
        // type (non-optional pointers, as Apple declares them) cannot hold.
        let layout = MemoryLayout<AudioValueTranslation>.self
        let inputBits = out.loadUnaligned(fromByteOffset: layout.offset(of: \.mInputData)!, as: UInt.self)
        let inputSize = out.loadUnaligned(fromByteOffset: layout.offset(of: \.mInputDataSize)!, as: UInt32.self)
        let outputBits = out.loadUnaligned(fromByteOffset: layout.offset(of: \.mOutputData)!, as: UInt.self)
        let outputSize = out.loadUnaligned(fromByteOffset: layout.offset(of: \.mOutputDataSize)!, as: UInt32.self)
        guard inputSize == UInt32(MemoryLayout<UInt>.size), outputSize == 4,
              let input = UnsafeRawPointer(bitPattern: inputBits), let output = UnsafeMutableRawPointer(bitPattern: outputBits)
        else { throw .badSize }
        guard let ref = UnsafeRawPointer(bitPattern: input.loadUnaligned(as: UInt.self)), let text = CFObjects.string(ref) else { throw .illegal }
        let id: AudioObjectID
        switch kind {
        case .deviceForUID: id = HALObjects.refresh().device(uid: text)?.id ?? kAudioObjectUnknown
        case .plugInForBundleID: id = kAudioObjectUnknown
        }
        output.storeBytes(of: id, as: AudioObjectID.self)
    }
}
