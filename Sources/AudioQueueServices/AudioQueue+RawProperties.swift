import AudioCore

/// Apple's untyped property calls, with the byte layouts of `AudioQueue.h`: UInt32 flags and
/// counts, Float64 rates, a 40-byte `AudioStreamBasicDescription`, an `AudioChannelLayout`
/// (12-byte header plus 20 bytes per description), 8 bytes of `AudioQueueLevelMeterState` per
/// channel, the cookie's bytes, and the device UID as UTF-8.
extension AudioQueue {
    /// The size in bytes of a property's value (`AudioQueueGetPropertySize`);
    /// `invalidProperty` for an ID the queue does not have.
    public func propertySize(_ id: UInt32) throws(AudioQueueError) -> Int {
        try propertyBytes(id).count
    }

    /// Copies a property's value into `data` and returns the bytes written
    /// (`AudioQueueGetProperty`). `invalidProperty` for an unknown ID, `invalidPropertySize`
    /// when `data` is smaller than the value.
    public func getProperty(_ id: UInt32, into data: UnsafeMutableRawBufferPointer) throws(AudioQueueError) -> Int {
        let bytes = try propertyBytes(id)
        guard data.count >= bytes.count else {
            throw AudioQueueError(.invalidPropertySize, "'\(FourCharCode(rawValue: id))' needs \(bytes.count) bytes, not \(data.count)")
        }
        bytes.withUnsafeBytes { data.baseAddress?.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return bytes.count
    }

    /// Sets a property from its bytes (`AudioQueueSetProperty`). Writable: magic cookie,
    /// channel layout, level metering, decode buffer size, current device. `invalidProperty`
    /// for an unknown or read-only ID, `invalidPropertySize` for a value of the wrong size.
    public func setProperty(_ id: UInt32, from data: UnsafeRawBufferPointer) throws(AudioQueueError) {
        guard let property = AudioQueuePropertyID(rawValue: id) else {
            throw AudioQueueError(.invalidProperty, "no property '\(FourCharCode(rawValue: id))'")
        }
        func u32() throws(AudioQueueError) -> UInt32 {
            guard data.count == 4 else {
                throw AudioQueueError(.invalidPropertySize, "'\(FourCharCode(rawValue: id))' is a 4-byte UInt32, not \(data.count) bytes")
            }
            return data.loadUnaligned(as: UInt32.self)
        }
        switch property {
        case .magicCookie:
            try setMagicCookie(data.isEmpty ? nil : Array(data))
        case .enableLevelMetering:
            try setLevelMeteringEnabled(try u32() != 0)
        case .decodeBufferSizeFrames:
            try setDecodeBufferSizeFrames(Int(try u32()))
        case .currentDevice:
            guard let uid = String(validating: data, as: UTF8.self) else {
                throw AudioQueueError(.invalidPropertyValue, "the device UID is not UTF-8")
            }
            try setCurrentDevice(uid.isEmpty ? nil : uid)
        case .channelLayout:
            try setChannelLayout(try Self.decodeLayout(data))
        case .isRunning, .deviceSampleRate, .deviceNumberChannels, .maximumOutputPacketSize, .streamDescription,
             .currentLevelMeter, .currentLevelMeterDB, .converterError:
            throw AudioQueueError(.invalidProperty, "'\(FourCharCode(rawValue: id))' is read-only")
        }
    }

    private func propertyBytes(_ id: UInt32) throws(AudioQueueError) -> [UInt8] {
        guard let property = AudioQueuePropertyID(rawValue: id) else {
            throw AudioQueueError(.invalidProperty, "no property '\(FourCharCode(rawValue: id))'")
        }
        var out: [UInt8] = []
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        switch property {
        case .isRunning: put(UInt32(isRunning ? 1 : 0))
        case .deviceSampleRate: put(deviceSampleRate)
        case .deviceNumberChannels: put(UInt32(deviceNumberOfChannels))
        case .currentDevice: out = Array((currentDevice ?? "").utf8)
        case .magicCookie: out = magicCookie ?? []
        case .maximumOutputPacketSize: put(UInt32(maximumOutputPacketSize))
        case .streamDescription:
            let f = streamDescription
            put(f.sampleRate); put(f.formatID.rawValue); put(f.formatFlags.rawValue); put(f.bytesPerPacket)
            put(f.framesPerPacket); put(f.bytesPerFrame); put(f.channelsPerFrame); put(f.bitsPerChannel); put(UInt32(0))
        case .channelLayout:
            guard let layout = channelLayout else { return [] }
            put(layout.tag.rawValue); put(layout.bitmap.rawValue); put(UInt32(layout.descriptions.count))
            for d in layout.descriptions {
                put(d.label.rawValue); put(d.flags.rawValue)
                put(d.coordinates.0); put(d.coordinates.1); put(d.coordinates.2)
            }
        case .enableLevelMetering: put(UInt32(isLevelMeteringEnabled ? 1 : 0))
        case .currentLevelMeter, .currentLevelMeterDB:
            let meters = property == .currentLevelMeter ? try currentLevelMeter() : try currentLevelMeterDB()
            for m in meters { put(m.averagePower); put(m.peakPower) }
        case .decodeBufferSizeFrames: put(UInt32(decodeBufferSizeFrames))
        case .converterError: put(UInt32(bitPattern: converterError))
        }
        return out
    }

    private static func decodeLayout(_ data: UnsafeRawBufferPointer) throws(AudioQueueError) -> AudioChannelLayout? {
        if data.isEmpty { return nil }
        guard data.count >= 12 else {
            throw AudioQueueError(.invalidPropertySize, "a channel layout is at least 12 bytes, not \(data.count)")
        }
        let count = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard count <= 64, data.count == 12 + 20 * count else {
            throw AudioQueueError(.invalidPropertySize, "a channel layout with \(count) descriptions is \(12 + 20 * min(count, 1 << 20)) bytes, not \(data.count)")
        }
        var descriptions: [AudioChannelDescription] = []
        for i in 0..<count {
            let o = 12 + 20 * i
            descriptions.append(AudioChannelDescription(
                label: AudioChannelLabel(rawValue: data.loadUnaligned(fromByteOffset: o, as: UInt32.self)),
                flags: AudioChannelDescription.Flags(rawValue: data.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self)),
                coordinates: (data.loadUnaligned(fromByteOffset: o + 8, as: Float.self),
                              data.loadUnaligned(fromByteOffset: o + 12, as: Float.self),
                              data.loadUnaligned(fromByteOffset: o + 16, as: Float.self))))
        }
        return AudioChannelLayout(
            tag: AudioChannelLayoutTag(rawValue: data.loadUnaligned(as: UInt32.self)),
            bitmap: AudioChannelBitmap(rawValue: data.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
            descriptions: descriptions)
    }
}
