public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioFileServices
import ExtendedAudioFileServices
import AudioConverterServices
import Locking

// Extended Audio File Services for reading: open, read into an AudioBufferList in the client
// format, seek, tell, properties. Writing is in ExtAudioFileWriteAPI.swift.

/// What an `ExtAudioFileRef` stands for: the Swift reader or writer, the reader's staging
/// buffer, and the `AudioFileID` its kExtAudioFileProperty_AudioFile property hands out.
final class ExtFileBox: @unchecked Sendable {
    static let table = HandleTable<ExtFileBox>(kind: 5)
    /// The reader; nil for a file being written.
    let file: ExtAudioFile?
    /// The writer; nil for a file being read.
    let writer: ExtAudioFileWriter?
    var handle: UInt = 0
    var fileHandle: UInt = 0
    /// Whether ``fileHandle`` was made for this file (and goes with it), not the program's
    /// own `AudioFileID` (ExtAudioFileWrapAudioFileID).
    var ownsFileHandle = true
    /// The `AudioConverterRef` kExtAudioFileProperty_AudioConverter handed out, and its converter.
    var converterHandle: UInt = 0
    var converterObject: AudioConverter?
    /// What `ExtAudioFileRead` converts into before copying out; its lock also makes the
    /// reader's and writer's calls one at a time.
    let staging = Guarded<PCMBuffer?>(nil)

    init(_ file: ExtAudioFile) {
        self.file = file
        writer = nil
    }

    init(writer: ExtAudioFileWriter) {
        file = nil
        self.writer = writer
    }

    /// Files the box in the table and hands its handle to the program.
    func open(fileHandle: UInt, owned: Bool, into out: UnsafeMutablePointer<ExtAudioFileRef?>) {
        handle = ExtFileBox.table.insert(self)
        self.fileHandle = fileHandle
        ownsFileHandle = owned
        out.pointee = handle.opaque
    }

    /// The handle of the converter in use, made or renewed for its current converter; 0 when
    /// there is none. Called with the staging lock held.
    func converterReference(_ converter: AudioConverter?) -> UInt {
        if converterObject !== converter {
            if converterHandle != 0 { ConverterBox.table.remove(converterHandle) }
            converterHandle = converter.map { ConverterBox.insert($0) } ?? 0
            converterObject = converter
        }
        return converterHandle
    }

    /// Removes the handles that go with this file.
    func removeHandles() {
        ExtFileBox.table.remove(handle)
        if ownsFileHandle { FileBox.table.remove(fileHandle) }
        if converterHandle != 0 { ConverterBox.table.remove(converterHandle) }
    }
}


@_spi(CImplementation) @_cdecl("ExtAudioFileOpenURL")
public func _ExtAudioFileOpenURL(_ inURL: CFURLRef?, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?) -> OSStatus {
    guard let outExtAudioFile, let path = CFObjects.path(UnsafeRawPointer(inURL)) else { return paramError }
    AudioToolboxSetUp.once()
    return resultStatus { () throws(ExtAudioFileError) in
        let file = try ExtAudioFile(path: path)
        let audioFile = FileBox(.reader(file.file))
        audioFile.handle = FileBox.table.insert(audioFile)
        ExtFileBox(file).open(fileHandle: audioFile.handle, owned: true, into: outExtAudioFile)
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileDispose")
public func _ExtAudioFileDispose(_ inExtAudioFile: ExtAudioFileRef?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    box.removeHandles()
    guard let writer = box.writer else { return noErrStatus }
    return box.staging.withLock { _ in resultStatus { () throws(ExtAudioFileError) in try writer.close() } }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileRead")
public func _ExtAudioFileRead(_ inExtAudioFile: ExtAudioFileRef?, _ ioNumberFrames: UnsafeMutablePointer<UInt32>?, _ ioData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile), let ioNumberFrames, let ioData else { return paramError }
    guard let file = box.file else { return OSStatus(kExtAudioFileError_InvalidOperationOrder) }
    let format = box.staging.withLock { _ in file.clientDataFormat }
    let regions = format.isInterleaved ? 1 : Int(format.channelsPerFrame)
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    guard list.count == regions, format.bytesPerFrame > 0 else { return paramError }
    var frames = Int(ioNumberFrames.pointee)
    for buffer in list {
        guard buffer.mData != nil else { return paramError }
        frames = min(frames, Int(buffer.mDataByteSize) / Int(format.bytesPerFrame))
    }
    ioNumberFrames.pointee = 0
    return box.staging.withLock { staging in
        if staging == nil || staging!.format != format || staging!.frameCapacity < frames {
            staging = PCMBuffer(format: format, frameCapacity: max(frames, 4096))
        }
        guard let staging else { return paramError }
        staging.frameLength = 0
        return resultStatus { () throws(ExtAudioFileError) in
            let read = try file.read(into: staging, frameCount: frames)
            let bytes = read * Int(format.bytesPerFrame)
            for (i, buffer) in list.enumerated() {
                buffer.mData!.copyMemory(from: staging.region(i).baseAddress!, byteCount: bytes)
                list[i].mDataByteSize = UInt32(bytes)
            }
            ioNumberFrames.pointee = UInt32(read)
        }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileSeek")
public func _ExtAudioFileSeek(_ inExtAudioFile: ExtAudioFileRef?, _ inFrameOffset: Int64) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let file = box.file else { return OSStatus(kExtAudioFileError_InvalidOperationOrder) }
    return box.staging.withLock { _ in
        // Client frames: the file's length at the client's rate.
        guard inFrameOffset >= 0, inFrameOffset <= file.clientLengthFrames else { return OSStatus(kExtAudioFileError_InvalidSeek) }
        return resultStatus { () throws(ExtAudioFileError) in try file.seek(toFrame: inFrameOffset) }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileTell")
public func _ExtAudioFileTell(_ inExtAudioFile: ExtAudioFileRef?, _ outFrameOffset: UnsafeMutablePointer<Int64>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile), let outFrameOffset else { return paramError }
    if let writer = box.writer {
        outFrameOffset.pointee = box.staging.withLock { _ in writer.framesWritten }
        return noErrStatus
    }
    outFrameOffset.pointee = box.staging.withLock { _ in box.file?.tell() ?? 0 }
    return noErrStatus
}

extension ExtFileBox {
    /// A property's value; nil for one the file does not have. Called with the staging lock held.
    func propertyBytes(_ id: UInt32) -> [UInt8]? {
        // The converter's settings as a CFArray: none here (NULL); settings are made through
        // kExtAudioFileProperty_AudioConverter.
        if id == UInt32(kExtAudioFileProperty_ConverterConfig) { return bytes(of: UnsafeRawPointer?.none) }
        if writer != nil { return writerPropertyBytes(id) }
        guard let file else { return nil }
        switch id {
        case UInt32(kExtAudioFileProperty_FileDataFormat): return bytes(of: file.fileDataFormat.c)
        case UInt32(kExtAudioFileProperty_ClientDataFormat): return bytes(of: file.clientDataFormat.c)
        case UInt32(kExtAudioFileProperty_FileChannelLayout): return file.file.channelLayout.map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_ClientChannelLayout): return file.channelLayout.map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_FileLengthFrames): return bytes(of: file.fileLengthFrames)
        case UInt32(kExtAudioFileProperty_FileMaxPacketSize): return bytes(of: UInt32(clamping: file.file.maximumPacketSize))
        case UInt32(kExtAudioFileProperty_ClientMaxPacketSize): return bytes(of: file.clientDataFormat.bytesPerFrame)
        case UInt32(kExtAudioFileProperty_AudioFile): return bytes(of: fileHandle.opaque)
        case UInt32(kExtAudioFileProperty_AudioConverter):
            return bytes(of: OpaquePointer(bitPattern: converterReference(file.audioConverter)))
        case UInt32(kExtAudioFileProperty_PacketTable):
            return file.file.packetTableInfo.map { bytes(of: FileBox.c($0)) }
        default: return nil
        }
    }

    /// Whether a set of `id` is taken.
    func isWritable(_ id: UInt32) -> Bool {
        switch id {
        case UInt32(kExtAudioFileProperty_ClientDataFormat), UInt32(kExtAudioFileProperty_ConverterConfig): return true
        case UInt32(kExtAudioFileProperty_ClientChannelLayout), UInt32(kExtAudioFileProperty_FileChannelLayout): return writer != nil
        default: return false
        }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileGetPropertyInfo")
public func _ExtAudioFileGetPropertyInfo(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let value = box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) else { return extInvalidProperty }
    outSize?.pointee = UInt32(value.count)
    outWritable?.pointee = box.isWritable(inPropertyID) ? 1 : 0
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("ExtAudioFileGetProperty")
public func _ExtAudioFileGetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let value = box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) else { return extInvalidProperty }
    return copyOut(value, outPropertyData, ioPropertyDataSize, tooSmall: extInvalidPropertySize)
}

@_spi(CImplementation) @_cdecl("ExtAudioFileSetProperty")
public func _ExtAudioFileSetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    if inPropertyID == UInt32(kExtAudioFileProperty_ConverterConfig) {
        // The converter's properties set through kExtAudioFileProperty_AudioConverter are in
        // effect already: NULL (or a settings array) is taken as it is.
        return noErrStatus
    }
    if let writer = box.writer {
        return box.staging.withLock { _ in box.setWriterProperty(writer, inPropertyID, inPropertyDataSize, inPropertyData) }
    }
    guard let file = box.file else { return paramError }
    guard inPropertyID == UInt32(kExtAudioFileProperty_ClientDataFormat) else {
        return box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) == nil ? extInvalidProperty : OSStatus(kAudio_ParamError)
    }
    guard let format = clientFormat(inPropertyDataSize, inPropertyData) else {
        return inPropertyData == nil ? paramError : extInvalidPropertySize
    }
    guard format.isPCM else { return OSStatus(kExtAudioFileError_NonPCMClientFormat) }
    return box.staging.withLock { _ in
        resultStatus { () throws(ExtAudioFileError) in try file.setClientDataFormat(format) }
    }
}

/// The AudioStreamBasicDescription a set of kExtAudioFileProperty_ClientDataFormat gives; nil
/// when there is none or its size is wrong.
func clientFormat(_ size: UInt32, _ data: UnsafeRawPointer?) -> SwiftASBD? {
    guard let data, size == UInt32(MemoryLayout<CAudioToolbox.AudioStreamBasicDescription>.size) else { return nil }
    return SwiftASBD(data.loadUnaligned(as: CAudioToolbox.AudioStreamBasicDescription.self))
}

let extInvalidProperty = OSStatus(kExtAudioFileError_InvalidProperty)
let extInvalidPropertySize = OSStatus(kExtAudioFileError_InvalidPropertySize)

/// Apple's helper for walking an AudioBufferList's buffers (CoreAudio's Swift overlay has it).
struct UnsafeMutableAudioBufferListPointer: RandomAccessCollection, MutableCollection {
    let list: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>
    init(_ list: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>) { self.list = list }
    var startIndex: Int { 0 }
    var endIndex: Int { Int(list.pointee.mNumberBuffers) }
    private var first: UnsafeMutablePointer<CAudioToolbox.AudioBuffer> {
        UnsafeMutableRawPointer(list).advanced(by: MemoryLayout<CAudioToolbox.AudioBufferList>.offset(of: \.mBuffers)!)
            .assumingMemoryBound(to: CAudioToolbox.AudioBuffer.self)
    }
    subscript(i: Int) -> CAudioToolbox.AudioBuffer {
        get { first[i] }
        nonmutating set { first[i] = newValue }
    }
}
