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

    /// What a program can play to and record from: `default` (first, marked default), the
    /// `pulse` and `pipewire` PCMs when alsa-lib's configuration defines them, and every sound
    /// card's PCM devices as `hw:card,device`, described by the card's name (and the PCM's, when
    /// the card has more than one that way), with the hardware's channel count and rate. The
    /// cards are read from their control devices (`snd_ctl_*`, non-blocking); a PCM's
    /// parameters are asked once, through a non-blocking open that a PCM another program holds
    /// refuses at once (it is then listed without them). alsa-lib's plug-in PCMs that are not
    /// devices (`jack`, `oss`, `speex`, `upmix`, …) are not listed, though they open by name.
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        var outputs: [AudioDeviceInfo] = []
        var inputs: [AudioDeviceInfo] = []
        let (cards, _) = ALSAMessages.collecting { () -> ([ALSACardPCM], [String: String]) in
            var servers: [String: String] = [:]
            for (pcm, description) in [("pulse", "PulseAudio Sound Server"), ("pipewire", "PipeWire Sound Server")]
            where ALSACards.configurationDefines(pcm) {
                servers[pcm] = description
            }
            return (ALSACards.pcms(), servers)
        }
        for direction in [AudioDeviceDirection.output, .input] {
            var list = [AudioDeviceInfo(backend: name, name: "default", description: "Default ALSA Device", direction: direction, isDefault: true)]
            for pcm in ["pulse", "pipewire"] {
                if let description = cards.1[pcm] {
                    list.append(AudioDeviceInfo(backend: name, name: pcm, description: description, direction: direction, nativeBackend: pcm))
                }
            }
            let stream: PCMStream = direction == .output ? .playback : .capture
            let pcms = cards.0.filter { $0.stream == stream }
            for pcm in pcms {
                let several = pcms.filter { $0.card == pcm.card }.count > 1
                let description = several && !pcm.pcmName.isEmpty ? "\(pcm.cardName): \(pcm.pcmName)" : pcm.cardName
                list.append(AudioDeviceInfo(
                    backend: name, name: pcm.name, description: description, direction: direction,
                    channels: pcm.channels, sampleRate: pcm.sampleRate))
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
