public import CAudioToolbox
import AudioCore
import AudioQueueServices

// Audio Queue Services: creating and disposing of queues, buffers, enqueueing and control.
// Each function finds the queue by its handle (kAudio_ParamError for one that is unknown or
// disposed of) and returns the Swift queue's result code.

@_spi(CImplementation) @_cdecl("AudioQueueNewOutput")
public func _AudioQueueNewOutput(
    _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueOutputCallback?, _ inUserData: UnsafeMutableRawPointer?,
    _ inCallbackRunLoop: CFRunLoopRef?, _ inCallbackRunLoopMode: CFStringRef?, _ inFlags: UInt32,
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?
) -> OSStatus {
    guard let inCallbackProc else { return paramError }
    return newQueue(inFormat, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ) { format, box, weak throws(AudioQueueError) in
        .output(try AudioQueue(format: format, callbackQueue: box.callbackQueue) { _, buffer in
            guard let box = weak.box, let c = QueueBox.cView(of: buffer) else { return }
            box.deliver(buffer: buffer) { inCallbackProc(box.userData, box.ref, c) }
        })
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueNewInput")
public func _AudioQueueNewInput(
    _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueInputCallback?, _ inUserData: UnsafeMutableRawPointer?,
    _ inCallbackRunLoop: CFRunLoopRef?, _ inCallbackRunLoopMode: CFStringRef?, _ inFlags: UInt32,
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?
) -> OSStatus {
    guard let inCallbackProc else { return paramError }
    return newQueue(inFormat, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ) { format, box, weak throws(AudioQueueError) in
        .input(try AudioInputQueue(format: format, callbackQueue: box.callbackQueue) { _, buffer, startTime, packetCount, descriptions in
            guard let box = weak.box, let c = box.withView(of: buffer, { c in
                c.pointee.mAudioDataByteSize = UInt32(min(max(buffer.audioDataByteSize, 0), buffer.audioDataBytesCapacity))
                c.pointee.mPacketDescriptionCount = UInt32(min(descriptions?.count ?? 0, buffer.packetDescriptionCapacity))
                return c
            }) else { return }
            let stamp = startTime.c
            let packets = UInt32(packetCount)
            let first = descriptions?.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CAudioToolbox.AudioStreamPacketDescription.self) }
            box.deliver(buffer: buffer) {
                withUnsafePointer(to: stamp) { inCallbackProc(box.userData, box.ref, c, $0, packets, first) }
            }
        })
    }
}

/// What AudioQueueNewOutput and AudioQueueNewInput share: checks the arguments, makes the box,
/// has `make` create the queue (whose callback finds the box through the weak reference, set
/// once the queue exists), registers the box and hands back its handle.
private func newQueue(
    _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?, _ inUserData: UnsafeMutableRawPointer?,
    _ inCallbackRunLoop: CFRunLoopRef?, _ inCallbackRunLoopMode: CFStringRef?, _ inFlags: UInt32,
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?,
    _ make: (SwiftASBD, QueueBox, QueueBox.WeakRef) throws(AudioQueueError) -> QueueBox.Queue
) -> OSStatus {
    guard let inFormat, let outAQ, inFlags == 0,
          let box = QueueBox.make(userData: inUserData, runLoop: inCallbackRunLoop, mode: inCallbackRunLoopMode) else {
        return paramError
    }
    let weak = QueueBox.WeakRef()
    return resultStatus { () throws(AudioQueueError) in
        box.queue = try make(SwiftASBD(inFormat.pointee), box, weak)
        weak.box = box
        box.register()
        outAQ.pointee = box.ref
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueDispose")
public func _AudioQueueDispose(_ inAQ: AudioQueueRef?, _ inImmediate: UInt8) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard QueueBox.table.object(inAQ) != nil else { return OSStatus(kAudioQueueErr_DisposalPending) }
    if inImmediate != 0 {
        // Refused inside a processing tap before the handle goes: the queue must stay reachable.
        let refused = resultStatus { () throws(AudioQueueError) in try box.control.refuseInsideTap("AudioQueueDispose") }
        guard refused == noErrStatus else { return refused }
        box.retire()
        return resultStatus { () throws(AudioQueueError) in
            try box.control.dispose(immediate: true)
        }
    }
    // Asynchronously: the queue plays (or records) what it has, with its callbacks, then goes.
    let finishing = box.addFinishingListener()
    let status = resultStatus { () throws(AudioQueueError) in
        try box.control.dispose(immediate: false)
    }
    guard status == noErrStatus else {
        if let finishing { try? box.control.removePropertyListener(finishing) }
        return status
    }
    QueueBox.finishing.insert(box, at: box.handle)
    QueueBox.table.remove(box.handle)
    box.state.withLock { $0.finishingHandle = box.handle }
    // Disposed of already (nothing was left to play), or stopped before the handle was set so
    // that the listener found nothing to finish. A queue started but not yet reported running
    // is stopping, not stopped: its listener releases it.
    if box.control.state == .stopped { box.finishDisposal() }
    return noErrStatus
}

// MARK: Buffers

@_spi(CImplementation) @_cdecl("AudioQueueAllocateBuffer")
public func _AudioQueueAllocateBuffer(_ inAQ: AudioQueueRef?, _ inBufferByteSize: UInt32, _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>?) -> OSStatus {
    _AudioQueueAllocateBufferWithPacketDescriptions(inAQ, inBufferByteSize, 0, outBuffer)
}

@_spi(CImplementation) @_cdecl("AudioQueueAllocateBufferWithPacketDescriptions")
public func _AudioQueueAllocateBufferWithPacketDescriptions(
    _ inAQ: AudioQueueRef?, _ inBufferByteSize: UInt32, _ inNumberPacketDescriptions: UInt32,
    _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>?
) -> OSStatus {
    guard let box = QueueBox.find(inAQ), let outBuffer else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        let buffer: AudioQueueServices.AudioQueueBuffer = try box.control.allocateBuffer(byteCapacity: Int(inBufferByteSize), packetDescriptionCapacity: Int(inNumberPacketDescriptions))
        outBuffer.pointee = box.add(buffer)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueFreeBuffer")
public func _AudioQueueFreeBuffer(_ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard let inBuffer, let buffer = box.buffer(inBuffer) else { return OSStatus(kAudioQueueErr_InvalidBuffer) }
    let status = resultStatus { () throws(AudioQueueError) in
        try box.control.freeBuffer(buffer)
    }
    if status == noErrStatus { box.remove(inBuffer) }
    return status
}

/// The Swift buffer behind a C one, with the fields the program set copied in (output
/// queues; an input queue's buffer is filled by the queue, not the program). Nil for a
/// pointer that is not one of the queue's buffers (a freed one's), which is not read.
private func prepare(_ box: QueueBox, _ c: AudioQueueBufferRef?) -> AudioQueueServices.AudioQueueBuffer? {
    guard let buffer = box.buffer(c) else { return nil }
    guard case .output = box.queue! else { return buffer }
    return box.withView(of: buffer) { c in
        buffer.audioDataByteSize = Int(clamping: c.pointee.mAudioDataByteSize)
        buffer.packetDescriptionCount = min(Int(clamping: c.pointee.mPacketDescriptionCount), buffer.packetDescriptionCapacity)
        return buffer
    }
}

private func descriptions(_ count: UInt32, _ pointer: UnsafePointer<CAudioToolbox.AudioStreamPacketDescription>?) -> [SwiftPacketDescription]? {
    guard count > 0, let pointer else { return nil }
    return UnsafeBufferPointer(start: pointer, count: Int(count)).map(SwiftPacketDescription.init)
}

@_spi(CImplementation) @_cdecl("AudioQueueEnqueueBuffer")
public func _AudioQueueEnqueueBuffer(
    _ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?, _ inNumPacketDescs: UInt32,
    _ inPacketDescs: UnsafePointer<CAudioToolbox.AudioStreamPacketDescription>?
) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard let buffer = prepare(box, inBuffer) else { return OSStatus(kAudioQueueErr_InvalidBuffer) }
    // Constant-size packets need no descriptions, so a count without them (programs pass the
    // byte or packet count there) is ignored, as a Mac does; variable-size packets need them.
    let constantSize = constantSizePackets(box)
    if inNumPacketDescs > 0 && inPacketDescs == nil && !constantSize { return paramError }
    let count = inPacketDescs == nil ? 0 : inNumPacketDescs
    return resultStatus { () throws(AudioQueueError) in
        switch box.queue! {
        case .output(let q): try q.enqueue(buffer, packetDescriptions: descriptions(count, inPacketDescs))
        case .input(let q): try q.enqueue(buffer)
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueEnqueueBufferWithParameters")
public func _AudioQueueEnqueueBufferWithParameters(
    _ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?, _ inNumPacketDescs: UInt32,
    _ inPacketDescs: UnsafePointer<CAudioToolbox.AudioStreamPacketDescription>?, _ inTrimFramesAtStart: UInt32, _ inTrimFramesAtEnd: UInt32,
    _ inNumParamValues: UInt32, _ inParamValues: UnsafePointer<CAudioToolbox.AudioQueueParameterEvent>?,
    _ inStartTime: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ outActualStartTime: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?
) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidQueueType) }
    guard let buffer = prepare(box, inBuffer) else { return OSStatus(kAudioQueueErr_InvalidBuffer) }
    if (inNumPacketDescs > 0 && inPacketDescs == nil && !constantSizePackets(box)) || (inNumParamValues > 0 && inParamValues == nil) {
        return paramError
    }
    let inNumPacketDescs = inPacketDescs == nil ? 0 : inNumPacketDescs
    var events: [AudioQueueServices.AudioQueueParameterEvent] = []
    if let inParamValues {
        for e in UnsafeBufferPointer(start: inParamValues, count: Int(inNumParamValues)) {
            let id = AudioQueueServices.AudioQueueParameterID(rawValue: e.mID)
            guard AudioQueueServices.AudioQueueParameterID.allCases.contains(id) else { return OSStatus(kAudioQueueErr_InvalidParameter) }
            events.append(AudioQueueServices.AudioQueueParameterEvent(id, e.mValue))
        }
    }
    return resultStatus { () throws(AudioQueueError) in
        let actual = try queue.enqueue(
            buffer, packetDescriptions: descriptions(inNumPacketDescs, inPacketDescs),
            trimFramesAtStart: Int(inTrimFramesAtStart), trimFramesAtEnd: Int(inTrimFramesAtEnd),
            parameterEvents: events, startTime: inStartTime.map { SwiftTimeStamp($0.pointee) })
        outActualStartTime?.pointee = actual.c
    }
}

// MARK: Control

@_spi(CImplementation) @_cdecl("AudioQueueStart")
public func _AudioQueueStart(_ inAQ: AudioQueueRef?, _ inStartTime: UnsafePointer<CAudioToolbox.AudioTimeStamp>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    let time = inStartTime.map { SwiftTimeStamp($0.pointee) }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.start(at: time)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueuePrime")
public func _AudioQueuePrime(_ inAQ: AudioQueueRef?, _ inNumberOfFramesToPrepare: UInt32, _ outNumberOfFramesPrepared: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    guard case .output(let queue) = box.queue! else { return OSStatus(kAudioQueueErr_InvalidQueueType) }
    return resultStatus { () throws(AudioQueueError) in
        let prepared = try queue.prime(frames: Int(inNumberOfFramesToPrepare))
        outNumberOfFramesPrepared?.pointee = UInt32(clamping: prepared)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueStop")
public func _AudioQueueStop(_ inAQ: AudioQueueRef?, _ inImmediate: UInt8) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.stop(immediate: inImmediate != 0)
    }
}

@_spi(CImplementation) @_cdecl("AudioQueuePause")
public func _AudioQueuePause(_ inAQ: AudioQueueRef?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.pause()
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueFlush")
public func _AudioQueueFlush(_ inAQ: AudioQueueRef?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.flush()
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueReset")
public func _AudioQueueReset(_ inAQ: AudioQueueRef?) -> OSStatus {
    guard let box = QueueBox.find(inAQ) else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        try box.control.reset()
    }
}

/// Whether the queue's own format has constant-size packets (linear PCM, IMA4, G.711), whose
/// buffers need no packet descriptions.
private func constantSizePackets(_ box: QueueBox) -> Bool {
    switch box.queue! {
    case .output(let q): q.streamDescription.bytesPerPacket > 0
    case .input(let q): q.streamDescription.bytesPerPacket > 0
    }
}
