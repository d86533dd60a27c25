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
        try PropertyCoding.copy(try propertyBytes(id), id: id, into: data)
    }

    /// Sets a property from its bytes (`AudioQueueSetProperty`). Writable: magic cookie,
    /// channel layout, level metering, decode buffer size, current device. `invalidProperty`
    /// for an unknown or read-only ID, `invalidPropertySize` for a value of the wrong size.
    public func setProperty(_ id: UInt32, from data: UnsafeRawBufferPointer) throws(AudioQueueError) {
        guard let property = AudioQueuePropertyID(rawValue: id) else {
            throw AudioQueueError(.invalidProperty, "no property '\(FourCharCode(rawValue: id))'")
        }
        func u32() throws(AudioQueueError) -> UInt32 { try PropertyCoding.u32(data, id: id) }
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
            try setChannelLayout(try PropertyCoding.layout(from: data))
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
        case .streamDescription: out = PropertyCoding.bytes(of: streamDescription)
        case .channelLayout: out = channelLayout.map(PropertyCoding.bytes(of:)) ?? []
        case .enableLevelMetering: put(UInt32(isLevelMeteringEnabled ? 1 : 0))
        case .currentLevelMeter, .currentLevelMeterDB:
            let meters = property == .currentLevelMeter ? try currentLevelMeter() : try currentLevelMeterDB()
            for m in meters { put(m.averagePower); put(m.peakPower) }
        case .decodeBufferSizeFrames: put(UInt32(decodeBufferSizeFrames))
        case .converterError: put(UInt32(bitPattern: converterError))
        }
        return out
    }
}
