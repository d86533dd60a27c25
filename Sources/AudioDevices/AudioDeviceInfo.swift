public import AudioCore

/// Which way audio flows through a device.
public enum AudioDeviceDirection: String, Hashable, Sendable {
    /// Plays audio.
    case output
    /// Records audio.
    case input
}

/// A device a backend can open: what enumeration lists and what
/// `kAudioQueueProperty_CurrentDevice` names.
public struct AudioDeviceInfo: Hashable, Sendable, CustomStringConvertible {
    /// The backend that owns the device (`"pulse"`, `"alsa"`, `"file"`, `"null"`).
    public var backend: String
    /// The name the backend opens it by (`"default"`, `"hw:0,0"`, a sink name, a file path).
    public var name: String
    /// A description for people.
    public var description: String
    /// Playback or capture.
    public var direction: AudioDeviceDirection
    /// True for the backend's default device.
    public var isDefault: Bool
    /// How an open device differs from what was asked for, for people (for example "hw:0
    /// cannot play 44100 Hz; using plughw:0 (alsa-lib converts)"); nil when it does not.
    public var note: String?
    /// The device's own channel count, when the backend knows it (a PulseAudio sink's or
    /// source's); nil when it does not (an ALSA PCM name, a file).
    public var channels: Int?
    /// The device's own sample rate in Hz, when the backend knows it; nil when it does not.
    public var sampleRate: Double?
    /// The backend that lists the same device itself, when this one reaches it through another
    /// (ALSA's `pulse` PCM: `"pulse"`; a sink of PipeWire's PulseAudio server: `"pipewire"`);
    /// nil when none does. A list of every backend's devices shows it once, under that backend.
    public var nativeBackend: String?

    /// A device `name` of `backend`.
    public init(
        backend: String, name: String, description: String, direction: AudioDeviceDirection = .output, isDefault: Bool = false,
        note: String? = nil, channels: Int? = nil, sampleRate: Double? = nil, nativeBackend: String? = nil
    ) {
        self.backend = backend
        self.name = name
        self.description = description
        self.direction = direction
        self.isDefault = isDefault
        self.note = note
        self.channels = channels
        self.sampleRate = sampleRate
        self.nativeBackend = nativeBackend
    }

    /// The unique identifier: `backend:name` (what `kAudioQueueProperty_CurrentDevice` holds).
    public var uid: String { "\(backend):\(name)" }
}

extension AudioStreamBasicDescription {
    /// Interleaved native-endian Float32 at `sampleRate` with `channels`: what devices take.
    public static func deviceFloat(sampleRate: Double, channels: Int) -> AudioStreamBasicDescription {
        .linearPCM(sampleRate: sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
    }
}
