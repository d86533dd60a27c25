@_exported public import AudioCore
@_exported public import AudioFileServices
@_exported public import AudioCodecs
@_exported public import AudioConverterServices
@_exported public import ExtendedAudioFileServices
@_exported public import AudioDevices
@_exported public import AudioDeviceFile
@_exported public import AudioQueueServices
@_exported public import AudioUnitServices
@_exported public import AudioTimePitch
@_exported public import AudioDeviceALSA
@_exported public import AudioDevicePulse
@_exported public import AudioDevicePipeWire
@_exported public import AudioCodecKit

/// Everything an app needs, in one import: files, codecs, devices, queues and audio units.
public enum AudioQueueKit {
    /// Registers the codecs and backends this package builds: the codecs of `AudioCodecKit`
    /// (AAC decoding through faad2, AAC-LC encoding through libavcodec, MPEG audio (Layers I–III)
    /// through libmpg123, FLAC through libFLAC, Opus through libopus, Vorbis through libavcodec where it
    /// loads, else libvorbis), then the PipeWire,
    /// PulseAudio and ALSA backends, in that order of preference for the default device, and the file backend, whose WAVE file is the
    /// default device when none plays. Call once before creating queues or output units or opening files
    /// that need them; calling again changes nothing.
    public static func registerAll() {
        AudioCodecKit.registerAll()
        // Native PipeWire first: available only when a PipeWire server answers.
        AudioBackends.register(PipeWireBackend(), priority: 30)
        AudioBackends.register(PulseBackend(), priority: 20)
        AudioBackends.register(ALSABackend(), priority: 10)
        AudioBackends.register(WAVFileBackend(), priority: 0)
    }
}
