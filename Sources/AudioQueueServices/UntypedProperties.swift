import AudioCore

/// What both queue types answer through Apple's untyped property calls
/// (`AudioQueueGetPropertySize`, `AudioQueueGetProperty`, `AudioQueueSetProperty`), with the byte
/// layouts of `AudioQueue.h`: UInt32 flags and counts, Float64 rates, a 40-byte
/// `AudioStreamBasicDescription`, an `AudioChannelLayout` (12-byte header plus 20 bytes per
/// description), 8 bytes of `AudioQueueLevelMeterState` per channel, the cookie's bytes, and the
/// device UID as UTF-8. Channel assignments (write-only) are one entry per queue channel: the
/// UInt32 channel number, the UInt32 length of the device UID in bytes, then the UID as UTF-8
/// (the C API turns Apple's `AudioQueueChannelAssignment` array into that); none clears them.
protocol UntypedQueueProperties: AnyObject {
    var isRunning: Bool { get }
    var deviceSampleRate: Double { get }
    var deviceNumberOfChannels: Int { get }
    var currentDevice: String? { get }
    var magicCookie: [UInt8]? { get throws(AudioQueueError) }
    var maximumOutputPacketSize: Int { get throws(AudioQueueError) }
    var streamDescription: AudioStreamBasicDescription { get }
    var channelLayout: AudioChannelLayout? { get throws(AudioQueueError) }
    var isLevelMeteringEnabled: Bool { get throws(AudioQueueError) }
    var converterError: OSStatus { get }
    func currentLevelMeter() throws(AudioQueueError) -> [AudioQueueLevelMeterState]
    func setLevelMeteringEnabled(_ enabled: Bool) throws(AudioQueueError)
    func setCurrentDevice(_ uid: String?) throws(AudioQueueError)
    func setChannelLayout(_ newLayout: AudioChannelLayout?) throws(AudioQueueError)
    func setChannelAssignments(_ assignments: [AudioQueueChannelAssignment]) throws(AudioQueueError)
    /// `kAudioQueueProperty_DecodeBufferSizeFrames` (output queues; `invalidProperty` otherwise).
    func decodeBufferSizeProperty() throws(AudioQueueError) -> Int
    func setDecodeBufferSizeProperty(_ frames: Int) throws(AudioQueueError)
    /// `kAudioQueueProperty_MagicCookie` set (output queues: the decoder's; input queues have
    /// none to set).
    func setMagicCookieProperty(_ cookie: [UInt8]?) throws(AudioQueueError)
    /// `kAudioQueueProperty_EnableTimePitch`, `_TimePitchAlgorithm`, `_TimePitchBypass` as
    /// UInt32 (output queues; `invalidProperty` otherwise).
    func timePitchProperty(_ id: AudioQueuePropertyID) throws(AudioQueueError) -> UInt32
    func setTimePitchProperty(_ id: AudioQueuePropertyID, _ value: UInt32) throws(AudioQueueError)
    /// `invalidTapContext` on a thread running a processing tap.
    func refuseInsideTap(_ call: StaticString) throws(AudioQueueError)
}

extension UntypedQueueProperties {
    /// `AudioQueueGetProperty`: copies the value into `data`; the bytes written.
    func copyProperty(_ id: UInt32, into data: UnsafeMutableRawBufferPointer, _ call: StaticString = #function) throws(AudioQueueError) -> Int {
        try PropertyCoding.copy(try propertyBytes(id, call), id: id, into: data)
    }

    /// A property's value as bytes; `invalidProperty` for an ID the queue does not have.
    /// Refused inside a processing tap (`call` names the public member).
    func propertyBytes(_ id: UInt32, _ call: StaticString = #function) throws(AudioQueueError) -> [UInt8] {
        try refuseInsideTap(call)
        let property = try AudioQueuePropertyID.supported(id)
        var out: [UInt8] = []
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        switch property {
        case .isRunning: put(UInt32(isRunning ? 1 : 0))
        case .deviceSampleRate: put(deviceSampleRate)
        case .deviceNumberChannels: put(UInt32(deviceNumberOfChannels))
        case .currentDevice: out = Array((currentDevice ?? "").utf8)
        case .magicCookie: out = try magicCookie ?? []
        case .maximumOutputPacketSize: put(UInt32(try maximumOutputPacketSize))
        case .streamDescription: out = PropertyCoding.bytes(of: streamDescription)
        case .channelLayout: out = try channelLayout.map(\.nativeBytes) ?? []
        case .enableLevelMetering: put(UInt32(try isLevelMeteringEnabled ? 1 : 0))
        case .currentLevelMeter, .currentLevelMeterDB:
            let meters = try currentLevelMeter()
            for m in property == .currentLevelMeter ? meters : meters.map(\.decibels) { put(m.averagePower); put(m.peakPower) }
        case .decodeBufferSizeFrames: put(UInt32(try decodeBufferSizeProperty()))
        case .converterError: put(UInt32(bitPattern: converterError))
        case .channelAssignments: throw AudioQueueError(.invalidProperty, "'aqca' (channel assignments) is write-only")
        case .enableTimePitch, .timePitchAlgorithm, .timePitchBypass: put(try timePitchProperty(property))
        default: break  // supported(_:) lets through only the properties above
        }
        return out
    }

    /// Sets a property from its bytes; `invalidProperty` for an unknown or read-only ID,
    /// `invalidPropertySize` for a value of the wrong size. Refused inside a processing tap.
    func setPropertyBytes(_ id: UInt32, _ data: UnsafeRawBufferPointer, _ call: StaticString = #function) throws(AudioQueueError) {
        try refuseInsideTap(call)
        switch try AudioQueuePropertyID.supported(id) {
        case .magicCookie:
            try setMagicCookieProperty(data.isEmpty ? nil : Array(data))
        case .enableLevelMetering:
            try setLevelMeteringEnabled(try PropertyCoding.u32(data, id: id) != 0)
        case .decodeBufferSizeFrames:
            try setDecodeBufferSizeProperty(Int(try PropertyCoding.u32(data, id: id)))
        case let property where property == .enableTimePitch || property == .timePitchAlgorithm || property == .timePitchBypass:
            try setTimePitchProperty(property, try PropertyCoding.u32(data, id: id))
        case .currentDevice:
            guard let uid = String(validating: data, as: UTF8.self) else {
                throw AudioQueueError(.invalidPropertyValue, "the device UID is not UTF-8")
            }
            try setCurrentDevice(uid.isEmpty ? nil : uid)
        case .channelLayout:
            try setChannelLayout(try PropertyCoding.layout(from: data))
        case .channelAssignments:
            try setChannelAssignments(try PropertyCoding.assignments(from: data))
        default:
            throw AudioQueueError(.invalidProperty, "'\(FourCharCode(rawValue: id))' is read-only")
        }
    }
}

extension AudioQueue: UntypedQueueProperties {
    func decodeBufferSizeProperty() throws(AudioQueueError) -> Int { decodeBufferSizeFrames }
    func setDecodeBufferSizeProperty(_ frames: Int) throws(AudioQueueError) { try setDecodeBufferSizeFrames(frames) }
    func setMagicCookieProperty(_ cookie: [UInt8]?) throws(AudioQueueError) { try setMagicCookie(cookie) }
    func timePitchProperty(_ id: AudioQueuePropertyID) throws(AudioQueueError) -> UInt32 {
        switch id {
        case .enableTimePitch: try isTimePitchEnabled ? 1 : 0
        case .timePitchAlgorithm: try timePitchAlgorithm.rawValue
        default: try isTimePitchBypassed ? 1 : 0
        }
    }
    func setTimePitchProperty(_ id: AudioQueuePropertyID, _ value: UInt32) throws(AudioQueueError) {
        switch id {
        case .enableTimePitch: try setTimePitchEnabled(value != 0)
        case .timePitchAlgorithm: try setTimePitchAlgorithm(TimePitchAlgorithm(rawValue: value))
        default: try setTimePitchBypassed(value != 0)
        }
    }

    /// The size in bytes of a property's value (`AudioQueueGetPropertySize`);
    /// `invalidProperty` for an ID the queue does not have.
    public func propertySize(_ id: UInt32) throws(AudioQueueError) -> Int { try propertyBytes(id).count }

    /// Copies a property's value into `data` and returns the bytes written
    /// (`AudioQueueGetProperty`). `invalidProperty` for an unknown ID, `invalidPropertySize`
    /// when `data` is smaller than the value.
    public func getProperty(_ id: UInt32, into data: UnsafeMutableRawBufferPointer) throws(AudioQueueError) -> Int { try copyProperty(id, into: data) }

    /// Sets a property from its bytes (`AudioQueueSetProperty`). Writable: magic cookie,
    /// channel layout, level metering, decode buffer size, current device, the time/pitch
    /// properties, channel assignments (write-only: getting them is `invalidProperty`, as
    /// Apple's header has it). `invalidProperty`
    /// for an unknown or read-only ID, `invalidPropertySize` for a value of the wrong size.
    public func setProperty(_ id: UInt32, from data: UnsafeRawBufferPointer) throws(AudioQueueError) { try setPropertyBytes(id, data) }
}

extension AudioInputQueue: UntypedQueueProperties {
    func decodeBufferSizeProperty() throws(AudioQueueError) -> Int {
        throw AudioQueueError(.invalidProperty, "an input queue has no decode buffer")
    }
    func setDecodeBufferSizeProperty(_ frames: Int) throws(AudioQueueError) {
        throw AudioQueueError(.invalidProperty, "an input queue has no decode buffer")
    }
    func setMagicCookieProperty(_ cookie: [UInt8]?) throws(AudioQueueError) {
        throw AudioQueueError(.invalidProperty, "an input queue's magic cookie is its encoder's, and read-only")
    }
    func timePitchProperty(_ id: AudioQueuePropertyID) throws(AudioQueueError) -> UInt32 {
        throw AudioQueueError(.invalidProperty, "an input queue has no time/pitch unit")
    }
    func setTimePitchProperty(_ id: AudioQueuePropertyID, _ value: UInt32) throws(AudioQueueError) {
        throw AudioQueueError(.invalidProperty, "an input queue has no time/pitch unit")
    }

    /// The size in bytes of a property's value (`AudioQueueGetPropertySize`); `invalidProperty`
    /// for an ID an input queue does not have (the decode buffer size is for output).
    public func propertySize(_ id: UInt32) throws(AudioQueueError) -> Int { try propertyBytes(id).count }

    /// Copies a property's value into `data` and returns the bytes written
    /// (`AudioQueueGetProperty`).
    public func getProperty(_ id: UInt32, into data: UnsafeMutableRawBufferPointer) throws(AudioQueueError) -> Int { try copyProperty(id, into: data) }

    /// Sets a property from its bytes (`AudioQueueSetProperty`). Writable: channel layout,
    /// level metering, current device, channel assignments (write-only).
    public func setProperty(_ id: UInt32, from data: UnsafeRawBufferPointer) throws(AudioQueueError) { try setPropertyBytes(id, data) }
}
