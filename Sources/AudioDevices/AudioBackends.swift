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
/// the path and why no sound backend played (also in its ``AudioDeviceInfo/note``). The
/// default input is found the same way, with `AUDIOQUEUE_INPUT_DEVICE` naming the device; no
/// device stands in for it. ``open(_:tried:)`` opens the device a request asks for, and
/// ``defaultDevice(_:listing:)`` finds the default one without opening it.
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

    /// Opens the device `request` asks for: the one its UID names, a backend's default, or the
    /// first the default chain (described above) opens, wrapped for its placement if it has one.
    /// `tried` receives a line for every backend of the default chain that was skipped and why.
    public static func open<Device>(_ request: AudioDeviceRequest<Device>, tried: ((String) -> Void)? = nil) throws(AudioDeviceError) -> Device {
        switch request.target {
        case .uid(let uid):
            let (backendName, name) = split(uid)
            return try request.open(on: registered(backendName, else: "no audio backend '\(backendName)'"), name: name)
        case .defaultOf(let backendName):
            let backend = try registered(backendName, else: "no audio backend '\(backendName)'", listingKnown: false)
            return try request.open(on: backend, name: DefaultChain(request.direction).device)
        case .defaultChain:
            let chain = DefaultChain(request.direction)
            let (opened, reasons) = try chain.walk(tried: tried) { backend throws(AudioDeviceError) in try request.open(on: backend, name: chain.device) }
            if let opened { return opened }
            guard let standIn = request.hooks.fallback else {
                // Input: nothing stands in.
                throw AudioDeviceError(.notFound, reasons.isEmpty ? "no sound backend is registered for input" : "no input device: " + reasons.joined(separator: "; "))
            }
            if let device = chain.device {
                // A device was named: a file in its place would hide the mistake.
                throw AudioDeviceError(.notFound, "\(chain.variable)=\(device): no sound backend opens it (\(reasons.joined(separator: "; ")))")
            }
            let why = reasons.isEmpty ? "no sound backend is registered" : "no sound server or sound card answered (\(reasons.joined(separator: "; ")))"
            guard let fallback = chain.fallback else {
                throw AudioDeviceError(.notFound, "\(why), and no fallback backend is registered")
            }
            return try request.placed(standIn(fallback, request.sampleRate, request.placement?.deviceChannels ?? request.channels, request.bufferFrames, why))
        }
    }

    /// Opens the output device a UID names (`backend:name`, or a bare backend name for its
    /// default): ``open(_:tried:)`` of a request for it.
    public static func makeOutput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try open(AudioDeviceRequest(output: .uid(uid), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames))
    }

    /// Opens the input device a UID names (`backend:name`, or a bare backend name for its
    /// default): ``open(_:tried:)`` of a request for it.
    public static func makeInput(uid: String, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        try open(AudioDeviceRequest(input: .uid(uid), sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames))
    }

    /// The default output device for interleaved Float32 at `sampleRate` with `channels`,
    /// chosen as the type's description says: ``open(_:tried:)`` of the default chain.
    public static func makeDefaultOutput(
        sampleRate: Double, channels: Int, bufferFrames: Int, tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioOutputDevice {
        try open(AudioDeviceRequest(output: .defaultChain, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames), tried: tried)
    }

    /// The default input device: `AUDIOQUEUE_BACKEND` (with `AUDIOQUEUE_INPUT_DEVICE`) when set,
    /// else the first registered sound backend that is available and opens one; no device
    /// stands in. ``open(_:tried:)`` of the default chain.
    public static func makeDefaultInput(
        sampleRate: Double, channels: Int, bufferFrames: Int, tried: ((String) -> Void)? = nil
    ) throws(AudioDeviceError) -> any AudioInputDevice {
        try open(AudioDeviceRequest(input: .defaultChain, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames), tried: tried)
    }

    /// The backend called `name`; else `.notFound` saying `unknown`, followed by the names of
    /// the registered backends when `listingKnown`.
    static func registered(_ name: String, else unknown: @autoclosure () -> String, listingKnown: Bool = true) throws(AudioDeviceError) -> any AudioBackend {
        guard let backend = backend(named: name) else {
            let known = listingKnown ? " (known: \(all.map(\.name).joined(separator: ", ")))" : ""
            throw AudioDeviceError(.notFound, unknown() + known)
        }
        return backend
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
