#if canImport(Glibc)
import Glibc
#endif
import Locking

/// The backends this process knows, and the default-device choice.
///
/// `null` is built in; the other backends are registered, with a priority: the sound backends
/// (PipeWire 30, PulseAudio 20, ALSA 10) above 0, the file backend (`WAVFileBackend` of
/// `AudioDeviceFile`) at 0;
/// `AudioQueueKit.registerAll()` registers them all. The default output is, in order: the
/// backend and device named by `AUDIOQUEUE_BACKEND` and `AUDIOQUEUE_DEVICE` when set; else the
/// first registered sound backend, highest priority first, that is available and opens (the
/// device named by `AUDIOQUEUE_DEVICE` alone, when that is set: an error when none has it);
/// else the first registered ``AudioFallbackBackend``'s device — the file backend's
/// `WAVFileDevice` writing `WAVFileBackend.defaultPath`, which says so on standard error with
/// the path and why no sound backend played (also in its ``AudioDeviceInfo/note``).
public enum AudioBackends {
    private struct Entry: Sendable {
        let backend: any AudioBackend
        let priority: Int
    }

    private static let table = Guarded<[Entry]>([
        Entry(backend: NullBackend(), priority: -1)
    ])

    /// Adds `backend` (replacing one of the same name). Backends with a priority above 0 are
    /// tried for the default output, highest first; 0 and below only when asked for by name,
    /// or, the first ``AudioFallbackBackend`` among them, when no sound backend plays.
    public static func register(_ backend: any AudioBackend, priority: Int) {
        table.withLock { entries in
            entries.removeAll { $0.backend.name == backend.name }
            entries.append(Entry(backend: backend, priority: priority))
            entries.sort { $0.priority > $1.priority }
        }
    }

    /// Every registered backend, the default-device order first.
    public static var all: [any AudioBackend] { table.withLock { $0.map(\.backend) } }

    /// The registered sound backends (priority above 0), highest priority first: the order
    /// the default device is looked for in.
    public static var soundBackends: [any AudioBackend] { table.withLock { $0.filter { $0.priority > 0 }.map(\.backend) } }

    /// The first registered ``AudioFallbackBackend``: what plays when no sound backend does.
    public static var fallbackBackend: (any AudioFallbackBackend)? {
        table.withLock { $0.lazy.compactMap { $0.backend as? any AudioFallbackBackend }.first }
    }

    /// The backend called `name`, if registered.
    public static func backend(named name: String) -> (any AudioBackend)? {
        table.withLock { $0.first { $0.backend.name == name }?.backend }
    }

    /// Opens the device a UID names (`backend:name`, or a bare backend name for its default).
    public static func makeOutput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try output(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames).open(uid: uid)
    }

    /// The default output of backend `name` alone: the device `AUDIOQUEUE_DEVICE` names when
    /// set, else the backend's own default. What a queue that follows the default opens again
    /// when its device goes away: no other backend is tried, and no file stands in.
    public static func makeDefaultOutput(
        backend name: String, sampleRate: Double, channels: Int, bufferFrames: Int
    ) throws(AudioDeviceError) -> any AudioOutputDevice {
        try output(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames).openDefault(backend: name)
    }

    /// The default output device for interleaved Float32 at `sampleRate` with `channels`,
    /// chosen as the type's description says. `tried` receives a line for every backend that
    /// was skipped and why.
    public static func makeDefaultOutput(
        sampleRate: Double, channels: Int, bufferFrames: Int,
        tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioOutputDevice {
        let opener = output(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        let (opened, reasons) = try opener.openDefault(tried: tried)
        if let opened { return opened }
        if let device = opener.namedDevice {
            // A device was named: a file in its place would hide the mistake.
            throw AudioDeviceError(.notFound, "AUDIOQUEUE_DEVICE=\(device): no sound backend opens it (\(reasons.joined(separator: "; ")))")
        }
        let why = reasons.isEmpty ? "no sound backend is registered" : "no sound server or sound card answered (\(reasons.joined(separator: "; ")))"
        let fallback = fallbackBackend
        guard let fallback else {
            throw AudioDeviceError(.notFound, "\(why), and no fallback backend is registered")
        }
        return try fallback.makeFallbackOutput(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, reason: why)
    }

    /// Opens the input device a UID names (`backend:name`, or a bare backend name for its default).
    public static func makeInput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        try input(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames).open(uid: uid)
    }

    /// The default input of backend `name` alone: the device `AUDIOQUEUE_INPUT_DEVICE` names
    /// when set, else the backend's own default. What an input queue that follows the default
    /// opens again when its device goes away: no other backend is tried.
    public static func makeDefaultInput(
        backend name: String, sampleRate: Double, channels: Int, bufferFrames: Int
    ) throws(AudioDeviceError) -> any AudioInputDevice {
        try input(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames).openDefault(backend: name)
    }

    /// The default input device: `AUDIOQUEUE_BACKEND` (with `AUDIOQUEUE_INPUT_DEVICE`) when set,
    /// else the first registered sound backend that is available and opens one.
    public static func makeDefaultInput(
        sampleRate: Double, channels: Int, bufferFrames: Int,
        tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioInputDevice {
        let (opened, reasons) = try input(sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames).openDefault(tried: tried)
        if let opened { return opened }
        throw AudioDeviceError(.notFound, reasons.isEmpty ? "no sound backend is registered for input" : "no input device: " + reasons.joined(separator: "; "))
    }

    /// How devices of one direction are opened: the variable that names the default device,
    /// and the backend's call that opens one (nil: the backend's default).
    private struct Opener<Device> {
        let deviceVariable: String
        let make: (any AudioBackend, String?) throws(AudioDeviceError) -> Device

        /// The device the variable names, if set.
        var namedDevice: String? { AudioBackends.environment(deviceVariable) }

        /// The device a UID names.
        func open(uid: String) throws(AudioDeviceError) -> Device {
            let (backendName, deviceName) = AudioBackends.split(uid)
            return try make(AudioBackends.registered(backendName, else: "no audio backend '\(backendName)'"), deviceName)
        }

        /// Backend `name`'s default: the device the variable names, else the backend's own.
        func openDefault(backend name: String) throws(AudioDeviceError) -> Device {
            try make(AudioBackends.registered(name, else: "no audio backend '\(name)'", listingKnown: false), namedDevice)
        }

        /// The device the variable names (nil: each backend's default), from the backend
        /// `AUDIOQUEUE_BACKEND` names when that is set, else from the first sound backend that
        /// opens it (`firstOpening`); nil, with the reasons, when none does.
        func openDefault(tried: ((String) -> Void)?) throws(AudioDeviceError) -> (Device?, [String]) {
            let device = namedDevice
            if let name = AudioBackends.environment("AUDIOQUEUE_BACKEND") {
                return (try make(AudioBackends.registered(name, else: "AUDIOQUEUE_BACKEND=\(name): no such backend"), device), [])
            }
            return AudioBackends.firstOpening(tried: tried) { backend throws(AudioDeviceError) in try make(backend, device) }
        }
    }

    private static func output(sampleRate: Double, channels: Int, bufferFrames: Int) -> Opener<any AudioOutputDevice> {
        Opener(deviceVariable: "AUDIOQUEUE_DEVICE") { backend, device throws(AudioDeviceError) in
            try backend.makeOutput(name: device, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
    }

    private static func input(sampleRate: Double, channels: Int, bufferFrames: Int) -> Opener<any AudioInputDevice> {
        Opener(deviceVariable: "AUDIOQUEUE_INPUT_DEVICE") { backend, device throws(AudioDeviceError) in
            try backend.makeInput(name: device, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
    }

    /// The backend called `name`; else `.notFound` saying `unknown`, followed by the names of
    /// the registered backends when `listingKnown`.
    private static func registered(_ name: String, else unknown: @autoclosure () -> String, listingKnown: Bool = true) throws(AudioDeviceError) -> any AudioBackend {
        guard let backend = backend(named: name) else {
            let known = listingKnown ? " (known: \(all.map(\.name).joined(separator: ", ")))" : ""
            throw AudioDeviceError(.notFound, unknown() + known)
        }
        return backend
    }

    /// Asks each registered sound backend (priority above 0), highest first, that is available
    /// to `open` a device; returns the first device opened, and why each backend before it was
    /// skipped (also told to `tried`).
    private static func firstOpening<Device>(
        tried: ((String) -> Void)?, _ open: (any AudioBackend) throws(AudioDeviceError) -> Device
    ) -> (Device?, [String]) {
        var reasons: [String] = []
        for backend in soundBackends {
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

    /// The variable's value; nil when it is unset or empty.
    package static func environment(_ name: String) -> String? {
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
