public import AudioDevices
import CALSA
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The ALSA backend (`alsa`): plays and records through alsa-lib, by any PCM name its
/// configuration knows: `default`, a card (`hw:0,0`, `plughw:1`), or a plugin PCM (`pulse`,
/// `dmix`, `null`, `file:FILE=/path,FORMAT=raw`).
///
/// ``makeOutput(name:sampleRate:channels:bufferFrames:)`` makes an ``ALSAOutputDevice`` and
/// ``makeInput(name:sampleRate:channels:bufferFrames:)`` an ``ALSAInputDevice``; a nil name
/// opens `default`.
public struct ALSABackend: AudioBackend {
    /// An ALSA backend.
    public init() {}

    /// `"alsa"`.
    public var name: String { "alsa" }
    public var manufacturer: String { "ALSA" }
    /// ALSA's PCMs are the machine's sound cards (or plugins over them).
    public var isHardware: Bool { true }

    /// True when the `default` PCM opens for playback (it is opened non-blocking and closed at
    /// once). alsa-lib's messages about why it does not are kept off the terminal.
    public func isAvailable() -> Bool {
        let (status, _) = ALSAMessages.collecting { () -> Int32 in
            var pcm: OpaquePointer?
            let status = snd_pcm_open(&pcm, "default", SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
            if status >= 0, let pcm { snd_pcm_close(pcm) }
            return status
        }
        return status >= 0
    }

    /// The PCMs alsa-lib's configuration and the sound cards name (`snd_device_name_hint`),
    /// one entry per direction a PCM supports, with `default` first and marked default. A PCM
    /// listed is one that can be named, not necessarily one that opens now.
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        let (hints, _) = ALSAMessages.collecting { () -> (Int32, [(name: String, description: String, ioid: String?)]) in
            var list: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            let status = snd_device_name_hint(-1, "pcm", &list)
            guard status >= 0, let list else { return (status, []) }
            defer { snd_device_name_free_hint(list) }
            var found: [(name: String, description: String, ioid: String?)] = []
            var i = 0
            while let hint = list[i] {
                i += 1
                guard let name = hintValue(hint, "NAME") else { continue }
                let description = hintValue(hint, "DESC")?.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init)
                found.append((name, description ?? name, hintValue(hint, "IOID")))
            }
            return (0, found)
        }
        guard hints.0 >= 0 else {
            throw AudioDeviceError(.ioFailed, "cannot list ALSA PCMs: \(alsaErrorText(hints.0))")
        }
        var outputs: [AudioDeviceInfo] = []
        var inputs: [AudioDeviceInfo] = []
        for hint in hints.1 {
            let isDefault = hint.name == "default"
            if hint.ioid == nil || hint.ioid == "Output" {
                outputs.append(AudioDeviceInfo(backend: name, name: hint.name, description: hint.description, direction: .output, isDefault: isDefault))
            }
            if hint.ioid == nil || hint.ioid == "Input" {
                inputs.append(AudioDeviceInfo(backend: name, name: hint.name, description: hint.description, direction: .input, isDefault: isDefault))
            }
        }
        // `default` always exists as a name, even when its hint cannot be evaluated (no card).
        for direction in [AudioDeviceDirection.output, .input] {
            var list = direction == .output ? outputs : inputs
            if let index = list.firstIndex(where: { $0.name == "default" }) {
                list.insert(list.remove(at: index), at: 0)
            } else {
                list.insert(AudioDeviceInfo(backend: name, name: "default", description: "Default ALSA device", direction: direction, isDefault: true), at: 0)
            }
            if direction == .output { outputs = list } else { inputs = list }
        }
        return outputs + inputs
    }

    /// Opens ALSA PCM `name` (nil: `default`) for playback: an ``ALSAOutputDevice``.
    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try ALSAOutputDevice(name: name ?? "default", sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }

    /// Opens ALSA PCM `name` (nil: `default`) for capture: an ``ALSAInputDevice``.
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        try ALSAInputDevice(name: name ?? "default", sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
    }
}

/// One field of a name hint, freed after copying.
private func hintValue(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
    guard let value = snd_device_name_get_hint(hint, id) else { return nil }
    defer { free(value) }
    return String(cString: value)
}
