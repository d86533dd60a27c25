public import CAudioToolbox
import AudioCore
import AudioQueueServices

// Audio Queue Services: parameters, properties, listeners, time and offline render.

extension QueueBox {
    /// Adds a listener of the library's own (not the program's) for `property`; it gets the
    /// queue's isRunning value.
    @discardableResult
    func addSwiftListener(_ property: AudioQueueServices.AudioQueuePropertyID, _ body: @escaping @Sendable (Bool) -> Void) throws(AudioQueueError) -> Int {
        let queue = control
        return try queue.addListener(property) { [weak queue] in body(queue?.isRunning ?? false) }
    }
}

private let currentDeviceID = UInt32(kAudioQueueProperty_CurrentDevice)
private let invalidPropertySize = OSStatus(kAudioQueueErr_InvalidPropertySize)
private let channelAssignmentsID = UInt32(kAudioQueueProperty_ChannelAssignments)

// MARK: Parameters

@_spi(CImplementation) @_cdecl("AudioQueueGetParameter")
public func _AudioQueueGetParameter(_ inAQ: AudioQueueRef?, _ inParamID: UInt32, _ outValue: UnsafeMutablePointer<Float32>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outValue else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidParameter) }
    return resultStatus { () throws(AudioQueueError) in outValue.pointee = try queue.parameter(id: inParamID) }
}

@_spi(CImplementation) @_cdecl("AudioQueueSetParameter")
public func _AudioQueueSetParameter(_ inAQ: AudioQueueRef?, _ inParamID: UInt32, _ inValue: Float32) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidParameter) }
    return resultStatus { () throws(AudioQueueError) in try queue.setParameter(id: inParamID, inValue) }
}

// MARK: Properties

@_spi(CImplementation) @_cdecl("AudioQueueGetPropertySize")
public func _AudioQueueGetPropertySize(_ inAQ: AudioQueueRef?, _ inID: UInt32, _ outDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outDataSize else { return paramError }
    if let converter = converterProperty(box, inID) {
        guard case .success(let value) = converter else { return converter.status }
        outDataSize.pointee = UInt32(value.count)
        return noErrStatus
    }
    if inID == currentDeviceID {
        outDataSize.pointee = UInt32(MemoryLayout<CFStringRef>.size)
        return noErrStatus
    }
    return resultStatus { () throws(AudioQueueError) in outDataSize.pointee = UInt32(try box.control.propertySize(inID)) }
}

@_spi(CImplementation) @_cdecl("AudioQueueGetProperty")
public func _AudioQueueGetProperty(_ inAQ: AudioQueueRef?, _ inID: UInt32, _ outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outData, let ioDataSize else { return paramError }
    if let converter = converterProperty(box, inID) {
        guard case .success(let value) = converter else { return converter.status }
        return copyOut(value, outData, ioDataSize, tooSmall: invalidPropertySize)
    }
    if inID == currentDeviceID {
        // A CFStringRef the caller releases, as on Apple's systems.
        guard ioDataSize.pointee >= UInt32(MemoryLayout<CFStringRef>.size) else { return invalidPropertySize }
        let uid = box.control.currentDevice.map { CFStringRef(CFObjects.makeString($0)) }
        outData.storeBytes(of: uid, as: CFStringRef?.self)
        ioDataSize.pointee = UInt32(MemoryLayout<CFStringRef>.size)
        return noErrStatus
    }
    return resultStatus { () throws(AudioQueueError) in
        let written = try box.control.getProperty(inID, into: UnsafeMutableRawBufferPointer(start: outData, count: Int(ioDataSize.pointee)))
        ioDataSize.pointee = UInt32(written)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueSetProperty")
public func _AudioQueueSetProperty(_ inAQ: AudioQueueRef?, _ inID: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard let inData else { return inDataSize == 0 && inID != currentDeviceID ? setEmpty(box, inID) : paramError }
    if inID == currentDeviceID {
        guard inDataSize == UInt32(MemoryLayout<CFStringRef>.size) else { return invalidPropertySize }
        let ref = inData.loadUnaligned(as: CFStringRef?.self)
        let uid: String
        if let ref {
            guard let s = CFObjects.string(UnsafeRawPointer(ref)) else { return OSStatus(kAudioQueueErr_InvalidPropertyValue) }
            uid = s
        } else {
            uid = ""
        }
        let utf8 = Array(uid.utf8)
        return utf8.withUnsafeBytes { b in resultStatus { () throws(AudioQueueError) in try box.control.setProperty(inID, from: b) } }
    }
    if inID == channelAssignmentsID { return setChannelAssignments(box, inData, inDataSize) }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.setProperty(inID, from: UnsafeRawBufferPointer(start: inData, count: Int(inDataSize)))
    }
}

// MARK: Converter properties

/// A converter property's result code (`kAudioConverterErr_PropertyNotSupported` when the
/// queue's codec has no such value).
struct ConverterStatus: Error {
    let status: OSStatus
    static let notSupported = ConverterStatus(status: OSStatus(kAudioConverterErr_PropertyNotSupported))
}

extension Result<[UInt8], ConverterStatus> {
    var status: OSStatus { if case .failure(let e) = self { e.status } else { noErrStatus } }
}

/// The audio converter properties a queue answers from its codec, as a Mac's queue passes them
/// to its converter: an output queue's decoder (input: the queue's format, output: Float32 PCM),
/// an input queue's encoder (input: the captured Float32 PCM, output: the queue's format).
/// `kAudioConverterPropertyMaximumOutputPacketSize` is `kAudioQueueProperty_MaximumOutputPacketSize`
/// ('xops'), answered by the queue itself. Nil for any other ID.
private func converterProperty(_ box: QueueBox, _ id: UInt32) -> Result<[UInt8], ConverterStatus>? {
    // Inside a processing tap the queue answers kAudioQueueErr_InvalidTapContext.
    do throws(AudioQueueError) {
        return try queueConverterProperty(box, id)
    } catch {
        return .failure(ConverterStatus(status: error.code.rawValue))
    }
}

private func queueConverterProperty(_ box: QueueBox, _ id: UInt32) throws(AudioQueueError) -> Result<[UInt8], ConverterStatus>? {
    let noPriming = bytes(of: AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0))
    switch (id, box.queue!) {
    case (UInt32(kAudioConverterCurrentInputStreamDescription), .input(let q)): return .success(bytes(of: try q.capturedFormat.c))
    case (UInt32(kAudioConverterCurrentInputStreamDescription), .output(let q)): return .success(bytes(of: q.streamDescription.c))
    case (UInt32(kAudioConverterCurrentOutputStreamDescription), .input(let q)): return .success(bytes(of: q.streamDescription.c))
    case (UInt32(kAudioConverterCurrentOutputStreamDescription), .output(let q)): return .success(bytes(of: q.decodedFormat.c))
    case (UInt32(kAudioConverterCompressionMagicCookie), .input(let q)): return cookie(try q.magicCookie, q.streamDescription)
    case (UInt32(kAudioConverterDecompressionMagicCookie), .output(let q)): return cookie(try q.magicCookie, q.streamDescription)
    case (UInt32(kAudioConverterCompressionMagicCookie), .output), (UInt32(kAudioConverterDecompressionMagicCookie), .input):
        return .failure(.notSupported)
    case (UInt32(kAudioConverterPropertyMaximumInputPacketSize), .input(let q)): return .success(bytes(of: try q.capturedFormat.bytesPerPacket))
    case (UInt32(kAudioConverterPropertyMaximumInputPacketSize), .output(let q)):
        return maximumPacketSize(q.streamDescription).map { .success(bytes(of: $0)) } ?? .failure(.notSupported)
    case (UInt32(kAudioConverterPrimeInfo), .input(let q)):
        let info = try q.primeInfo
        return .success(bytes(of: AudioConverterPrimeInfo(
            leadingFrames: UInt32(clamping: info.leadingFrames), trailingFrames: UInt32(clamping: info.trailingFrames))))
    case (UInt32(kAudioConverterPrimeInfo), .output(let q)):
        let unprimed: Set<AudioCore.AudioFormatID> = [.linearPCM, .aLaw, .uLaw, .appleIMA4, .appleLossless]
        return unprimed.contains(q.streamDescription.formatID) ? .success(noPriming) : .failure(.notSupported)
    default: return nil
    }
}

/// A codec's magic cookie: none for linear PCM (a Mac's PCM converter has no cookie property),
/// empty for a codec without one.
private func cookie(_ cookie: [UInt8]?, _ format: SwiftASBD) -> Result<[UInt8], ConverterStatus> {
    if let cookie { return .success(cookie) }
    return format.isPCM ? .failure(.notSupported) : .success([])
}

/// The largest packet a decoder takes: a constant packet size, or the format's bound (AAC: 6144
/// bits per channel; MPEG audio: the longest frame at the highest bit rate of the lowest rate).
private func maximumPacketSize(_ format: SwiftASBD) -> UInt32? {
    if format.bytesPerPacket > 0 { return format.bytesPerPacket }
    switch format.formatID {
    case .mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD: return 768 * max(1, format.channelsPerFrame)
    case .mpegLayer1: return 676
    case .mpegLayer2: return 1729
    case .mpegLayer3: return 1441
    default: return nil
    }
}

/// `kAudioQueueProperty_ChannelAssignments`: Apple's array of `AudioQueueChannelAssignment`
/// (a CFStringRef UID and a channel number each), passed on as the queue's untyped bytes.
/// `kAudioQueueErr_InvalidPropertySize` for a size that is not a whole number of elements,
/// `kAudioQueueErr_InvalidPropertyValue` for a NULL UID or one that is not a string.
private func setChannelAssignments(_ box: QueueBox, _ data: UnsafeRawPointer, _ size: UInt32) -> OSStatus {
    let stride = MemoryLayout<CAudioToolbox.AudioQueueChannelAssignment>.stride
    guard size > 0, Int(size) % stride == 0, Int(size) / stride <= 64 else { return invalidPropertySize }
    var list: [AudioQueueServices.AudioQueueChannelAssignment] = []
    for i in 0..<Int(size) / stride {
        // Read as a raw pointer: a program may pass NULL where the header says nonnull.
        let ref = data.loadUnaligned(fromByteOffset: i * stride, as: UnsafeRawPointer?.self)
        let number = data.loadUnaligned(fromByteOffset: i * stride + MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self)
        guard let ref, let uid = CFObjects.string(ref) else { return OSStatus(kAudioQueueErr_InvalidPropertyValue) }
        list.append(.init(deviceUID: uid, channelNumber: Int(number)))
    }
    let bytes = AudioQueueServices.AudioQueueChannelAssignment.untypedBytes(list)
    return bytes.withUnsafeBytes { b in resultStatus { () throws(AudioQueueError) in try box.control.setProperty(channelAssignmentsID, from: b) } }
}

private func setEmpty(_ box: QueueBox, _ id: UInt32) -> OSStatus {
    resultStatus { () throws(AudioQueueError) in try box.control.setProperty(id, from: UnsafeRawBufferPointer(start: nil, count: 0)) }
}

@_spi(CImplementation) @_cdecl("AudioQueueAddPropertyListener")
public func _AudioQueueAddPropertyListener(_ inAQ: AudioQueueRef?, _ inID: UInt32, _ inProc: AudioQueuePropertyListenerProc?, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let inProc else { return paramError }
    let property = AudioQueueServices.AudioQueuePropertyID(rawValue: inID)
    guard AudioQueueServices.AudioQueuePropertyID.allCases.contains(property) else { return OSStatus(kAudioQueueErr_InvalidProperty) }
    return resultStatus { () throws(AudioQueueError) in
        let userData = UserData(inUserData)
        let key = box.newListenerKey()
        let deliver: @Sendable () -> Void = { [weak box] in
            guard let box else { return }
            // Not after AudioQueueRemovePropertyListener, which may free the user data.
            box.deliver { if box.hasListener(key: key) { inProc(userData.pointer, box.ref, inID) } }
        }
        let token = try box.control.addListener(property, deliver)
        box.addListener(inID, inProc, inUserData, token: token, key: key)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueRemovePropertyListener")
public func _AudioQueueRemovePropertyListener(_ inAQ: AudioQueueRef?, _ inID: UInt32, _ inProc: AudioQueuePropertyListenerProc?, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let inProc else { return paramError }
    guard AudioQueueServices.AudioQueuePropertyID.allCases.contains(.init(rawValue: inID)) else { return OSStatus(kAudioQueueErr_InvalidProperty) }
    guard let token = box.removeListener(inID, inProc, inUserData) else { return noErrStatus }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.removePropertyListener(token)
    }
}

// MARK: Time

/// What an `AudioQueueTimelineRef` stands for.
final class TimelineBox: @unchecked Sendable {
    static let table = HandleTable<TimelineBox>(kind: 3)
    let queue: UInt
    let timeline: AudioQueueTimeline
    init(queue: UInt, timeline: AudioQueueTimeline) {
        self.queue = queue
        self.timeline = timeline
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueCreateTimeline")
public func _AudioQueueCreateTimeline(_ inAQ: AudioQueueRef?, _ outTimeline: UnsafeMutablePointer<AudioQueueTimelineRef?>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outTimeline else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        let timeline: AudioQueueTimeline = try box.control.makeTimeline()
        outTimeline.pointee = TimelineBox.table.insert(TimelineBox(queue: box.handle, timeline: timeline)).opaque
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueDisposeTimeline")
public func _AudioQueueDisposeTimeline(_ inAQ: AudioQueueRef?, _ inTimeline: AudioQueueTimelineRef?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let timeline = TimelineBox.table.object(inTimeline),
          timeline.queue == box.handle else { return paramError }
    TimelineBox.table.remove(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(inTimeline!))))
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioQueueGetCurrentTime")
public func _AudioQueueGetCurrentTime(
    _ inAQ: AudioQueueRef?, _ inTimeline: AudioQueueTimelineRef?, _ outTimeStamp: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?,
    _ outTimelineDiscontinuity: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    var timeline: AudioQueueTimeline?
    if let inTimeline {
        guard let t = TimelineBox.table.object(inTimeline), t.queue == box.handle else { return paramError }
        timeline = t.timeline
    }
    return resultStatus { () throws(AudioQueueError) in
        let (stamp, discontinuity) = try box.control.currentTime(timeline: timeline)
        outTimeStamp?.pointee = stamp.c
        outTimelineDiscontinuity?.pointee = discontinuity ? 1 : 0
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueDeviceGetCurrentTime")
public func _AudioQueueDeviceGetCurrentTime(_ inAQ: AudioQueueRef?, _ outTimeStamp: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outTimeStamp else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        let stamp = try box.control.deviceCurrentTime()
        outTimeStamp.pointee = stamp.c
    }
}

// MARK: Offline render

@_spi(CImplementation) @_cdecl("AudioQueueSetOfflineRenderFormat")
public func _AudioQueueSetOfflineRenderFormat(_ inAQ: AudioQueueRef?, _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?, _ inLayout: UnsafePointer<CAudioToolbox.AudioChannelLayout>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidQueueType) }
    var layout: AudioCore.AudioChannelLayout?
    if let inLayout {
        let count = Int(inLayout.pointee.mNumberChannelDescriptions)
        guard count <= 1024, let l = LayoutBytes.decode(UnsafeRawPointer(inLayout), size: 12 + 20 * count) else { return paramError }
        layout = l
    }
    return resultStatus { () throws(AudioQueueError) in
        try queue.setOfflineRenderFormat(inFormat.map { SwiftASBD($0.pointee) }, channelLayout: layout)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueOfflineRender")
public func _AudioQueueOfflineRender(_ inAQ: AudioQueueRef?, _ inTimestamp: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ ioBuffer: AudioQueueBufferRef?, _ inNumberFrames: UInt32) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let inTimestamp else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidQueueType) }
    guard let ioBuffer, let buffer = box.buffer(ioBuffer) else { return OSStatus(kAudioQueueErr_InvalidBuffer) }
    // On the run loop's own thread, callbacks cannot wait for the loop to run: what was posted
    // runs now, and what comes while rendering runs at once, as Apple's offline render does.
    let onLoop = box.runLoop != nil && box.runLoop === RunLoops.current
    if onLoop {
        box.beginInline()
        box.runLoop?.drainNow(mode: box.mode)
    }
    defer { if onLoop { box.endInline() } }
    return resultStatus { () throws(AudioQueueError) in
        try queue.offlineRender(at: SwiftTimeStamp(inTimestamp.pointee), into: buffer, frameCount: Int(inNumberFrames))
        _ = box.withView(of: buffer) { $0.pointee.mAudioDataByteSize = UInt32(min(max(buffer.audioDataByteSize, 0), buffer.audioDataBytesCapacity)) }
    }
}
