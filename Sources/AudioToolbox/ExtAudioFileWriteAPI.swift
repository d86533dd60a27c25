public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioFileServices
import ExtendedAudioFileServices

// Extended Audio File Services for writing: create, wrap an AudioFileID, write, write
// asynchronously, and the properties of a file being written.

@_spi(CImplementation) @_cdecl("ExtAudioFileCreateWithURL")
public func _ExtAudioFileCreateWithURL(
    _ inURL: CFURLRef?, _ inFileType: UInt32, _ inStreamDesc: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inChannelLayout: UnsafePointer<CAudioToolbox.AudioChannelLayout>?, _ inFlags: UInt32,
    _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?
) -> OSStatus {
    guard let outExtAudioFile, let inStreamDesc, let path = CFObjects.path(UnsafeRawPointer(inURL)) else { return paramError }
    AudioToolboxSetUp.once()
    var layout: AudioCore.AudioChannelLayout?
    if let inChannelLayout {
        let descriptions = Int(inChannelLayout.pointee.mNumberChannelDescriptions)
        guard descriptions <= 1024 else { return paramError }
        let size = MemoryLayout<CAudioToolbox.AudioChannelLayout>.size
            + max(0, descriptions - 1) * MemoryLayout<CAudioToolbox.AudioChannelDescription>.stride
        layout = LayoutBytes.decode(UnsafeRawPointer(inChannelLayout), size: size)
    }
    return resultStatus { () throws(ExtAudioFileError) in
        let writer = try ExtAudioFileWriter(
            path: path, type: AudioFileType(rawValue: inFileType), format: SwiftASBD(inStreamDesc.pointee), channelLayout: layout,
            flags: AudioFileFlags(rawValue: inFlags))
        let audioFile = FileBox(.writer(writer.file))
        audioFile.handle = FileBox.table.insert(audioFile)
        ExtFileBox(writer: writer).open(fileHandle: audioFile.handle, owned: true, into: outExtAudioFile)
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileWrapAudioFileID")
public func _ExtAudioFileWrapAudioFileID(
    _ inFileID: AudioFileID?, _ inForWriting: UInt8, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?
) -> OSStatus {
    guard let outExtAudioFile, let fileBox = FileBox.table.object(inFileID) else { return paramError }
    AudioToolboxSetUp.once()
    return resultStatus { () throws(ExtAudioFileError) in
        switch (fileBox.file, inForWriting != 0) {
        case (.reader(let file), false):
            ExtFileBox(try ExtAudioFile(file: file)).open(fileHandle: fileBox.handle, owned: false, into: outExtAudioFile)
        case (.writer(let writer), true):
            ExtFileBox(writer: try ExtAudioFileWriter(wrapping: writer)).open(fileHandle: fileBox.handle, owned: false, into: outExtAudioFile)
        case (.reader, true):
            throw ExtAudioFileError(.init(rawValue: OSStatus(kAudioFilePermissionsError)), "the file is open for reading")
        case (.writer, false):
            throw ExtAudioFileError(.init(rawValue: OSStatus(kAudioFilePermissionsError)), "the file is open for writing")
        }
    }
}

/// The buffers of a program's list for `frames` frames of the writer's client format.
private func clientBuffers(_ list: UnsafePointer<CAudioToolbox.AudioBufferList>) -> [UnsafeRawBufferPointer]? {
    var buffers: [UnsafeRawBufferPointer] = []
    let all = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
    for buffer in all {
        guard let data = buffer.mData else { return nil }
        buffers.append(UnsafeRawBufferPointer(start: data, count: Int(buffer.mDataByteSize)))
    }
    return buffers
}

@_spi(CImplementation) @_cdecl("ExtAudioFileWrite")
public func _ExtAudioFileWrite(
    _ inExtAudioFile: ExtAudioFileRef?, _ inNumberFrames: UInt32, _ ioData: UnsafePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile), let ioData else { return paramError }
    guard let writer = box.writer else { return OSStatus(kAudioFilePermissionsError) }
    guard let buffers = clientBuffers(ioData) else { return paramError }
    return box.staging.withLock { _ in
        resultStatus { () throws(ExtAudioFileError) in try writer.write(frameCount: Int(inNumberFrames), buffers: buffers) }
    }
}

@_spi(CImplementation) @_cdecl("ExtAudioFileWriteAsync")
public func _ExtAudioFileWriteAsync(
    _ inExtAudioFile: ExtAudioFileRef?, _ inNumberFrames: UInt32, _ ioData: UnsafePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    guard let box = ExtFileBox.table.object(inExtAudioFile) else { return paramError }
    guard let writer = box.writer else { return OSStatus(kAudioFilePermissionsError) }
    // 0 frames and NULL: make the writing thread now (programs do before real-time writes).
    guard inNumberFrames > 0 || ioData != nil else {
        return box.staging.withLock { _ in resultStatus { () throws(ExtAudioFileError) in try writer.writeAsync(frameCount: 0, buffers: []) } }
    }
    guard let ioData, let buffers = clientBuffers(ioData) else { return paramError }
    return box.staging.withLock { _ in
        resultStatus { () throws(ExtAudioFileError) in try writer.writeAsync(frameCount: Int(inNumberFrames), buffers: buffers) }
    }
}

extension ExtFileBox {
    /// A property of a file being written; nil for one it does not have. Called with the
    /// staging lock held.
    func writerPropertyBytes(_ id: UInt32) -> [UInt8]? {
        guard let writer else { return nil }
        switch id {
        case UInt32(kExtAudioFileProperty_FileDataFormat): return bytes(of: writer.fileDataFormat.c)
        case UInt32(kExtAudioFileProperty_ClientDataFormat): return bytes(of: (writer.clientDataFormat ?? writer.fileDataFormat).c)
        case UInt32(kExtAudioFileProperty_FileChannelLayout): return writer.file.channelLayout.map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_ClientChannelLayout):
            return (writer.clientChannelLayout ?? writer.file.channelLayout).map(LayoutBytes.encode)
        case UInt32(kExtAudioFileProperty_FileLengthFrames):
            // Frames written, at the file's rate.
            let client = writer.clientDataFormat?.sampleRate ?? writer.fileDataFormat.sampleRate
            let frames = Double(writer.framesWritten) * writer.fileDataFormat.sampleRate / client
            return bytes(of: Int64(frames.rounded()))
        case UInt32(kExtAudioFileProperty_FileMaxPacketSize):
            let size = writer.converter?.maximumOutputPacketSize ?? Int(writer.fileDataFormat.bytesPerPacket)
            return bytes(of: UInt32(clamping: size))
        case UInt32(kExtAudioFileProperty_ClientMaxPacketSize): return bytes(of: writer.clientDataFormat?.bytesPerFrame ?? 0)
        case UInt32(kExtAudioFileProperty_AudioFile): return bytes(of: fileHandle.opaque)
        case UInt32(kExtAudioFileProperty_AudioConverter):
            return bytes(of: OpaquePointer(bitPattern: converterReference(writer.converter)))
        default: return nil
        }
    }

    /// Sets a property of a file being written. Called with the staging lock held.
    func setWriterProperty(_ writer: ExtAudioFileWriter, _ id: UInt32, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
        switch id {
        case UInt32(kExtAudioFileProperty_ClientDataFormat):
            guard let format = clientFormat(size, data) else { return data == nil ? paramError : extInvalidPropertySize }
            guard format.isPCM else { return OSStatus(kExtAudioFileError_NonPCMClientFormat) }
            return resultStatus { () throws(ExtAudioFileError) in try writer.setClientDataFormat(format) }
        case UInt32(kExtAudioFileProperty_ClientChannelLayout), UInt32(kExtAudioFileProperty_FileChannelLayout):
            guard let data else { return paramError }
            guard let layout = LayoutBytes.decode(data, size: Int(size)) else { return extInvalidPropertySize }
            if id == UInt32(kExtAudioFileProperty_ClientChannelLayout) {
                writer.clientChannelLayout = layout
                return noErrStatus
            }
            return resultStatus { () throws(AudioFileError) in try writer.file.setChannelLayout(layout) }
        default:
            return writerPropertyBytes(id) == nil ? extInvalidProperty : paramError
        }
    }
}
