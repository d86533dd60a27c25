/// The `AudioStreamBasicDescription` Apple gives FLAC (`'flac'`): 4096 frames per packet of
/// varying size, and the source's bit depth in the format flags as Apple Lossless has it.
public enum FLACDataFormat {
    /// Frames per packet (one FLAC frame) Apple's encoder writes and this package's does.
    public static let framesPerPacket = 4096

    /// The format flag for a source bit depth (`kAppleLosslessFormatFlag_16BitSourceData` 1,
    /// `_20BitSourceData` 2, `_24BitSourceData` 3, `_32BitSourceData` 4); 0 for other depths.
    public static func formatFlag(bitDepth: Int) -> UInt32 {
        switch bitDepth {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
    }

    /// The bit depth a FLAC description names: its `bitsPerChannel` when set, else the depth
    /// its format flags give; nil when neither does.
    public static func bitDepth(of format: AudioStreamBasicDescription) -> Int? {
        if format.bitsPerChannel > 0 { return Int(format.bitsPerChannel) }
        switch format.formatFlags.rawValue {
        case 1: return 16
        case 2: return 20
        case 3: return 24
        case 4: return 32
        default: return nil
        }
    }

    /// The description of FLAC of `bitDepth`-bit samples: flags for the depths that have one
    /// (bits per channel 0, as Apple's), else no flags and the depth in `bitsPerChannel`.
    public static func description(
        sampleRate: Double, channels: UInt32, bitDepth: Int, framesPerPacket: Int = framesPerPacket
    ) -> AudioStreamBasicDescription {
        let flag = formatFlag(bitDepth: bitDepth)
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .flac, formatFlags: AudioFormatFlags(rawValue: flag), bytesPerPacket: 0,
            framesPerPacket: UInt32(framesPerPacket), bytesPerFrame: 0, channelsPerFrame: channels,
            bitsPerChannel: flag == 0 ? UInt32(bitDepth) : 0)
    }
}
