public import CAudioToolbox
import AudioCore
import AudioQueueServices

// Audio queue processing taps: the Swift queue's taps (AudioQueueProcessingTap) behind
// AudioQueueProcessingTapRef handles. The program's callback runs on the queue's render or
// capture thread, as a Mac's does on the queue's I/O thread — never on the run loop.

typealias SwiftTapFlags = AudioQueueServices.AudioQueueProcessingTapFlags
typealias CTapFlags = CAudioToolbox.AudioQueueProcessingTapFlags

/// What an `AudioQueueProcessingTapRef` stands for: the Swift tap, its queue's box, and the
/// buffer list the callback is given (one buffer per channel, allocated once).
///
/// The tap's processor holds the box; the box holds the tap weakly, so the tap goes when its
/// queue lets go of it (a dispose of either) and its handle is then unknown.
final class TapBox: @unchecked Sendable {
    static let table = HandleTable<TapBox>(kind: 11)

    weak var tap: AudioQueueProcessingTap?
    var handle: UInt = 0
    var ref: AudioQueueProcessingTapRef { handle.opaque }
    weak var queue: QueueBox?
    let isInput: Bool
    let channels: Int
    /// `mNumberBuffers` and `channels` AudioBuffers.
    let list: UnsafeMutableRawPointer
    let buffers: UnsafeMutablePointer<AudioBuffer>

    init(queue: QueueBox, isInput: Bool, channels: Int) {
        self.queue = queue
        self.isInput = isInput
        self.channels = channels
        let offset = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!
        let bytes = offset + max(1, channels) * MemoryLayout<AudioBuffer>.stride
        list = .allocate(byteCount: bytes, alignment: MemoryLayout<AudioBufferList>.alignment)
        list.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        list.storeBytes(of: UInt32(channels), as: UInt32.self)
        buffers = (list + offset).bindMemory(to: AudioBuffer.self, capacity: max(1, channels))
    }

    deinit { list.deallocate() }

    /// The box and tap of a live tap (not disposed of, nor its queue).
    static func find(_ ref: AudioQueueProcessingTapRef?) -> (TapBox, AudioQueueProcessingTap)? {
        guard let box = table.object(ref) else { return nil }
        guard let tap = box.tap, !tap.isDisposed else {
            table.remove(box.handle)
            return nil
        }
        return (box, tap)
    }

    /// Forgets the taps of a queue being disposed of.
    static func removeAll(of queue: QueueBox) {
        for box in table.all where box.queue === queue || box.queue == nil { table.remove(box.handle) }
    }

    /// Runs the program's callback for one chunk: the Swift call's state in, the program's
    /// output pointers and frame count out.
    func run(_ call: AudioQueueProcessingTap.Call, _ callback: AudioQueueProcessingTapCallback, _ clientData: UnsafeMutableRawPointer?) -> Int {
        let siphon = call.tap.flags.contains(.siphon)
        for c in 0..<channels {
            buffers[c] = siphon
                ? AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(call.frameCount * 4), mData: UnsafeMutableRawPointer(call.buffer(channel: c).baseAddress))
                : AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: nil)
        }
        list.storeBytes(of: UInt32(channels), as: UInt32.self)
        var stamp = call.timeStamp.c
        var flags = CTapFlags(rawValue: call.flags.rawValue)
        var out: UInt32 = 0
        callback(clientData, ref, UInt32(call.frameCount), &stamp, &flags, &out, list.assumingMemoryBound(to: AudioBufferList.self))
        call.flags = SwiftTapFlags(rawValue: flags.rawValue)
        call.timeStamp = SwiftTimeStamp(stamp)
        guard !siphon else { return 0 }
        var produced = Int(min(out, UInt32(call.frameCount)))
        for c in 0..<channels {
            guard let p = buffers[c].mData else {
                produced = 0
                continue
            }
            // Never read past what the tap says its buffer holds.
            produced = min(produced, Int(buffers[c].mDataByteSize) / MemoryLayout<Float>.size)
            call.setOutput(channel: c, UnsafePointer(p.assumingMemoryBound(to: Float.self)))
        }
        return produced
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueProcessingTapNew")
public func _AudioQueueProcessingTapNew(
    _ inAQ: AudioQueueRef?, _ inCallback: AudioQueueProcessingTapCallback?, _ inClientData: UnsafeMutableRawPointer?,
    _ inFlags: CAudioToolbox.AudioQueueProcessingTapFlags, _ outMaxFrames: UnsafeMutablePointer<UInt32>?,
    _ outProcessingFormat: UnsafeMutablePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ outAQTap: UnsafeMutablePointer<AudioQueueProcessingTapRef?>?
) -> OSStatus {
    guard let queue = QueueBox.find(inAQ), let inCallback, let outMaxFrames, let outProcessingFormat, let outAQTap else {
        return paramError
    }
    let flags = SwiftTapFlags(rawValue: inFlags.rawValue)
    let isInput: Bool, channels: Int
    switch queue.queue! {
    case .output(let q): (isInput, channels) = (false, Int(q.renderFormat.channelsPerFrame))
    case .input(let q): (isInput, channels) = (true, Int(q.streamDescription.channelsPerFrame))
    }
    let box = TapBox(queue: queue, isInput: isInput, channels: channels)
    let client = UserData(inClientData)
    let processor: AudioQueueProcessingTap.Processor = { call in box.run(call, inCallback, client.pointer) }
    return resultStatus { () throws(AudioQueueError) in
        let tap = switch queue.queue! {
        case .output(let q): try q.makeProcessingTap(flags: flags, processor: processor)
        case .input(let q): try q.makeProcessingTap(flags: flags, processor: processor)
        }
        box.tap = tap
        box.handle = TapBox.table.insert(box)
        outMaxFrames.pointee = UInt32(tap.maximumFrames)
        outProcessingFormat.pointee = tap.processingFormat.c
        outAQTap.pointee = box.ref
    }
}

@_spi(CImplementation) @_cdecl("AudioQueueProcessingTapDispose")
public func _AudioQueueProcessingTapDispose(_ inAQTap: AudioQueueProcessingTapRef?) -> OSStatus {
    guard let (box, tap) = TapBox.find(inAQTap) else { return paramError }
    let status = resultStatus { () throws(AudioQueueError) in try tap.dispose() }
    if status == noErrStatus { TapBox.table.remove(box.handle) }
    return status
}

@_spi(CImplementation) @_cdecl("AudioQueueProcessingTapGetSourceAudio")
public func _AudioQueueProcessingTapGetSourceAudio(
    _ inAQTap: AudioQueueProcessingTapRef?, _ inNumberFrames: UInt32, _ ioTimeStamp: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?,
    _ outFlags: UnsafeMutablePointer<CAudioToolbox.AudioQueueProcessingTapFlags>?, _ outNumberFrames: UnsafeMutablePointer<UInt32>?,
    _ ioData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    guard let (box, tap) = TapBox.find(inAQTap), let ioTimeStamp, let outFlags, let outNumberFrames, let ioData else { return paramError }
    let call = tap.call
    guard call.isActive, !tap.flags.contains(.siphon) else { return OSStatus(kAudioQueueErr_InvalidTapContext) }
    let offset = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!
    let buffers = (UnsafeMutableRawPointer(ioData) + offset).assumingMemoryBound(to: AudioBuffer.self)
    guard Int(ioData.pointee.mNumberBuffers) == box.channels else { return paramError }
    let frames = Int(inNumberFrames)
    // The queue's own buffers when every pointer is NULL; otherwise copies into the caller's.
    var own = true
    for c in 0..<box.channels where buffers[c].mData != nil {
        own = false
        guard Int(buffers[c].mDataByteSize) >= frames * 4 else { return paramError }
    }
    if !own, (0..<box.channels).contains(where: { buffers[$0].mData == nil }) { return paramError }
    var got = 0
    let status = resultStatus { () throws(AudioQueueError) in
        got = own
            ? try call.getSourceAudio(frames: frames)
            : try call.getSourceAudio(frames: frames) { buffers[$0].mData!.assumingMemoryBound(to: Float.self) }
    }
    guard status == noErrStatus else { return status }
    for c in 0..<box.channels {
        if own { buffers[c].mData = UnsafeMutableRawPointer(call.buffer(channel: c).baseAddress) }
        buffers[c].mDataByteSize = UInt32(got * 4)
        buffers[c].mNumberChannels = 1
    }
    outNumberFrames.pointee = UInt32(got)
    outFlags.pointee = CTapFlags(rawValue: call.sourceFlags.rawValue)
    // An input queue says when its audio was captured; an output queue's caller gives the time.
    if box.isInput { ioTimeStamp.pointee = call.sourceTimeStamp.c }
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioQueueProcessingTapGetQueueTime")
public func _AudioQueueProcessingTapGetQueueTime(
    _ inAQTap: AudioQueueProcessingTapRef?, _ outQueueSampleTime: UnsafeMutablePointer<Float64>?,
    _ outQueueFrameCount: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    guard let (_, tap) = TapBox.find(inAQTap), let outQueueSampleTime, let outQueueFrameCount else { return paramError }
    return resultStatus { () throws(AudioQueueError) in
        let time = try tap.call.queueTime()
        outQueueSampleTime.pointee = time.sampleTime
        outQueueFrameCount.pointee = UInt32(clamping: time.frameCount)
    }
}
