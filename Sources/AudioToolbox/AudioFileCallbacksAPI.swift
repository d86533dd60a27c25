public import CAudioToolbox
import AudioCore
import AudioFileServices
import Locking

// AudioFileOpenWithCallbacks: audio data the program supplies through a read and a size
// callback, read by the same AudioFile as a path's.

/// The program's data as an ``AudioByteSource``: reads call its read callback, one at a time
/// (a program's callbacks need not be reentrant), until the bytes asked for arrive or the
/// callback returns none.
final class CallbackByteSource: AudioByteSource, @unchecked Sendable {
    /// The read callback's type with its client pointer optional: a C program may pass NULL
    /// client data, which Apple's Swift signature (non-optional) cannot carry. Same C ABI.
    typealias ReadProc = @convention(c) (
        UnsafeMutableRawPointer?, Int64, UInt32, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt32>?
    ) -> OSStatus
    private let client: UserData
    private let readProc: ReadProc
    private let lock = Guarded(())
    let size: Int64

    init(client: UnsafeMutableRawPointer?, read: @escaping AudioFile_ReadProc, size: Int64) {
        self.client = UserData(client)
        readProc = unsafeBitCast(read, to: ReadProc.self)
        self.size = size
    }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        guard offset >= 0 else { throw AudioFileError(.position, "negative offset \(offset)") }
        guard offset < size, let base = buffer.baseAddress else { return 0 }
        let wanted = Int(min(Int64(buffer.count), size - offset))
        return try lock.withLock { _ throws(AudioFileError) -> Int in
            var done = 0
            while done < wanted {
                let request = UInt32(min(wanted - done, Int(UInt32.max)))
                var actual: UInt32 = 0
                let status = readProc(client.pointer, offset + Int64(done), request, base + done, &actual)
                guard status == 0 else {
                    throw AudioFileError(.init(rawValue: status), "the read callback failed at offset \(offset + Int64(done))")
                }
                // A callback that says it read more than it was asked for is believed only up to
                // the request.
                let got = Int(min(actual, request))
                if got == 0 { break }
                done += got
            }
            return done
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioFileOpenWithCallbacks")
public func _AudioFileOpenWithCallbacks(
    _ inClientData: UnsafeMutableRawPointer?, _ inReadFunc: AudioFile_ReadProc?, _ inWriteFunc: AudioFile_WriteProc?,
    _ inGetSizeFunc: AudioFile_GetSizeProc?, _ inSetSizeFunc: AudioFile_SetSizeProc?, _ inFileTypeHint: UInt32,
    _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?
) -> OSStatus {
    guard let outAudioFile, let inReadFunc, let inGetSizeFunc else { return paramError }
    AudioToolboxSetUp.once()
    // Programs pass all four callbacks even to read. With write and set-size callbacks a CAF
    // file also takes more packets (the callbacks are first called at the first change); other
    // files, and CAF files whose data other chunks follow, open for reading only, and writing
    // calls answer kAudioFilePermissionsError.
    typealias GetSizeProc = @convention(c) (UnsafeMutableRawPointer?) -> Int64
    let size = unsafeBitCast(inGetSizeFunc, to: GetSizeProc.self)(inClientData)
    guard size >= 0 else { return OSStatus(kAudioFileInvalidFileError) }
    let source = CallbackByteSource(client: inClientData, read: inReadFunc, size: size)
    return resultStatus { () throws(AudioFileError) in
        let file = try AudioFile(source: source, typeHint: inFileTypeHint == 0 ? nil : AudioFileType(rawValue: inFileTypeHint))
        if let inWriteFunc, let inSetSizeFunc, file.fileType == .caf,
           let writer = try? AudioFileWriter(
               appendingTo: file, sink: CallbackByteSink(client: inClientData, write: inWriteFunc, setSize: inSetSizeFunc))
        {
            return FileBox.open(.writer(writer), readback: file, into: outAudioFile)
        }
        FileBox.open(.reader(file), into: outAudioFile)
    }
}

/// The program's storage as an ``AudioByteSink``: writes call its write callback until every
/// byte is taken, and sizes its set-size callback. The writer calls it under its lock, one call
/// at a time.
final class CallbackByteSink: AudioByteSink, @unchecked Sendable {
    /// The callbacks' types with the client pointer optional (a C program may pass NULL client
    /// data). Same C ABI as Apple's.
    typealias WriteProc = @convention(c) (
        UnsafeMutableRawPointer?, Int64, UInt32, UnsafeRawPointer?, UnsafeMutablePointer<UInt32>?
    ) -> OSStatus
    typealias SetSizeProc = @convention(c) (UnsafeMutableRawPointer?, Int64) -> OSStatus
    private let client: UserData
    private let writeProc: WriteProc
    private let setSizeProc: SetSizeProc
    let name = "the program's storage (write callbacks)"

    init(client: UnsafeMutableRawPointer?, write: @escaping AudioFile_WriteProc, setSize: @escaping AudioFile_SetSizeProc) {
        self.client = UserData(client)
        writeProc = unsafeBitCast(write, to: WriteProc.self)
        setSizeProc = unsafeBitCast(setSize, to: SetSizeProc.self)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let request = UInt32(min(bytes.count - done, Int(UInt32.max)))
            var actual: UInt32 = 0
            let status = writeProc(client.pointer, offset + Int64(done), request, base + done, &actual)
            guard status == 0 else {
                throw AudioFileError(.init(rawValue: status), "the write callback failed at offset \(offset + Int64(done))")
            }
            // A callback that takes nothing would never finish: Apple's writer reports it as a
            // failed write.
            guard actual > 0 else {
                throw AudioFileError(.unspecified, "the write callback took none of \(request) bytes at offset \(offset + Int64(done))")
            }
            done += Int(min(actual, request))
        }
    }

    func setSize(_ size: Int64) throws(AudioFileError) {
        let status = setSizeProc(client.pointer, size)
        guard status == 0 else { throw AudioFileError(.init(rawValue: status), "the set-size callback failed for \(size) bytes") }
    }

    func close() {}
}

@_spi(CImplementation) @_cdecl("AudioFileInitializeWithCallbacks")
public func _AudioFileInitializeWithCallbacks(
    _ inClientData: UnsafeMutableRawPointer?, _ inReadFunc: AudioFile_ReadProc?, _ inWriteFunc: AudioFile_WriteProc?,
    _ inGetSizeFunc: AudioFile_GetSizeProc?, _ inSetSizeFunc: AudioFile_SetSizeProc?, _ inFileType: UInt32,
    _ inFormat: UnsafePointer<CAudioToolbox.AudioStreamBasicDescription>?, _ inFlags: UInt32,
    _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?
) -> OSStatus {
    guard let outAudioFile, inReadFunc != nil, let inWriteFunc, inGetSizeFunc != nil, let inSetSizeFunc,
          let inFormat else { return paramError }
    AudioToolboxSetUp.once()
    // As Apple's: the storage is emptied (set-size to 0), then the header written through the
    // write callback; the file is written as AudioFileCreateWithURL writes one.
    let sink = CallbackByteSink(client: inClientData, write: inWriteFunc, setSize: inSetSizeFunc)
    return resultStatus { () throws(AudioFileError) in
        let writer = try AudioFileWriter(
            sink: sink, type: AudioFileType(rawValue: inFileType), format: SwiftASBD(inFormat.pointee),
            flags: AudioFileFlags(rawValue: inFlags))
        FileBox.open(.writer(writer), into: outAudioFile)
    }
}
