public import CAudioToolbox
import AudioCore
import AudioFileServices

// Audio File Services: opening, creating, closing, reading and writing. Properties are in
// AudioFileProperties.swift.

/// What an `AudioFileID` stands for: a file open for reading, or one being written.
final class FileBox: @unchecked Sendable {
    enum File {
        case reader(AudioFile)
        case writer(AudioFileWriter)

        /// The file open for reading, if it is one.
        var reader: AudioFile? { if case .reader(let file) = self { file } else { nil } }
        /// The file being written, if it is one.
        var writer: AudioFileWriter? { if case .writer(let writer) = self { writer } else { nil } }
    }

    static let table = HandleTable<FileBox>(kind: 4)
    let file: File
    /// A file opened for writing more packets: the file as it was read, whose packets can still
    /// be read.
    let readback: AudioFile?
    var handle: UInt = 0

    init(_ file: File, readback: AudioFile? = nil) {
        self.file = file
        self.readback = readback
    }

    /// The file packets and bytes are read from: one open for reading, or the file as read
    /// before packets were appended.
    var reading: AudioFile? { file.reader ?? readback }

    /// Puts `file` in the table and hands its new handle to the program.
    static func open(_ file: File, readback: AudioFile? = nil, into outAudioFile: UnsafeMutablePointer<AudioFileID?>) {
        let box = FileBox(file, readback: readback)
        box.handle = table.insert(box)
        outAudioFile.pointee = box.handle.opaque
    }

    var dataFormat: SwiftASBD {
        switch file {
        case .reader(let f): f.dataFormat
        case .writer(let w): w.dataFormat
        }
    }
}

private let notOpen = OSStatus(kAudioFileNotOpenError)

@_spi(CImplementation) @_cdecl("AudioFileOpenURL")
public func _AudioFileOpenURL(_ inFileRef: CFURLRef?, _ inPermissions: Int8, _ inFileTypeHint: UInt32, _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?) -> OSStatus {
    guard let outAudioFile, let path = CFObjects.path(UnsafeRawPointer(inFileRef)) else { return paramError }
    AudioToolboxSetUp.once()
    guard inPermissions & 0x03 != 0 else { return OSStatus(kAudioFilePermissionsError) }
    return resultStatus { () throws(AudioFileError) in
        let file = try AudioFile(path: path, typeHint: inFileTypeHint == 0 ? nil : AudioFileType(rawValue: inFileTypeHint))
        guard inPermissions & 0x02 != 0 else { return FileBox.open(.reader(file), into: outAudioFile) }
        // Writing appends packets to a CAF file; other files are not changed in place
        // (kAudioFileOperationNotSupportedError).
        let writer = try AudioFileWriter(appendingTo: file, sink: try FileDescriptorSink(openingExisting: path))
        FileBox.open(.writer(writer), readback: file, into: outAudioFile)
    }
}

@_spi(CImplementation) @_cdecl("AudioFileCreateWithURL")
public func _AudioFileCreateWithURL(
    _ inFileRef: CFURLRef?, _ inFileType: UInt32, _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?,
    _ inFlags: UInt32, _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?
) -> OSStatus {
    guard let outAudioFile, let inFormat, let path = CFObjects.path(UnsafeRawPointer(inFileRef)) else { return paramError }
    AudioToolboxSetUp.once()
    return resultStatus { () throws(AudioFileError) in
        let writer = try AudioFileWriter(
            path: path, type: AudioFileType(rawValue: inFileType), format: SwiftASBD(inFormat.pointee),
            flags: AudioFileFlags(rawValue: inFlags))
        FileBox.open(.writer(writer), into: outAudioFile)
    }
}

@_spi(CImplementation) @_cdecl("AudioFileClose")
public func _AudioFileClose(_ inAudioFile: AudioFileID?) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    FileBox.table.remove(box.handle)
    guard case .writer(let writer) = box.file else { return noErrStatus }
    return resultStatus { () throws(AudioFileError) in try writer.close() }
}

@_spi(CImplementation) @_cdecl("AudioFileOptimize")
public func _AudioFileOptimize(_ inAudioFile: AudioFileID?) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    guard case .writer(let writer) = box.file else { return noErrStatus }
    return resultStatus { () throws(AudioFileError) in try writer.updateHeader() }
}

@_spi(CImplementation) @_cdecl("AudioFileReadBytes")
public func _AudioFileReadBytes(_ inAudioFile: AudioFileID?, _ inUseCache: UInt8, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    transferBytes(inAudioFile, ioNumBytes, outBuffer, \.reading, otherwise: OSStatus(kAudioFileOperationNotSupportedError)) {
        file, outBuffer, wanted, ioNumBytes throws(AudioFileError) in
        if wanted == 0 { return }
        let read = try file.readBytes(at: inStartingByte, into: UnsafeMutableRawBufferPointer(start: outBuffer, count: wanted))
        ioNumBytes.pointee = UInt32(read)
        // Apple's call says so when it stopped at the end of the data.
        if read < wanted { throw AudioFileError(.endOfFile, "the audio data ends") }
    }
}

@_spi(CImplementation) @_cdecl("AudioFileWriteBytes")
public func _AudioFileWriteBytes(_ inAudioFile: AudioFileID?, _ inUseCache: UInt8, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?) -> OSStatus {
    transferBytes(inAudioFile, ioNumBytes, inBuffer, \.file.writer, otherwise: OSStatus(kAudioFilePermissionsError)) {
        writer, inBuffer, count, ioNumBytes throws(AudioFileError) in
        let written = try writer.writeBytes(startingByte: inStartingByte, UnsafeRawBufferPointer(start: inBuffer, count: count))
        ioNumBytes.pointee = UInt32(written)
    }
}

/// What AudioFileReadBytes and AudioFileWriteBytes share: `notOpen` for an unknown handle,
/// `paramError` without a count or a buffer, `wrongKind` for a file `kind` does not take (one
/// being written, or one open for reading); else `transfer` moves the bytes, given the count
/// asked for and the count pointer, set to 0 until it says how many moved.
private func transferBytes<File, Buffer>(
    _ inAudioFile: AudioFileID?, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ buffer: Buffer?,
    _ kind: (FileBox) -> File?, otherwise wrongKind: OSStatus,
    _ transfer: (File, Buffer, Int, UnsafeMutablePointer<UInt32>) throws(AudioFileError) -> Void
) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    guard let ioNumBytes, let buffer else { return paramError }
    guard let file = kind(box) else { return wrongKind }
    let count = Int(ioNumBytes.pointee)
    ioNumBytes.pointee = 0
    return resultStatus { () throws(AudioFileError) in try transfer(file, buffer, count, ioNumBytes) }
}

/// Reads packets into `buffer` (`capacity` bytes) with Apple's in/out counts.
private func readPackets(
    _ file: AudioFile, start: Int64, ioNumPackets: UnsafeMutablePointer<UInt32>, capacity: Int,
    outBytes: UnsafeMutablePointer<UInt32>?, descriptions: UnsafeMutablePointer<CAudioToolbox.AudioStreamPacketDescription>?,
    buffer: UnsafeMutableRawPointer?
) -> OSStatus {
    let wanted = Int(ioNumPackets.pointee)
    ioNumPackets.pointee = 0
    outBytes?.pointee = 0
    guard start >= 0 else { return OSStatus(kAudioFileInvalidPacketOffsetError) }
    // At or past the end: no packets, and no error, which is how the guide's callback knows.
    if start >= file.packetCount || wanted == 0 { return noErrStatus }
    guard let buffer else { return paramError }
    if file.needsDescriptions && descriptions == nil { return paramError }
    let swiftDescriptions = descriptions.map {
        UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer($0).assumingMemoryBound(to: SwiftPacketDescription.self), count: wanted)
    }
    return resultStatus { () throws(AudioFileError) in
        let (bytes, packets) = try file.readPackets(
            from: start, count: wanted, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity),
            descriptions: file.needsDescriptions ? swiftDescriptions : nil)
        if !file.needsDescriptions, let descriptions {
            // Constant-size packets described anyway, as Apple's call does when asked.
            let size = Int64(file.dataFormat.bytesPerPacket)
            for i in 0..<packets {
                descriptions[i] = CAudioToolbox.AudioStreamPacketDescription(
                    mStartOffset: Int64(i) * size, mVariableFramesInPacket: 0, mDataByteSize: UInt32(size))
            }
        }
        ioNumPackets.pointee = UInt32(packets)
        outBytes?.pointee = UInt32(bytes)
    }
}

@_spi(CImplementation) @_cdecl("AudioFileReadPacketData")
public func _AudioFileReadPacketData(
    _ inAudioFile: AudioFileID?, _ inUseCache: UInt8, _ ioNumBytes: UnsafeMutablePointer<UInt32>?,
    _ outPacketDescriptions: UnsafeMutablePointer<CAudioToolbox.AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    guard let ioNumBytes, let ioNumPackets else { return paramError }
    guard let file = box.reading else { return OSStatus(kAudioFileOperationNotSupportedError) }
    return readPackets(
        file, start: inStartingPacket, ioNumPackets: ioNumPackets, capacity: Int(ioNumBytes.pointee), outBytes: ioNumBytes,
        descriptions: outPacketDescriptions, buffer: outBuffer)
}

@_spi(CImplementation) @_cdecl("AudioFileReadPackets")
public func _AudioFileReadPackets(
    _ inAudioFile: AudioFileID?, _ inUseCache: UInt8, _ outNumBytes: UnsafeMutablePointer<UInt32>?,
    _ outPacketDescriptions: UnsafeMutablePointer<CAudioToolbox.AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    guard let ioNumPackets else { return paramError }
    guard let file = box.reading else { return OSStatus(kAudioFileOperationNotSupportedError) }
    // The caller sized its buffer for the packets it asks for (by the maximum packet size);
    // the room given is what those packets take.
    let capacity = packetBytes(file, from: inStartingPacket, count: Int(ioNumPackets.pointee))
    return readPackets(
        file, start: inStartingPacket, ioNumPackets: ioNumPackets, capacity: capacity, outBytes: outNumBytes,
        descriptions: outPacketDescriptions, buffer: outBuffer)
}

/// The bytes `count` packets from `start` take (clamped to the file's packets).
private func packetBytes(_ file: AudioFile, from start: Int64, count: Int) -> Int {
    guard start >= 0, start < file.packetCount, count > 0 else { return 0 }
    let n = Int(min(Int64(count), file.packetCount - start))
    switch file.container.packets {
    case .constant(let size, _):
        return n * size
    case .table(let table):
        var total = 0
        for i in Int(start)..<(Int(start) + n) { total += Int(table.sizes[i]) }
        return total
    }
}

@_spi(CImplementation) @_cdecl("AudioFileWritePackets")
public func _AudioFileWritePackets(
    _ inAudioFile: AudioFileID?, _ inUseCache: UInt8, _ inNumBytes: UInt32,
    _ inPacketDescriptions: UnsafePointer<CAudioToolbox.AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?
) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return notOpen }
    guard let ioNumPackets, let inBuffer else { return paramError }
    guard case .writer(let writer) = box.file else { return OSStatus(kAudioFilePermissionsError) }
    let count = Int(ioNumPackets.pointee)
    ioNumPackets.pointee = 0
    let descriptions = inPacketDescriptions.map {
        UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: SwiftPacketDescription.self), count: count)
    }
    // Constant-size packets: as Apple's writer does, the packets' own size says how many bytes
    // are written (ioNumPackets × mBytesPerPacket), whatever inNumBytes says (programs pass the
    // frame count there). Variable-size packets are measured by their descriptions.
    let format = writer.dataFormat
    let constant = format.bytesPerPacket > 0 && format.framesPerPacket > 0
    let byteCount = constant ? count * Int(format.bytesPerPacket) : Int(inNumBytes)
    return resultStatus { () throws(AudioFileError) in
        let written = try writer.writePackets(
            startingPacket: inStartingPacket, bytes: UnsafeRawBufferPointer(start: inBuffer, count: byteCount),
            descriptions: descriptions, packetCount: count)
        ioNumPackets.pointee = UInt32(written)
    }
}
