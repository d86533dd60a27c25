@_exported public import AudioCore
@_exported public import AudioFileServices
@_exported public import AudioCodecs
@_exported public import ExtendedAudioFileServices
@_exported public import AudioDevices
@_exported public import AudioQueueServices
import AudioCodecFAAD

/// Everything an app needs, in one import: files, codecs, devices and queues.
public enum AudioQueueKit {
    /// Registers the codecs and backends this package builds (AAC through faad2). Call once
    /// before creating queues or opening files that need them; calling again does nothing.
    public static func registerAll() {
        AACDecoder.register()
    }
}
