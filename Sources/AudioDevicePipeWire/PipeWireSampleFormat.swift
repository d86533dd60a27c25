import CPipeWire

/// The sample format a PipeWire stream carries: what the device converts the queue's Float32
/// to (output) or from (input) in its process callback. PipeWire converts between it and the
/// device's own format; a format whose samples hold the stream's exactly (16 and 24 bit for
/// 16- and 24-bit audio, Float32 for anything) keeps them bit-exact through a Float32 graph.
public enum PipeWireSampleFormat: String, Sendable, CaseIterable {
    /// 32-bit float, native endian (`SPA_AUDIO_FORMAT_F32`): no conversion at the stream.
    case float32
    /// 16-bit signed integer (`SPA_AUDIO_FORMAT_S16`): sample × 32768, clipped.
    case int16
    /// 24-bit signed integer in 3 bytes, packed, little endian (`SPA_AUDIO_FORMAT_S24`):
    /// sample × 2²³, clipped.
    case int24
    /// 32-bit signed integer (`SPA_AUDIO_FORMAT_S32`): sample × 2³¹, clipped.
    case int32

    /// Bytes per sample.
    public var bytes: Int {
        switch self {
        case .float32, .int32: 4
        case .int16: 2
        case .int24: 3
        }
    }

    /// The SPA format (`SPA_AUDIO_FORMAT_*`).
    var spa: UInt32 {
        switch self {
        case .float32: SPA_AUDIO_FORMAT_F32.rawValue
        case .int16: SPA_AUDIO_FORMAT_S16.rawValue
        case .int24: SPA_AUDIO_FORMAT_S24.rawValue
        case .int32: SPA_AUDIO_FORMAT_S32.rawValue
        }
    }

    /// Converts `count` Float32 samples at `from` to this format at `to` (no allocation).
    func encode(_ from: UnsafePointer<Float>, to: UnsafeMutableRawPointer, count: Int) {
        switch self {
        case .float32:
            to.copyMemory(from: from, byteCount: count * 4)
        case .int16:
            let out = to.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { out[i] = Int16(Self.scaled(from[i], 32768, max: 32767)) }
        case .int24:
            let out = to.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = UInt32(bitPattern: Int32(Self.scaled(from[i], 8_388_608, max: 8_388_607)))
                out[3 * i] = UInt8(truncatingIfNeeded: v)
                out[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                out[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
            }
        case .int32:
            let out = to.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { out[i] = Int32(Self.scaled(from[i], 2_147_483_648, max: 2_147_483_647)) }
        }
    }

    /// Converts `count` samples of this format at `from` to Float32 at `to` (no allocation).
    func decode(_ from: UnsafeRawPointer, to: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .float32:
            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: count * 4)
        case .int16:
            for i in 0..<count { to[i] = Float(from.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) / 32768 }
        case .int24:
            let b = from.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = UInt32(b[3 * i]) | UInt32(b[3 * i + 1]) << 8 | UInt32(b[3 * i + 2]) << 16
                to[i] = Float(Int32(bitPattern: v << 8) >> 8) / 8_388_608
            }
        case .int32:
            for i in 0..<count { to[i] = Float(Double(from.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) / 2_147_483_648) }
        }
    }

    /// `sample` × `scale`, rounded to nearest and clipped to [-scale, max]; NaN is 0.
    @inline(__always)
    private static func scaled(_ sample: Float, _ scale: Double, max: Double) -> Int64 {
        let v = Double(sample) * scale
        guard v == v else { return 0 }
        return Int64(Swift.min(Swift.max(v.rounded(), -scale), max))
    }
}

/// The channel positions a stream announces (`SPA_AUDIO_CHANNEL_*`), so that PipeWire maps
/// them to the device's by name: the usual layouts for 1 to 8 channels (WAVE's order), or
/// `AUX0`, `AUX1`… for channels taken by index (a channel placement's), which the graph links
/// to the device's channels in order.
enum PipeWireChannelPositions {
    static func positions(channels: Int, byIndex: Bool) -> [UInt32] {
        if byIndex || channels > 8 {
            return (0..<channels).map { SPA_AUDIO_CHANNEL_AUX0.rawValue + UInt32($0) }
        }
        let named: [spa_audio_channel]
        switch channels {
        case 1: named = [SPA_AUDIO_CHANNEL_MONO]
        case 2: named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR]
        case 3: named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_FC]
        case 4: named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_RL, SPA_AUDIO_CHANNEL_RR]
        case 5: named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_FC, SPA_AUDIO_CHANNEL_RL, SPA_AUDIO_CHANNEL_RR]
        case 6:
            named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_FC, SPA_AUDIO_CHANNEL_LFE, SPA_AUDIO_CHANNEL_RL,
                     SPA_AUDIO_CHANNEL_RR]
        case 7:
            named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_FC, SPA_AUDIO_CHANNEL_LFE, SPA_AUDIO_CHANNEL_RC,
                     SPA_AUDIO_CHANNEL_SL, SPA_AUDIO_CHANNEL_SR]
        default:
            named = [SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_FC, SPA_AUDIO_CHANNEL_LFE, SPA_AUDIO_CHANNEL_RL,
                     SPA_AUDIO_CHANNEL_RR, SPA_AUDIO_CHANNEL_SL, SPA_AUDIO_CHANNEL_SR]
        }
        return named.map(\.rawValue)
    }
}
