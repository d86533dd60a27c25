public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioQueueServices
import Dispatch
import ExtendedAudioFileServices
import Locking

/// A system sound (`SystemSoundID`): a file decoded once, at creation, to interleaved Float32 at
/// its own rate and channel count. Each play is an output queue of its own on the default
/// device (which converts to the device's rate), so several play at once.
final class SystemSound: @unchecked Sendable {
    /// The completion a program registered, and where it runs (compared by identity: a play
    /// calls the registration it started with only while that is still the sound's).
    final class Completion: Sendable {
        let proc: AudioServicesSystemSoundCompletionProc
        nonisolated(unsafe) let clientData: UnsafeMutableRawPointer?
        let runLoop: RunLoop
        let mode: String

        init(proc: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?, runLoop: RunLoop, mode: String) {
            self.proc = proc
            self.clientData = clientData
            self.runLoop = runLoop
            self.mode = mode
        }
    }

    struct Settings {
        var isUISound: UInt32 = 1
        var completePlaybackIfAppDies: UInt32 = 0
        var completion: Completion?
    }

    let id: SystemSoundID
    let format: SwiftASBD
    let bytes: [UInt8]
    let settings = Guarded(Settings())

    init(id: SystemSoundID, format: SwiftASBD, bytes: [UInt8]) {
        self.id = id
        self.format = format
        self.bytes = bytes
    }
}

/// An Audio Services result code as an error.
struct ServicesStatus: Error {
    let status: OSStatus
    init(_ status: some BinaryInteger) { self.status = OSStatus(truncatingIfNeeded: status) }
}

enum SystemSounds {
    /// A Mac plays no system sound longer than this.
    static let maximumSeconds = 30.0

    private struct Table {
        var sounds: [SystemSoundID: SystemSound] = [:]
        /// After kSystemSoundID_UserPreferredAlert (0x1000), as on a Mac.
        var next: SystemSoundID = 0x1000
        /// The queues playing, kept until they end.
        var playing: [ObjectIdentifier: AudioQueue] = [:]
    }

    private static let table = Guarded(Table())
    /// Where completion blocks run, one at a time.
    static let completions = DispatchQueue(label: "AudioServices.completions")

    static func find(_ id: SystemSoundID) -> SystemSound? { table.withLock { $0.sounds[id] } }

    /// Decodes the file at `path`; the sound's ID, or Apple's error.
    static func create(path: String) -> Result<SystemSoundID, ServicesStatus> {
        AudioToolboxSetUp.audioInUse()
        let file: ExtAudioFile
        do { file = try ExtAudioFile(path: path) } catch { return .failure(ServicesStatus(kAudioServicesSystemSoundUnspecifiedError)) }
        let decoded = file.decodedFormat
        guard decoded.sampleRate > 0, decoded.channelsPerFrame > 0 else {
            return .failure(ServicesStatus(kAudioServicesSystemSoundUnspecifiedError))
        }
        if Double(file.fileLengthFrames) / decoded.sampleRate > maximumSeconds {
            return .failure(ServicesStatus(kAudioServicesSystemSoundExceededMaximumDurationError))
        }
        let format = SwiftASBD.float32(sampleRate: decoded.sampleRate, channels: Int(decoded.channelsPerFrame))
        var bytes: [UInt8] = []
        let limit = Int(maximumSeconds * decoded.sampleRate + 1) * Int(format.bytesPerFrame)
        do {
            try file.setClientDataFormat(format)
            try file.readAll { buffer in
                let region = buffer.region(0)
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: region[..<buffer.byteLength]))
                return bytes.count <= limit
            }
        } catch {
            return .failure(ServicesStatus(kAudioServicesSystemSoundUnspecifiedError))
        }
        // A file whose header understated its length.
        if bytes.count > limit { return .failure(ServicesStatus(kAudioServicesSystemSoundExceededMaximumDurationError)) }
        let id = table.withLock { t -> SystemSoundID in
            t.next &+= 1
            while t.next <= 0x1000 || t.sounds[t.next] != nil { t.next &+= 1 }
            t.sounds[t.next] = SystemSound(id: t.next, format: format, bytes: bytes)
            return t.next
        }
        return .success(id)
    }

    static func dispose(_ id: SystemSoundID) -> Bool {
        let sound = table.withLock { $0.sounds.removeValue(forKey: id) }
        sound?.settings.withLock { $0.completion = nil }
        return sound != nil
    }

    /// Plays the sound (nothing for an unknown ID or one of the system's); `block` runs on
    /// ``completions`` once the play has ended, the sound's registered completion on its run loop.
    static func play(_ id: SystemSoundID, block: (@Sendable () -> Void)?) {
        guard let sound = find(id) else {
            if let block { completions.async(execute: block) }
            return
        }
        let completion = sound.settings.withLock { $0.completion }
        // The run loop has a source while the sound plays, so that a run waits for the completion.
        completion?.runLoop.attachSource()
        let finish: @Sendable () -> Void = {
            if let completion {
                completion.runLoop.post(mode: completion.mode) {
                    // Removed or disposed of meanwhile: not called.
                    guard sound.settings.withLock({ $0.completion }) === completion else { return }
                    completion.proc(id, completion.clientData)
                }
                completion.runLoop.detachSource()
            }
            if let block { completions.async(execute: block) }
        }
        guard let queue = start(sound) else {
            finish()
            return
        }
        let key = ObjectIdentifier(queue)
        table.withLock { $0.playing[key] = queue }
        Task.detached {
            try? await queue.playToEnd()
            try? queue.dispose(immediate: true)
            _ = table.withLock { $0.playing.removeValue(forKey: key) }
            finish()
        }
    }

    /// A queue playing the sound's samples, started; nil when it cannot play.
    private static func start(_ sound: SystemSound) -> AudioQueue? {
        guard !sound.bytes.isEmpty, let queue = try? AudioQueue(format: sound.format, callback: { _, _ in }) else { return nil }
        do {
            let buffer = try queue.allocateBuffer(byteCapacity: sound.bytes.count)
            sound.bytes.withUnsafeBytes { buffer.audioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            buffer.audioDataByteSize = sound.bytes.count
            try queue.enqueue(buffer)
            try queue.start()
            return queue
        } catch {
            try? queue.dispose(immediate: true)
            return nil
        }
    }
}

// MARK: The C functions

@_spi(CImplementation) @_cdecl("AudioServicesCreateSystemSoundID")
public func _AudioServicesCreateSystemSoundID(_ inFileURL: CFURLRef?, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>?) -> OSStatus {
    guard let outSystemSoundID, let path = CFObjects.path(UnsafeRawPointer(inFileURL)) else { return paramError }
    switch SystemSounds.create(path: path) {
    case .success(let id):
        outSystemSoundID.pointee = id
        return noErr
    case .failure(let error):
        return error.status
    }
}

@_spi(CImplementation) @_cdecl("AudioServicesDisposeSystemSoundID")
public func _AudioServicesDisposeSystemSoundID(_ inSystemSoundID: SystemSoundID) -> OSStatus {
    SystemSounds.dispose(inSystemSoundID) ? noErr : OSStatus(kAudioServicesSystemSoundUnspecifiedError)
}

@_spi(CImplementation) @_cdecl("AudioServicesPlaySystemSound")
public func _AudioServicesPlaySystemSound(_ inSystemSoundID: SystemSoundID) { SystemSounds.play(inSystemSoundID, block: nil) }

@_spi(CImplementation) @_cdecl("AudioServicesPlayAlertSound")
public func _AudioServicesPlayAlertSound(_ inSystemSoundID: SystemSoundID) { SystemSounds.play(inSystemSoundID, block: nil) }

@_spi(CImplementation) @_cdecl("AudioServicesPlaySystemSoundWithCompletion")
public func _AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (@convention(block) () -> Void)?) {
    var completion: (@Sendable () -> Void)?
    if let inCompletionBlock {
        nonisolated(unsafe) let block = inCompletionBlock
        completion = { block() }
    }
    SystemSounds.play(inSystemSoundID, block: completion)
}

@_spi(CImplementation) @_cdecl("AudioServicesPlayAlertSoundWithCompletion")
public func _AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (@convention(block) () -> Void)?) {
    _AudioServicesPlaySystemSoundWithCompletion(inSystemSoundID, inCompletionBlock)
}

@_spi(CImplementation) @_cdecl("AudioServicesAddSystemSoundCompletion")
public func _AudioServicesAddSystemSoundCompletion(
    _ inSystemSoundID: SystemSoundID, _ inRunLoop: CFRunLoopRef?, _ inRunLoopMode: CFStringRef?,
    _ inCompletionRoutine: AudioServicesSystemSoundCompletionProc?, _ inClientData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let inCompletionRoutine else { return paramError }
    guard let sound = SystemSounds.find(inSystemSoundID) else { return OSStatus(kAudioServicesSystemSoundUnspecifiedError) }
    let loop: RunLoop
    if let inRunLoop {
        guard let given = RunLoop.from(inRunLoop) else { return paramError }
        loop = given
    } else {
        loop = RunLoops.main
    }
    let mode = RunLoops.mode(inRunLoopMode) ?? RunLoop.defaultMode
    sound.settings.withLock { $0.completion = .init(proc: inCompletionRoutine, clientData: inClientData, runLoop: loop, mode: mode) }
    return noErr
}

@_spi(CImplementation) @_cdecl("AudioServicesRemoveSystemSoundCompletion")
public func _AudioServicesRemoveSystemSoundCompletion(_ inSystemSoundID: SystemSoundID) {
    SystemSounds.find(inSystemSoundID)?.settings.withLock { $0.completion = nil }
}

/// The sound a property call's specifier names, or the error for it.
private func specifiedSound(_ inPropertyID: AudioServicesPropertyID, _ size: UInt32, _ specifier: UnsafeRawPointer?) -> Result<SystemSound, ServicesStatus> {
    guard inPropertyID == kAudioServicesPropertyIsUISound || inPropertyID == kAudioServicesPropertyCompletePlaybackIfAppDies else {
        return .failure(ServicesStatus(kAudioServicesUnsupportedPropertyError))
    }
    guard let specifier, size == UInt32(MemoryLayout<SystemSoundID>.size) else {
        return .failure(ServicesStatus(kAudioServicesBadSpecifierSizeError))
    }
    guard let sound = SystemSounds.find(specifier.loadUnaligned(as: SystemSoundID.self)) else {
        return .failure(ServicesStatus(kAudioServicesSystemSoundUnspecifiedError))
    }
    return .success(sound)
}

@_spi(CImplementation) @_cdecl("AudioServicesGetPropertyInfo")
public func _AudioServicesGetPropertyInfo(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    if case .failure(let error) = specifiedSound(inPropertyID, inSpecifierSize, inSpecifier) { return error.status }
    outPropertyDataSize?.pointee = UInt32(MemoryLayout<UInt32>.size)
    outWritable?.pointee = 1
    return noErr
}

@_spi(CImplementation) @_cdecl("AudioServicesGetProperty")
public func _AudioServicesGetProperty(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?
) -> OSStatus {
    let sound: SystemSound
    switch specifiedSound(inPropertyID, inSpecifierSize, inSpecifier) {
    case .success(let found): sound = found
    case .failure(let error): return error.status
    }
    guard let ioPropertyDataSize else { return paramError }
    let size = UInt32(MemoryLayout<UInt32>.size)
    guard let outPropertyData else {
        ioPropertyDataSize.pointee = size
        return noErr
    }
    guard ioPropertyDataSize.pointee >= size else { return OSStatus(kAudioServicesBadPropertySizeError) }
    let value = sound.settings.withLock { inPropertyID == kAudioServicesPropertyIsUISound ? $0.isUISound : $0.completePlaybackIfAppDies }
    outPropertyData.storeBytes(of: value, as: UInt32.self)
    ioPropertyDataSize.pointee = size
    return noErr
}

@_spi(CImplementation) @_cdecl("AudioServicesSetProperty")
public func _AudioServicesSetProperty(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?
) -> OSStatus {
    let sound: SystemSound
    switch specifiedSound(inPropertyID, inSpecifierSize, inSpecifier) {
    case .success(let found): sound = found
    case .failure(let error): return error.status
    }
    guard let inPropertyData, inPropertyDataSize == UInt32(MemoryLayout<UInt32>.size) else {
        return OSStatus(kAudioServicesBadPropertySizeError)
    }
    let value = inPropertyData.loadUnaligned(as: UInt32.self)
    sound.settings.withLock { s in
        if inPropertyID == kAudioServicesPropertyIsUISound { s.isUISound = value } else { s.completePlaybackIfAppDies = value }
    }
    return noErr
}
