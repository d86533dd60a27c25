import AudioCore

/// The ALACSpecificConfig (Apple's ALAC specification: 24 bytes, big-endian) an MPEG-4 file's
/// `alac` box records, from the magic cookie or made from the data format.
struct ALACConfig: Sendable, Equatable {
    /// The 24 bytes.
    let bytes: [UInt8]

    var frameLength: UInt32 { BigEndianBytes.value(bytes, 0, 4) }
    var bitDepth: UInt8 { bytes[5] }
    var channels: UInt8 { bytes[9] }
    var sampleRate: UInt32 { BigEndianBytes.value(bytes, 20, 4) }

    /// The configuration in an ALAC cookie: the 24 bytes alone (as CAF's `kuki` may hold them),
    /// or after QuickTime's `frma` atom and inside an `alac` atom (as Apple's encoder gives it).
    /// It must describe `format`'s packets, channels and rate: else `parameter`.
    init(cookie: [UInt8], format: AudioStreamBasicDescription) throws(AudioFileError) {
        var p = 0
        func atom(_ type: String) -> Bool {
            cookie.count - p >= 8 && Array(cookie[(p + 4)..<(p + 8)]) == Array(type.utf8)
        }
        if atom("frma") { p += 12 }
        if atom("alac") { p += 12 }
        guard cookie.count - p >= 24 else { throw AudioFileError(.parameter, "the ALAC magic cookie holds no ALACSpecificConfig") }
        bytes = Array(cookie[p..<(p + 24)])
        guard frameLength == format.framesPerPacket, Int(channels) == Int(format.channelsPerFrame),
              [16, 20, 24, 32].contains(bitDepth), sampleRate == 0 || Double(sampleRate) == format.sampleRate
        else {
            throw AudioFileError(
                .parameter,
                "the ALAC magic cookie describes \(frameLength)-frame packets of \(channels) channels of \(bitDepth) bits at \(sampleRate) Hz; "
                    + "the data format is \(format)")
        }
    }

    /// The configuration Apple's encoder gives for `format` (its default history and Rice
    /// parameters), nil where the format flags give no bit depth.
    init?(format: AudioStreamBasicDescription) {
        let depths: [UInt32: UInt8] = [1: 16, 2: 20, 3: 24, 4: 32]
        guard let depth = depths[format.formatFlags.rawValue] else { return nil }
        var b = BigEndianBytes()
        b.u32(format.framesPerPacket)
        b.bytes += [0, depth, 40, 10, 14, UInt8(format.channelsPerFrame)]
        b.u16(255)  // maxRun
        b.u32(0); b.u32(0)  // maxFrameBytes, avgBitRate: unknown
        b.u32(UInt32(format.sampleRate))
        bytes = b.bytes
    }
}

extension BigEndianBytes {
    /// The big-endian value of `count` bytes at `offset`.
    static func value(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt32 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

extension FormatChecks {
    /// Apple Lossless (`'alac'`): packets of a constant number of frames (the last may be
    /// shorter), varying in size, of 1 to 8 channels.
    func alac() throws(AudioFileError) -> AudioStreamBasicDescription {
        let f = format
        guard f.bytesPerPacket == 0, f.framesPerPacket > 0, f.framesPerPacket <= 1 << 16, f.channelsPerFrame <= 8 else {
            throw unsupported("ALAC packets vary in size (0 bytes per packet) and hold up to 65536 frames of 1 to 8 channels")
        }
        guard f.sampleRate == f.sampleRate.rounded(), f.sampleRate <= Double(UInt32.max) else {
            throw unsupported("ALAC sample rates are whole numbers")
        }
        return AudioStreamBasicDescription(
            sampleRate: f.sampleRate, formatID: .appleLossless, formatFlags: f.formatFlags, bytesPerPacket: 0,
            framesPerPacket: f.framesPerPacket, bytesPerFrame: 0, channelsPerFrame: f.channelsPerFrame, bitsPerChannel: 0)
    }
}
