public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioFileServices
import ExtendedAudioFileServices
import Locking

// Extended Audio File Services for reading: open, read into an AudioBufferList in the client
// format, seek, tell, properties.

/// What an `ExtAudioFileRef` stands for: the Swift reader, its staging buffer, and the
/// `AudioFileID` its kExtAudioFileProperty_AudioFile property hands out.
final class ExtFileBox: @unchecked Sendable {
    static let table = HandleTable<ExtFileBox>(kind: 5)
    let file: ExtAudioFile
    var handle: UInt = 0
    var fileHandle: UInt = 0
    /// What `ExtAudioFileRead` converts into before copying out; its lock also makes the
    /// reader's calls one at a time.
    let staging = Guarded<PCMBuffer?>(nil)

    init(_ file: ExtAudioFile) { self.file = file }
}

private let invalidProperty = OSStatus(kExtAudioFileError_InvalidProperty)
private let invalidPropertySize = OSStatus(kExtAudioFileError_InvalidPropertySize)

@_spi(CImplementation) @_cdecl("ExtAudioFileOpenURL")
public func _ExtAudioFileOpenURL(_ inURL: CFURLRef?, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?) -> OSStatus {
    guard let outExtAudioFile, let path = CFObjects.path(UnsafeRawPointer(inURL)) else { return paramError }
    AudioToolboxSetUp.once()
    return resultStatus { () throws(ExtAudioFileError) in
        let file = try ExtAudioFile(path: path)
        let box = ExtFileBox(file)
        box.handle = ExtFileBox.table.insert(box)
        let audioFile = FileBox(.reader(file.file))
        box.fileHandle = FileBox.table.insert(audioFile)
        audioFile.handle = box.fileHandle
        outExtAudioFile.pointee = box.handle.opaque
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileDispose")
public func _ExtAudioFileDispose(_ inExtAudioFile: ExtAudioFileRef?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    ExtFileBox.table.remove(box.handle)
    FileBox.table.remove(box.fileHandle)
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("ExtAudioFileRead")
public func _ExtAudioFileRead(_ inExtAudioFile: ExtAudioFileRef?, _ ioNumberFrames: UnsafeMutablePointer<UInt32>?, _ ioData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile), let ioNumberFrames, let ioData else { return paramError }
    let format = box.staging.withLock { _ in box.file.clientDataFormat }
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
            let read = try box.file.read(into: staging, frameCount: frames)
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
    guard inFrameOffset >= 0, inFrameOffset <= box.file.fileLengthFrames else { return OSStatus(kExtAudioFileError_InvalidSeek) }
    return box.staging.withLock { _ in
        resultStatus { () throws(ExtAudioFileError) in try box.file.seek(toFrame: inFrameOffset) }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileTell")
public func _ExtAudioFileTell(_ inExtAudioFile: ExtAudioFileRef?, _ outFrameOffset: UnsafeMutablePointer<Int64>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile), let outFrameOffset else { return paramError }
    outFrameOffset.pointee = box.staging.withLock { _ in box.file.tell() }
    return noErrStatus
}

extension ExtFileBox {
    func propertyBytes(_ id: UInt32) -> [UInt8]? {
        switch id {
        case UInt32(kExtAudioFileProperty_FileDataFormat): return bytes(of: file.fileDataFormat.c)
        case UInt32(kExtAudioFileProperty_ClientDataFormat): return bytes(of: file.clientDataFormat.c)
        case UInt32(kExtAudioFileProperty_FileChannelLayout): return file.file.channelLayout.map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_ClientChannelLayout): return file.channelLayout.map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_FileLengthFrames): return bytes(of: file.fileLengthFrames)
        case UInt32(kExtAudioFileProperty_FileMaxPacketSize): return bytes(of: UInt32(clamping: file.file.maximumPacketSize))
        case UInt32(kExtAudioFileProperty_ClientMaxPacketSize): return bytes(of: file.clientDataFormat.bytesPerFrame)
        case UInt32(kExtAudioFileProperty_AudioFile): return bytes(of: fileHandle.opaque)
        case UInt32(kExtAudioFileProperty_PacketTable):
            return file.file.packetTableInfo.map { bytes(of: FileBox.c($0)) }
        default: return nil
        }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileGetPropertyInfo")
public func _ExtAudioFileGetPropertyInfo(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let value = box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) else { return invalidProperty }
    outSize?.pointee = UInt32(value.count)
    outWritable?.pointee = inPropertyID == UInt32(kExtAudioFileProperty_ClientDataFormat) ? 1 : 0
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("ExtAudioFileGetProperty")
public func _ExtAudioFileGetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let value = box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) else { return invalidProperty }
    return copyOut(value, outPropertyData, ioPropertyDataSize, tooSmall: invalidPropertySize)
}

@_spi(CImplementation) @_cdecl("ExtAudioFileSetProperty")
public func _ExtAudioFileSetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: UInt32, _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard inPropertyID == UInt32(kExtAudioFileProperty_ClientDataFormat) else {
        return box.staging.withLock({ _ in box.propertyBytes(inPropertyID) }) == nil ? invalidProperty : OSStatus(kAudio_ParamError)
    }
    guard let inPropertyData else { return paramError }
    guard inPropertyDataSize == UInt32(MemoryLayout<CAudioToolbox.AudioStreamBasicDescription>.size) else { return invalidPropertySize }
    let format = SwiftASBD(inPropertyData.loadUnaligned(as: CAudioToolbox.AudioStreamBasicDescription.self))
    guard format.isPCM else { return OSStatus(kExtAudioFileError_NonPCMClientFormat) }
    return box.staging.withLock { _ in
        resultStatus { () throws(ExtAudioFileError) in try box.file.setClientDataFormat(format) }
    }
}

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
