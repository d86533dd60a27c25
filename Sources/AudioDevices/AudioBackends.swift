#if canImport(Glibc)
import Glibc
#endif
import Locking

/// The backends this process knows, and the default-device choice.
///
/// `null` and `file` are built in; sound backends (PulseAudio, ALSA) register themselves,
/// with a priority. The default output is, in order: the backend and device named by
/// `AUDIOQUEUE_BACKEND` and `AUDIOQUEUE_DEVICE` when set; else the first registered sound
/// backend, highest priority first, that is available and opens (the device named by
/// `AUDIOQUEUE_DEVICE` alone, when that is set: an error when none has it); else a
/// ``WAVFileDevice`` writing ``WAVFileBackend/defaultPath``, which says so on standard error
/// with the path and why no sound backend played (also in its ``AudioDeviceInfo/note``).
public enum AudioBackends {
    private struct Entry: Sendable {
        let backend: any AudioBackend
        let priority: Int
    }

    private static let table = Guarded<[Entry]>([
        Entry(backend: WAVFileBackend(), priority: 0),
        Entry(backend: NullBackend(), priority: -1),
    ])

    /// Adds `backend` (replacing one of the same name). Backends with a priority above 0 are
    /// tried for the default output, highest first; 0 and below only when asked for by name.
    public static func register(_ backend: any AudioBackend, priority: Int) {
        table.withLock { entries in
            entries.removeAll { $0.backend.name == backend.name }
            entries.append(Entry(backend: backend, priority: priority))
            entries.sort { $0.priority > $1.priority }
        }
    }

    /// Every registered backend, the default-device order first.
    public static var all: [any AudioBackend] { table.withLock { $0.map(\.backend) } }

    /// The backend called `name`, if registered.
    public static func backend(named name: String) -> (any AudioBackend)? {
        table.withLock { $0.first { $0.backend.name == name }?.backend }
    }

    /// Opens the device a UID names (`backend:name`, or a bare backend name for its default).
    public static func makeOutput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        let (backendName, deviceName) = split(uid)
        guard let backend = backend(named: backendName) else {
            throw AudioDeviceError(.notFound, "no audio backend '\(backendName)' (known: \(all.map(\.name).joined(separator: ", ")))")
        }
        return try backend.makeOutput(name: deviceName, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }

    /// The default output of backend `name` alone: the device `AUDIOQUEUE_DEVICE` names when
    /// set, else the backend's own default. What a queue that follows the default opens again
    /// when its device goes away: no other backend is tried, and no file stands in.
    public static func makeDefaultOutput(
        backend name: String, sampleRate: Double, channels: Int, bufferFrames: Int
    ) throws(AudioDeviceError) -> any AudioOutputDevice {
        guard let backend = backend(named: name) else {
            throw AudioDeviceError(.notFound, "no audio backend '\(name)'")
        }
        return try backend.makeOutput(name: environment("AUDIOQUEUE_DEVICE"), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }

    /// The default output device for interleaved Float32 at `sampleRate` with `channels`,
    /// chosen as the type's description says. `tried` receives a line for every backend that
    /// was skipped and why.
    public static func makeDefaultOutput(
        sampleRate: Double, channels: Int, bufferFrames: Int,
        tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioOutputDevice {
        if let name = environment("AUDIOQUEUE_BACKEND") {
            guard let backend = backend(named: name) else {
                throw AudioDeviceError(.notFound, "AUDIOQUEUE_BACKEND=\(name): no such backend (known: \(all.map(\.name).joined(separator: ", ")))")
            }
            return try backend.makeOutput(name: environment("AUDIOQUEUE_DEVICE"), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        let device = environment("AUDIOQUEUE_DEVICE")
        let (opened, reasons) = firstOpening(tried: tried) { backend throws(AudioDeviceError) in
            try backend.makeOutput(name: device, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        if let opened { return opened }
        if let device {
            // A device was named: a file in its place would hide the mistake.
            throw AudioDeviceError(.notFound, "AUDIOQUEUE_DEVICE=\(device): no sound backend opens it (\(reasons.joined(separator: "; ")))")
        }
        let why = reasons.isEmpty ? "no sound backend is registered" : "no sound server or sound card answered (\(reasons.joined(separator: "; ")))"
        let output = try WAVFileBackend().makeOutput(name: nil, sampleRate: sampleRate, channels: channels, note: why)
        if let file = output as? WAVFileDevice {
            printToStandardError("swift-audio-queue: \(why); writing the output to \(file.path)")
        }
        return output
    }

    /// Asks each registered sound backend (priority above 0), highest first, that is available
    /// to `open` a device; returns the first device opened, and why each backend before it was
    /// skipped (also told to `tried`).
    private static func firstOpening<Device>(
        tried: ((String) -> Void)?, _ open: (any AudioBackend) throws(AudioDeviceError) -> Device
    ) -> (Device?, [String]) {
        var reasons: [String] = []
        for backend in table.withLock({ $0.filter { $0.priority > 0 }.map(\.backend) }) {
            let reason: String
            if backend.isAvailable() {
                do throws(AudioDeviceError) {
                    return (try open(backend), reasons)
                } catch {
                    reason = "\(backend.name): \(error)"
                }
            } else {
                reason = "\(backend.name): not available"
            }
            tried?(reason)
            reasons.append(reason)
        }
        return (nil, reasons)
    }

    private static func printToStandardError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }

    /// Opens the input device a UID names (`backend:name`, or a bare backend name for its default).
    public static func makeInput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        let (backendName, deviceName) = split(uid)
        guard let backend = backend(named: backendName) else {
            throw AudioDeviceError(.notFound, "no audio backend '\(backendName)' (known: \(all.map(\.name).joined(separator: ", ")))")
        }
        return try backend.makeInput(name: deviceName, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }

    /// The default input of backend `name` alone: the device `AUDIOQUEUE_INPUT_DEVICE` names
    /// when set, else the backend's own default. What an input queue that follows the default
    /// opens again when its device goes away: no other backend is tried.
    public static func makeDefaultInput(
        backend name: String, sampleRate: Double, channels: Int, bufferFrames: Int
    ) throws(AudioDeviceError) -> any AudioInputDevice {
        guard let backend = backend(named: name) else {
            throw AudioDeviceError(.notFound, "no audio backend '\(name)'")
        }
        return try backend.makeInput(name: environment("AUDIOQUEUE_INPUT_DEVICE"), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }

    /// The default input device: `AUDIOQUEUE_BACKEND` (with `AUDIOQUEUE_INPUT_DEVICE`) when set,
    /// else the first registered sound backend that is available and opens one.
    public static func makeDefaultInput(
        sampleRate: Double, channels: Int, bufferFrames: Int,
        tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioInputDevice {
        if let name = environment("AUDIOQUEUE_BACKEND") {
            guard let backend = backend(named: name) else {
                throw AudioDeviceError(.notFound, "AUDIOQUEUE_BACKEND=\(name): no such backend (known: \(all.map(\.name).joined(separator: ", ")))")
            }
            return try backend.makeInput(name: environment("AUDIOQUEUE_INPUT_DEVICE"), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        let (opened, reasons) = firstOpening(tried: tried) { backend throws(AudioDeviceError) in
            try backend.makeInput(name: environment("AUDIOQUEUE_INPUT_DEVICE"), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        if let opened { return opened }
        throw AudioDeviceError(.notFound, reasons.isEmpty ? "no sound backend is registered for input" : "no input device: " + reasons.joined(separator: "; "))
    }

    static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }

    static func split(_ uid: String) -> (String, String?) {
        guard let colon = uid.firstIndex(of: ":") else { return (uid, nil) }
        let rest = String(uid[uid.index(after: colon)...])
        return (String(uid[..<colon]), rest.isEmpty ? nil : rest)
    }
}
