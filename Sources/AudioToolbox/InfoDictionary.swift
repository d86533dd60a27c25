import CAudioToolbox
import AudioFileServices

// kAudioFilePropertyInfoDictionary and kAudioFileStreamProperty_InfoDictionary: a new
// CFDictionary (the caller releases it) of CFString keys and values, made with
// kCFTypeDictionaryKeyCallBacks and kCFTypeDictionaryValueCallBacks as Apple's is.

enum InfoDictionary {
    /// A new dictionary of `pairs` (the first value of a repeated key), in their order.
    static func make(_ pairs: [(key: String, value: String)]) -> CFDictionaryRef {
        let storage = CFDictionaryStorage(
            keyCallbacks: ATkCFTypeDictionaryKeyCallBacks, valueCallbacks: ATkCFTypeDictionaryValueCallBacks, mutable: false)
        for (key, value) in pairs {
            let k = UnsafeRawPointer(CFObjects.makeString(key))
            let v = UnsafeRawPointer(CFObjects.makeString(value))
            storage.set(k, v, add: true, replace: false)
            _CFRelease(k)
            _CFRelease(v)
        }
        return CFDictionaryRef(CFObjects.makeCollection(.dictionary, storage))
    }

    /// A file's entries: its metadata in file order, then `approximate duration in seconds`
    /// (always there, as on a Mac).
    static func pairs(_ file: AudioFile) -> [(key: String, value: String)] {
        let duration = "approximate duration in seconds"
        var pairs = file.metadata.filter { $0.key != duration }
        if let seconds = file.infoDictionary[duration] { pairs.append((duration, seconds)) }
        return pairs
    }

    /// A file being written: the entries set, then the duration of what has been written so far.
    static func pairs(_ writer: AudioFileWriter, sampleRate: Double) -> [(key: String, value: String)] {
        let seconds = sampleRate > 0 ? Double(writer.totalFrames) / sampleRate : 0
        return writer.info.entries.map { ($0.key.rawValue, $0.value) } + [("approximate duration in seconds", formatDuration(seconds))]
    }

    /// The entries of a dictionary a program sets: CFString keys with CFString values, or
    /// CFNumber values as their decimal text; pairs of other types are left out. Not a
    /// dictionary: `parameter` (`kAudio_ParamError`).
    static func info(_ dictionary: UnsafeRawPointer?) throws(AudioFileError) -> AudioFileInfo {
        guard let storage = CFObjects.dictionary(dictionary) else {
            throw AudioFileError(.parameter, "the info dictionary is not a CFDictionary")
        }
        var pairs: [(key: String, value: String)] = []
        for (k, v) in zip(storage.keys, storage.values) {
            guard let key = CFObjects.string(k) else { continue }
            if let value = CFObjects.string(v) {
                pairs.append((key, value))
            } else if let number = CFNumbers.number(v) {
                pairs.append((key, CFNumbers.isFloat(number.type) ? formatDuration(number.float) : String(number.integer)))
            }
        }
        return AudioFileInfo(pairs)
    }

    /// Stores a new dictionary of `pairs` at `out` when `ioDataSize` has room for a pointer.
    static func copyOut(_ pairs: [(key: String, value: String)], _ out: UnsafeMutableRawPointer,
                        _ ioDataSize: UnsafeMutablePointer<UInt32>, tooSmall: OSStatus) -> OSStatus {
        let size = MemoryLayout<CFDictionaryRef>.size
        guard Int(ioDataSize.pointee) >= size else { return tooSmall }
        out.storeBytes(of: make(pairs), as: CFDictionaryRef.self)
        ioDataSize.pointee = UInt32(size)
        return 0
    }
}
