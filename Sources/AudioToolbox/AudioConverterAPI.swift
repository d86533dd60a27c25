public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioConverterServices
import Locking

// Audio Converter Services: AudioConverterNew, the fill calls and the buffer conversions over
// the Swift AudioConverter. Properties are in AudioConverterProperties.swift.

/// What an `AudioConverterRef` stands for: the Swift converter and the settings the C API
/// stores beside it.
final class ConverterBox: @unchecked Sendable {
    static let table = HandleTable<ConverterBox>(kind: 7)
    let converter: AudioConverter
    var handle: UInt = 0
    /// Settings stored and reported (`kAudioConverterSampleRateConverterComplexity`, a set
    /// `kAudioConverterPrimeInfo`), and whether a fill is running.
    struct Settings {
        var complexity = UInt32(kAudioConverterSampleRateConverterComplexity_Normal)
        var primeInfo: CAudioToolbox.AudioConverterPrimeInfo?
        var busy = false
    }
    /// Guards ``Settings`` and the converter's properties. A fill runs outside it (the
    /// program's input procedure may read properties); ``Settings/busy`` keeps a second fill
    /// from another thread out.
    let settings = Guarded(Settings())

    init(_ converter: AudioConverter) { self.converter = converter }

    /// Puts `converter` in the table; its new handle.
    static func insert(_ converter: AudioConverter) -> UInt {
        let box = ConverterBox(converter)
        box.handle = table.insert(box)
        return box.handle
    }

    /// Runs `body` as the converter's one fill; 'op??' while another is running.
    func filling(_ body: () -> OSStatus) -> OSStatus {
        let started = settings.withLock { s -> Bool in
            guard !s.busy else { return false }
            s.busy = true
            return true
        }
        guard started else { return OSStatus(kAudioConverterErr_OperationNotSupported) }
        defer { settings.withLock { $0.busy = false } }
        return body()
    }
}

private func makeConverter(
    _ inSourceFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inDestinationFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>?
) -> OSStatus {
    guard let inSourceFormat, let inDestinationFormat, let outAudioConverter else { return paramError }
    AudioToolboxSetUp.once()
    return resultStatus { () throws(AudioCodecError) in
        let converter = try AudioConverter(from: SwiftASBD(inSourceFormat.pointee), to: SwiftASBD(inDestinationFormat.pointee))
        outAudioConverter.pointee = ConverterBox.insert(converter).opaque
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterNew")
public func _AudioConverterNew(
    _ inSourceFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inDestinationFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>?
) -> OSStatus {
    makeConverter(inSourceFormat, inDestinationFormat, outAudioConverter)
}

@_spi(CImplementation) @_cdecl("AudioConverterNewSpecific")
public func _AudioConverterNewSpecific(
    _ inSourceFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inDestinationFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inNumberClassDescriptions: UInt32, _ inClassDescriptions: UnsafePointer<AudioClassDescription>?,
    _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>?
) -> OSStatus {
    // One codec serves each format here: the class descriptions choose nothing.
    guard inNumberClassDescriptions == 0 || inClassDescriptions != nil else { return paramError }
    return makeConverter(inSourceFormat, inDestinationFormat, outAudioConverter)
}

@_spi(CImplementation) @_cdecl("AudioConverterDispose")
public func _AudioConverterDispose(_ inAudioConverter: AudioConverterRef?) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter) else { return paramError }
    ConverterBox.table.remove(box.handle)
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioConverterReset")
public func _AudioConverterReset(_ inAudioConverter: AudioConverterRef?) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter) else { return paramError }
    return box.filling {
        box.converter.reset()
        return noErrStatus
    }
}

/// The buffers of `list` as raw buffers (a NULL buffer as an empty one).
private func outputBuffers(_ list: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>) -> [UnsafeMutableRawBufferPointer] {
    UnsafeMutableAudioBufferListPointer(list).map { b in
        b.mData.map { UnsafeMutableRawBufferPointer(start: $0, count: Int(b.mDataByteSize)) } ?? UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }
}

private func inputBuffers(_ list: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>) -> [UnsafeRawBufferPointer] {
    outputBuffers(list).map { UnsafeRawBufferPointer($0) }
}

/// Sets each buffer's `mDataByteSize` to `bytes`, as Apple's fills report what they wrote.
private func setByteSizes(_ list: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>, _ bytes: Int) {
    let buffers = UnsafeMutableAudioBufferListPointer(list)
    for i in buffers.indices { buffers[i].mDataByteSize = UInt32(clamping: bytes) }
}

/// An `AudioBufferList` of `count` buffers in memory of its own.
private func allocateBufferList(_ count: Int) -> UnsafeMutablePointer<CAudioToolbox.AudioBufferList> {
    let size = MemoryLayout<CAudioToolbox.AudioBufferList>.size + max(0, count - 1) * MemoryLayout<CAudioToolbox.AudioBuffer>.stride
    let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<CAudioToolbox.AudioBufferList>.alignment)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    let list = raw.bindMemory(to: CAudioToolbox.AudioBufferList.self, capacity: 1)
    list.pointee.mNumberBuffers = UInt32(count)
    return list
}

@_spi(CImplementation) @_cdecl("AudioConverterFillComplexBuffer")
public func _AudioConverterFillComplexBuffer(
    _ inAudioConverter: AudioConverterRef?, _ inInputDataProc: AudioConverterComplexInputDataProc?,
    _ inInputDataProcUserData: UnsafeMutableRawPointer?, _ ioOutputDataPacketSize: UnsafeMutablePointer<UInt32>?,
    _ outOutputData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?,
    _ outPacketDescription: UnsafeMutablePointer<CAudioToolbox.AudioStreamPacketDescription>?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter), let inInputDataProc, let ioOutputDataPacketSize,
          let outOutputData, let ref = inAudioConverter else { return paramError }
    // Every output buffer needs memory (a Mac answers -50 for one without).
    guard UnsafeMutableAudioBufferListPointer(outOutputData).allSatisfy({ $0.mData != nil }) else { return paramError }
    return box.filling {
        let converter = box.converter
        let capacity = Int(ioOutputDataPacketSize.pointee)
        let descriptions = outPacketDescription.map {
            UnsafeMutableBufferPointer(
                start: UnsafeMutableRawPointer($0).assumingMemoryBound(to: AudioCore.AudioStreamPacketDescription.self), count: capacity)
        }
        let output = AudioConverterOutput(buffers: outputBuffers(outOutputData), packetCapacity: capacity, packetDescriptions: descriptions)
        let inputCount = converter.inputFormat.bufferCount
        let variable = converter.inputFormat.bytesPerPacket == 0
        let list = allocateBufferList(inputCount)
        defer { list.deallocate() }
        ioOutputDataPacketSize.pointee = 0
        do throws(AudioCodecError) {
            let result = try converter.fill(output) { (wanted: Int) throws(AudioCodecError) -> AudioConverterInputData? in
                let buffers = UnsafeMutableAudioBufferListPointer(list)
                list.pointee.mNumberBuffers = UInt32(inputCount)
                let channels = converter.inputFormat.bufferCount > 1 ? 1 : converter.inputFormat.channelsPerFrame
                for i in buffers.indices { buffers[i] = CAudioToolbox.AudioBuffer(mNumberChannels: channels, mDataByteSize: 0, mData: nil) }
                var packets = UInt32(clamping: wanted)
                var given: UnsafeMutablePointer<CAudioToolbox.AudioStreamPacketDescription>? = nil
                // As on a Mac, the procedure is asked for descriptions only for input whose
                // packets vary in size (NULL for linear PCM and other constant-size formats).
                let status = variable
                    ? inInputDataProc(ref, &packets, list, &given, inInputDataProcUserData)
                    : inInputDataProc(ref, &packets, list, nil, inInputDataProcUserData)
                guard status == noErrStatus else { throw AudioCodecError(.init(rawValue: status), "the input procedure returned \(status)") }
                guard packets > 0 else { return nil }
                guard Int(list.pointee.mNumberBuffers) == inputCount else {
                    throw AudioCodecError(.invalidInputSize, "\(list.pointee.mNumberBuffers) input buffers for \(inputCount)")
                }
                let packetDescriptions = given.map {
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer($0).assumingMemoryBound(to: AudioCore.AudioStreamPacketDescription.self), count: Int(packets))
                }
                return AudioConverterInputData(buffers: inputBuffers(list), packetCount: Int(packets), packetDescriptions: packetDescriptions)
            }
            ioOutputDataPacketSize.pointee = UInt32(result.packetCount)
            setByteSizes(outOutputData, result.byteCount)
            return result.inputError?.status ?? noErrStatus
        } catch {
            setByteSizes(outOutputData, 0)
            return error.status
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterConvertComplexBuffer")
public func _AudioConverterConvertComplexBuffer(
    _ inAudioConverter: AudioConverterRef?, _ inNumberPCMFrames: UInt32,
    _ inInputData: UnsafePointer<CAudioToolbox.AudioBufferList>?, _ outOutputData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter), let inInputData, let outOutputData else { return paramError }
    let converter = box.converter
    guard converter.inputFormat.isPCM, converter.outputFormat.isPCM else { return paramError }
    guard converter.inputFormat.sampleRate == converter.outputFormat.sampleRate else {
        return OSStatus(kAudioConverterErr_InvalidInputSize)
    }
    let frames = Int(inNumberPCMFrames)
    let input = inputBuffers(UnsafeMutablePointer(mutating: inInputData))
    let output = outputBuffers(outOutputData)
    guard input.count == converter.inputFormat.bufferCount, output.count == converter.outputFormat.bufferCount else { return paramError }
    for buffer in input where buffer.count < frames * Int(converter.inputFormat.bytesPerFrame) || buffer.baseAddress == nil && frames > 0 {
        return OSStatus(kAudioConverterErr_InvalidInputSize)
    }
    for buffer in output where buffer.count < frames * Int(converter.outputFormat.bytesPerFrame) || buffer.baseAddress == nil && frames > 0 {
        return OSStatus(kAudioConverterErr_InvalidOutputSize)
    }
    return box.filling {
        // Each call is a whole conversion: nothing is kept for the next.
        converter.reset()
        defer { converter.reset() }
        return resultStatus { () throws(AudioCodecError) in
            let written = try converter.convert(frameCount: frames, input: input, output: output)
            setByteSizes(outOutputData, written * Int(converter.outputFormat.bytesPerFrame))
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterConvertBuffer")
public func _AudioConverterConvertBuffer(
    _ inAudioConverter: AudioConverterRef?, _ inInputDataSize: UInt32, _ inInputData: UnsafeRawPointer?,
    _ ioOutputDataSize: UnsafeMutablePointer<UInt32>?, _ outOutputData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter), let inInputData, let ioOutputDataSize, let outOutputData else {
        return paramError
    }
    let converter = box.converter
    let input = converter.inputFormat, output = converter.outputFormat
    // A Mac answers -50 for a converter with a codec, 'insz' for one that changes the rate.
    guard input.isPCM, output.isPCM, input.bufferCount == 1, output.bufferCount == 1 else { return paramError }
    guard input.sampleRate == output.sampleRate else { return OSStatus(kAudioConverterErr_InvalidInputSize) }
    let inFrame = Int(input.bytesPerFrame), outFrame = Int(output.bytesPerFrame)
    guard inFrame > 0, outFrame > 0, Int(inInputDataSize) % inFrame == 0 else { return OSStatus(kAudioConverterErr_InvalidInputSize) }
    let frames = Int(inInputDataSize) / inFrame
    guard Int(ioOutputDataSize.pointee) >= frames * outFrame else { return OSStatus(kAudioConverterErr_InvalidOutputSize) }
    return box.filling {
        converter.reset()
        defer { converter.reset() }
        return resultStatus { () throws(AudioCodecError) in
            let written = try converter.convert(
                frameCount: frames, input: [UnsafeRawBufferPointer(start: inInputData, count: Int(inInputDataSize))],
                output: [UnsafeMutableRawBufferPointer(start: outOutputData, count: Int(ioOutputDataSize.pointee))])
            ioOutputDataSize.pointee = UInt32(written * outFrame)
        }
    }
}
