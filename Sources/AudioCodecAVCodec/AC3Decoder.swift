public import AudioCore
public import AudioCodecs
import CAVCodec

/// AC-3 (`'ac-3'`, Dolby Digital) and Enhanced AC-3 (`'ec-3'`, Dolby Digital Plus) through
/// libavcodec's `ac3` and `eac3` decoders.
///
/// - Configuration: the magic cookie, the body of the MPEG-4 `dac3` or `dec3` box (or the whole
///   box; see `AC3Configuration`, AudioCore), which the package's readers give for every
///   container. Without one, the stream description's channel count stands for the usual coding
///   mode of that count (`AC3Configuration.assumed(channels:enhanced:)`).
/// - Output: interleaved native-endian Float32 at the stream's rate with the configuration's
///   channels, in the bitstream's order as a Mac's decoder gives them (L C R Ls Rs LFE for 3/2
///   with LFE, then the channels dependent substreams add), which ``outputChannelLayout`` names
///   with Core Audio's AC-3 tags. libavcodec's own order (WAVE's) is put in that order by the
///   channels' roles.
/// - Packets: one syncframe of AC-3, or an E-AC-3 independent frame with its dependent frames
///   (the 7.1 of a dependent substream decodes whole); an MPEG-4 sample holding several
///   syncframes of fewer than six blocks decodes to all of them. 1536 frames for six blocks.
/// - Damage: a packet libavcodec refuses, or that gives no audio, appends silence of its
///   duration (the packet description's, else its header's, else 1536 frames) and throws
///   `badData`; libavcodec conceals a frame whose CRC fails itself.
///
/// libavcodec's dynamic range compression is its default, as in ffmpeg's decodes. The first
/// decoder lowers libavutil's log level to fatal errors when the program has not set one, so a
/// damaged stream does not print to standard error. libavcodec is loaded when the first decoder
/// is made; a decoder cannot be made (`formatNotSupported`) when it cannot be loaded.
public final class AC3Decoder: AudioDecoder {
    /// Interleaved Float32 at the stream's rate with the configuration's channels.
    public let outputFormat: AudioStreamBasicDescription
    /// 1536, or the stream description's frames per packet where it says more.
    public let maximumFramesPerPacket: Int
    /// The stream's configuration (from the cookie, or assumed from the channel count).
    public let configuration: AC3Configuration
    /// One packet of pre-roll rebuilds the overlap of the transform; not exact, as libavcodec's
    /// dither noise runs through the stream.
    public var traits: AudioDecoderTraits { AudioDecoderTraits(preRollPackets: 1, restartsExactly: false) }
    /// The configuration's layout: the order of the output channels.
    public var outputChannelLayout: AudioChannelLayout? { configuration.channelLayout }

    private let enhanced: Bool
    /// True for `'cac3'`, whose packets may be IEC 61937 bursts.
    private let iec61937: Bool
    private let channels: Int
    private let labels: [AudioChannelLabel]
    private let session: AVCodecDecoderSession
    private var frame: UnsafeMutablePointer<AVFrame> { session.frame }
    /// The plane each output channel takes (-1: silence), for the decoded layout `mapMask`/`mapCount`.
    private var map: [Int] = []
    private var mapMask: UInt64 = 0
    private var mapCount = -1

    /// A decoder for `'ac-3'` or `'ec-3'` packets (`'cac3'`, AC-3 for an IEC 60958 interface:
    /// packets that are IEC 61937 data bursts, or AC-3 frames whose 16-bit words are
    /// byte-swapped, are unwrapped first; others are decoded as AC-3). `formatNotSupported` for other formats, a description of no channels or a rate of
    /// 0 without a cookie that gives one, or when libavcodec cannot be loaded or has no such
    /// decoder; `badData` for a cookie that is not a `dac3` or `dec3` box.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard [.ac3, .enhancedAC3, .ac3_60958].contains(input.formatID) else {
            throw AudioCodecError(.formatNotSupported, "AC3Decoder does not decode '\(input.formatID)'")
        }
        let enhanced = input.formatID == .enhancedAC3
        var configuration: AC3Configuration
        if let magicCookie, !magicCookie.isEmpty {
            do {
                configuration = try AC3Configuration(cookie: magicCookie, enhanced: enhanced)
            } catch {
                throw AudioCodecError(.badData, "AC-3 magic cookie: \(error.reason)")
            }
        } else {
            let count = Int(input.channelsPerFrame)
            guard count > 0, count <= 16 else {
                throw AudioCodecError(.formatNotSupported, "an AC-3 stream of \(count) channels without a magic cookie")
            }
            configuration = AC3Configuration.assumed(channels: count, enhanced: enhanced)
        }
        var rate = input.sampleRate
        if !(rate > 0 && rate.isFinite) { rate = Double(configuration.sampleRate) }
        guard rate > 0 else { throw AudioCodecError(.formatNotSupported, "an AC-3 stream without a sample rate") }
        self.configuration = configuration
        self.enhanced = enhanced
        iec61937 = input.formatID == .ac3_60958
        labels = configuration.channelLabels
        channels = labels.count
        maximumFramesPerPacket = max(1536, min(Int(input.framesPerPacket), 6 * 1536))
        outputFormat = .linearPCM(sampleRate: rate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        session = try AVCodecDecoderSession(decoder: enhanced ? "eac3" : "ac3", what: enhanced ? "E-AC-3" : "AC-3")
    }

    /// Decodes one packet and appends its frames to `buffer`. Throws `invalidOutputSize`,
    /// appending nothing, when `buffer` is not in ``outputFormat`` or lacks room for
    /// ``maximumFramesPerPacket`` frames; `badData` after appending silence for a packet that
    /// does not decode.
    public func decode(packet bytes: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        guard buffer.framesFree >= maximumFramesPerPacket else {
            throw AudioCodecError(
                .invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; an AC-3 packet may need \(maximumFramesPerPacket)")
        }
        var appended = 0
        var status: Int32 = -1
        let unwrapped = iec61937 ? Self.iec61937Payload(bytes) : nil
        if let unwrapped {
            status = unwrapped.withUnsafeBytes { session.send($0) }
        } else {
            status = session.send(bytes)
        }
        if status >= 0 {
            let limit = maximumFramesPerPacket
            session.receive { frame in
                let count = min(Int(frame.pointee.nb_samples), limit - appended)
                if count > 0 { interleave(count, into: buffer) }
                appended += max(count, 0)
            }
        }
        guard appended > 0 else {
            let header = bytes.count >= AC3FrameHeader.parsedLength ? AC3FrameHeader(Array(bytes.prefix(AC3FrameHeader.parsedLength)), 0) : nil
            let length = min(frames.flatMap { $0 > 0 ? $0 : nil } ?? header?.frameCount ?? 1536, maximumFramesPerPacket)
            buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self).initialize(repeating: 0, count: length * channels)
            buffer.frameLength += length
            throw AudioCodecError(.badData, "libavcodec could not decode the \(enhanced ? "E-AC-3" : "AC-3") packet (\(status))")
        }
        return appended
    }

    /// The AC-3 frame of an IEC 61937 data burst (`'cac3'`: preamble Pa Pb Pc Pd, 16-bit words in
    /// either byte order, Pd the payload's length in bits), or of a raw frame whose 16-bit words
    /// are byte-swapped (`77 0B`); nil for anything else, which is decoded as it is.
    static func iec61937Payload(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count >= 8 else { return nil }
        let b = bytes.bindMemory(to: UInt8.self)
        var swapped: Bool
        var start = 0
        var length = bytes.count
        if b[0] == 0x72 && b[1] == 0xF8 && b[2] == 0x1F && b[3] == 0x4E {
            swapped = true  // little-endian words
            length = Int(b[6]) | Int(b[7]) << 8
        } else if b[0] == 0xF8 && b[1] == 0x72 && b[2] == 0x4E && b[3] == 0x1F {
            swapped = false
            length = Int(b[6]) << 8 | Int(b[7])
        } else if b[0] == 0x77 && b[1] == 0x0B {
            swapped = true
            length = bytes.count * 8
            start = -8
        } else {
            return nil
        }
        start += 8
        let count = min(length / 8 + (length % 8 == 0 ? 0 : 1), bytes.count - start)
        guard count > 0 else { return nil }
        var payload = Array(b[start..<(start + count)])
        if swapped {
            var i = 0
            while i + 1 < payload.count {
                payload.swapAt(i, i + 1)
                i += 2
            }
        }
        return payload
    }

    /// Drops the decoder's state (the transform's overlap, the dither), as after a seek.
    public func reset() {
        session.reset()
    }

    /// Copies `count` frames of the decoded frame's planes to `buffer`, each output channel from
    /// the plane of the same role.
    private func interleave(_ count: Int, into buffer: PCMBuffer) {
        let planeCount = Int(cavcodec_frame_channel_count(frame))
        let mask = cavcodec_frame_channel_mask(frame)
        if mask != mapMask || planeCount != mapCount { remap(mask: mask, planes: planeCount) }
        let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
        guard let planes = frame.pointee.extended_data else {
            destination.initialize(repeating: 0, count: count * channels)
            buffer.frameLength += count
            return
        }
        // The plane of each output channel (nil: silence), then one pass frame by frame.
        var sources = [UnsafePointer<Float>?](repeating: nil, count: channels)
        for (c, source) in map.enumerated() where source >= 0 {
            sources[c] = planes[source].map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) }
        }
        if sources.allSatisfy({ $0 != nil }) {
            let p = sources.map { $0! }
            switch channels {
            case 6:
                let (a, b, c, d, e, f) = (p[0], p[1], p[2], p[3], p[4], p[5])
                for i in 0..<count {
                    let out = destination + 6 * i
                    out[0] = a[i]
                    out[1] = b[i]
                    out[2] = c[i]
                    out[3] = d[i]
                    out[4] = e[i]
                    out[5] = f[i]
                }
            default:
                AVCodecDecoderSession.interleave(p, count, into: destination)
            }
        } else {
            for (c, source) in sources.enumerated() {
                var out = destination + c
                for i in 0..<count {
                    out.pointee = source?[i] ?? 0
                    out += channels
                }
            }
        }
        buffer.frameLength += count
    }

    /// The plane for each output channel: the one whose libavutil channel has the output
    /// channel's role, else the first plane no role claimed, else silence.
    private func remap(mask: UInt64, planes: Int) {
        var roles: [AudioChannelLabel?] = []
        if mask != 0 {
            for bit in 0..<64 where mask & (1 << UInt64(bit)) != 0 { roles.append(Self.label(avChannel: bit)) }
        }
        while roles.count < planes { roles.append(nil) }
        roles = Array(roles.prefix(planes))
        var used = [Bool](repeating: false, count: planes)
        var result = [Int](repeating: -1, count: channels)
        for (c, label) in labels.enumerated() {
            if let p = roles.indices.first(where: { !used[$0] && roles[$0] == label }) {
                result[c] = p
                used[p] = true
            }
        }
        for c in 0..<channels where result[c] < 0 {
            if let p = used.indices.first(where: { !used[$0] }) {
                result[c] = p
                used[p] = true
            }
        }
        map = result
        mapMask = mask
        mapCount = planes
    }

    /// Core Audio's role for a libavutil channel (`AVChannel`, its bit in a native-order mask),
    /// as AC-3 uses them: side channels are the surrounds, back channels the rear surrounds.
    static func label(avChannel bit: Int) -> AudioChannelLabel? {
        switch bit {
        case 0: .left
        case 1: .right
        case 2: .center
        case 3: .lfeScreen
        case 4: .rearSurroundLeft
        case 5: .rearSurroundRight
        case 6: .leftCenter
        case 7: .rightCenter
        case 8: .centerSurround
        case 9: .leftSurround
        case 10: .rightSurround
        case 11: .topCenterSurround
        case 12: .verticalHeightLeft
        case 13: .verticalHeightCenter
        case 14: .verticalHeightRight
        case 15: .topBackLeft
        case 16: .topBackCenter
        case 17: .topBackRight
        case 29: .left
        case 30: .right
        case 31: .leftWide
        case 32: .rightWide
        case 33: .leftSurroundDirect
        case 34: .rightSurroundDirect
        case 35: .lfe2
        default: nil
        }
    }

    /// Registers this decoder for `'ac-3'`, `'ec-3'` and `'cac3'`.
    public static func register() {
        AudioDecoders.register(AC3Decoder.self, for: [.ac3, .enhancedAC3, .ac3_60958])
    }
}
