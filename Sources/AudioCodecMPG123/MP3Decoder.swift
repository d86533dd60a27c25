public import AudioCore
public import AudioCodecs
import CMPG123

/// MPEG-1, MPEG-2 and MPEG-2.5 audio, Layers I, II and III, over libmpg123.
///
/// Packets are whole MPEG audio frames, header included (as an MP3 file's packet table or a
/// demuxer splits them). Output is interleaved, packed, native-endian Float32 at the stream
/// description's sample rate and channel count.
///
/// ## Output format
///
/// ``outputFormat`` is fixed before the first packet: the rate and channels of the stream
/// description, and every packet decodes to exactly ``maximumFramesPerPacket`` frames of it:
/// 1152 for MPEG-1 Layer III and for Layer II, 576 for MPEG-2 and MPEG-2.5 Layer III (rates
/// below 32 kHz), 384 for Layer I. Mono, stereo, joint stereo and dual channel all decode; a
/// stream whose channel count differs from the description's is mixed to mono or duplicated to
/// stereo by libmpg123. libmpg123 never resamples: a frame at another rate is bad data.
///
/// ## Timing
///
/// libmpg123 runs in feed mode with read-ahead off (`MPG123_NO_READAHEAD`), so each frame is
/// decoded as soon as it is fed instead of when the next frame's header confirms it, and with
/// gapless decoding off: packet *n* decodes to frames `n × N ..< (n + 1) × N` of the decoder's
/// output, which is the encoder's input delayed by the encoder's delay plus the 529 frames of
/// the synthesis filter bank. That is how ffmpeg's `mp3float` counts, frame for frame, when it
/// is given no gapless information (ffmpeg skips 529 + the encoder delay itself only when the
/// first frame is a LAME/Info tag); trimming priming and remainder frames is the packet
/// table's, done by ExtAudioFile and the queues. A Xing/Info frame handed over as a packet is
/// decoded as the silent frame it is (`MPG123_IGNORE_INFOFRAME`), so it keeps its place.
/// A Layer III frame whose bit reservoir reaches back further than the frames fed since the
/// decoder was made or reset (a stream cut in the middle, the first frames after a seek) is
/// decoded as ffmpeg decodes it: its granules whose data lies in the missing bytes are silent
/// and the rest are decoded (libmpg123 alone would drop the whole frame).
/// Should libmpg123 hold frames back anyway (as it does with read-ahead), the output is kept
/// continuous by leading silence and keeps the same total: decoding *k* packets always
/// appends exactly *k × N* frames.
///
/// ## Errors
///
/// A packet that is not one frame of the stream (no sync, another layer or rate, shorter than
/// its header says, a free-format frame) appends silence of its length, throws `badData` and
/// is not given to libmpg123, which keeps its state, as ffmpeg drops such a packet. A Layer
/// III frame ffmpeg's decoder rejects (big_values above 288, window switching with block type
/// 0) does the same, and as in ffmpeg its last bytes become the next frame's bit reservoir:
/// the next frame is handed to libmpg123 rebuilt with those bytes in front of its own main
/// data (in a longer frame). A frame libmpg123 itself fails on appends silence, throws
/// `badData` and resets the decoder, so the next packet decodes as after a seek. Bytes after
/// the frame in a packet are ignored.
/// ``reset()`` drops all state. A decoder is used by one thread at a time; it is not
/// `Sendable`.
public final class MP3Decoder: AudioDecoder {
    /// Interleaved, packed, native-endian Float32 at the stream's rate and channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// Frames one packet decodes to: 1152, 576 or 384 (see the type's documentation).
    public let maximumFramesPerPacket: Int
    /// The MPEG audio layer (1, 2 or 3) the format ID names.
    public let layer: Int
    /// Layer III: 10 packets of pre-roll. A frame overlaps the previous one (IMDCT), whose main
    /// data may begin up to 511 bytes (255 in MPEG-2) back in the 9 frames before that: enough
    /// for every MPEG-1 bitrate (at least 60 bytes of main data a frame) and MPEG-2 and 2.5 from
    /// 24 kbit/s up. Layers I and II: 1 (the synthesis filter bank's 512 frames of state).
    ///
    /// Decoding starts at a multiple of 8 packets: libmpg123's synthesis filter bank writes a
    /// ring of 16 blocks of 32 frames, where it starts depending on the frames decoded since
    /// the start; from a multiple of 8 frames (of 576 or 1152 frames) every block is at the
    /// place it has in a decode from the start, which rounds alike, so restarts are exact.
    public var traits: AudioDecoderTraits {
        AudioDecoderTraits(preRollPackets: layer == 3 ? 10 : 1, startAlignment: 8)
    }

    private let rate: Int
    private let channels: Int
    private var handle: OpaquePointer?
    /// Decoded frames not yet appended (interleaved samples).
    private var pending: [Float] = []
    /// Whether packets have decoded since the last reset (leading silence applies before).
    private var started = false
    /// Bytes of Layer III main data the next frame may reach back into: what the last frame
    /// fed left unused after its granules (ffmpeg's reservoir; libmpg123 holds at least these).
    private var reservoir = 0
    /// Bytes of main data libmpg123 holds back to the start of the last frame's reservoir.
    private var held = 0
    /// The bytes of a frame ffmpeg would reject, which it keeps as the next frame's reservoir.
    private var carried: [UInt8]?

    /// libmpg123's one-time global setup (a no-op since 1.27, required before).
    private static let initialized: Bool = mpg123_init() == Int32(MPG123_OK.rawValue)

    /// Makes a decoder for `input` ('.mp3', '.mp2' or '.mp1') at the description's rate (one of
    /// MPEG's nine) and channel count (1 or 2). There is no magic cookie; one given is ignored.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        switch input.formatID {
        case .mpegLayer1: layer = 1
        case .mpegLayer2: layer = 2
        case .mpegLayer3: layer = 3
        default: throw AudioCodecError(.formatNotSupported, "MP3Decoder does not decode \(input.formatID.messageName)")
        }
        guard input.sampleRate.isFinite, let rateIndex = Self.rates.firstIndex(of: Int(input.sampleRate)),
              Double(Self.rates[rateIndex]) == input.sampleRate else {
            throw AudioCodecError(.formatNotSupported, "MPEG audio has no sample rate of \(input.sampleRate) Hz")
        }
        guard input.channelsPerFrame == 1 || input.channelsPerFrame == 2 else {
            throw AudioCodecError(.formatNotSupported, "MPEG audio has 1 or 2 channels, not \(input.channelsPerFrame)")
        }
        rate = Self.rates[rateIndex]
        channels = Int(input.channelsPerFrame)
        maximumFramesPerPacket = switch layer {
        case 1: 384
        case 2: 1152
        default: rate >= 32000 ? 1152 : 576
        }
        outputFormat = .linearPCM(sampleRate: Double(rate), channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        guard Self.initialized else { throw AudioCodecError(.unspecified, "libmpg123 could not be initialised") }
        handle = try Self.open(rate: rate, channels: channels)
    }

    deinit {
        if let handle { mpg123_delete(handle) }
    }

    /// MPEG-1's rates, then MPEG-2's (half), then MPEG-2.5's (a quarter).
    private static let rates = [44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000, 8000]

    /// A new libmpg123 handle in feed mode, allowed only Float32 at `rate` with `channels`.
    private static func open(rate: Int, channels: Int) throws(AudioCodecError) -> OpaquePointer {
        var error: Int32 = 0
        guard let h = mpg123_new(nil, &error) else {
            throw AudioCodecError(.unspecified, "libmpg123 could not make a decoder (error \(error))")
        }
        let flags = MPG123_QUIET.rawValue | MPG123_FORCE_FLOAT.rawValue | MPG123_IGNORE_INFOFRAME.rawValue
            | MPG123_NO_READAHEAD.rawValue | MPG123_IGNORE_STREAMLENGTH.rawValue
        let ok = Int32(MPG123_OK.rawValue)
        let encoding = Int32(MPG123_ENC_FLOAT_32.rawValue)
        let layout = Int32(channels == 1 ? MPG123_MONO.rawValue : MPG123_STEREO.rawValue)
        guard mpg123_param2(h, Int32(MPG123_FLAGS.rawValue), Int(flags), 0) == ok,
              mpg123_param2(h, Int32(MPG123_RESYNC_LIMIT.rawValue), 0, 0) == ok,
              mpg123_format_none(h) == ok,
              mpg123_format(h, rate, layout, encoding) == ok,
              mpg123_open_feed(h) == ok else {
            let message = mpg123_strerror(h).map { String(cString: $0) } ?? "unknown"
            mpg123_delete(h)
            throw AudioCodecError(.formatNotSupported, "libmpg123 cannot decode \(rate) Hz, \(channels) channels to Float32: \(message)")
        }
        return h
    }

    /// Decodes one MPEG audio frame and appends ``maximumFramesPerPacket`` frames to `buffer`.
    ///
    /// `frames` is not used: every packet is one frame. Throws `invalidOutputSize`, appending
    /// nothing, when `buffer` is not in ``outputFormat`` or lacks room; throws `badData` after
    /// appending silence for a packet that does not decode.
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        let n = maximumFramesPerPacket
        guard buffer.framesFree >= n else {
            throw AudioCodecError(.invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; a packet needs \(n)")
        }
        let frameBytes: Int
        switch frameLength(packet) {
        case .success(let length): frameBytes = length
        case .failure(let error):
            dropFrame(into: buffer)
            throw error
        }
        let samples = n * channels
        let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
        // The usual case, one frame in and its frame out with nothing held back, is copied from
        // libmpg123's buffer straight into `buffer`.
        var direct = false
        let frame = UnsafeRawBufferPointer(rebasing: packet[0..<frameBytes])
        var rewritten: [UInt8]?
        if layer == 3, let side = MP3SideInfo(frame) {
            guard side.isDecodable else {
                // ffmpeg drops the frame but keeps its last bytes as the next frame's reservoir.
                carried = Array(frame.suffix(min(512, frame.count - 4)))
                appendSilence(into: buffer)
                throw AudioCodecError(.badData, "an MPEG audio frame with big_values above 288 or a forbidden block type")
            }
            if let bytes = carried {
                // The frame after one ffmpeg rejects: its reservoir is that frame's last bytes.
                carried = nil
                if let rebuilt = MP3ReservoirStart.carrying(frame, side, reservoir: bytes) {
                    rewritten = rebuilt
                    held = min(side.mainDataBegin, bytes.count) + side.mainLength
                } else {
                    rewritten = MP3ReservoirStart.rewrite(frame, side, available: 0)
                    held = side.mainLength
                }
            } else {
                if side.mainDataBegin > reservoir { rewritten = MP3ReservoirStart.rewrite(frame, side, available: reservoir) }
                held = min(min(side.mainDataBegin, reservoir) + side.mainLength, 4096)
            }
            reservoir = min(side.unusedBytes, held)
        }
        let failure = if let rewritten {
            rewritten.withUnsafeBytes { feedAndDecode($0, direct: destination, wrote: &direct) }
        } else {
            feedAndDecode(frame, direct: destination, wrote: &direct)
        }
        if let error = failure {
            concealAndReset(into: buffer)
            throw error
        }
        if direct {
            started = true
            buffer.frameLength += n
            return n
        }
        // Exactly n frames: the oldest pending ones, after leading silence while libmpg123 has
        // not yet output anything (and, should it ever fall short later, silence after them).
        let take = min(pending.count, samples)
        let start = started ? 0 : samples - take
        if take > 0 {
            pending.withUnsafeBufferPointer { (destination + start).initialize(from: $0.baseAddress!, count: take) }
            pending.removeFirst(take)
            started = true
        }
        if take < samples {
            (destination + (start == 0 ? take : 0)).initialize(repeating: 0, count: samples - take)
        }
        buffer.frameLength += n
        return n
    }

    /// Drops all decoding state: the next packet decodes as by a new decoder.
    public func reset() {
        if let handle { mpg123_delete(handle) }
        handle = try? Self.open(rate: rate, channels: channels)
        pending.removeAll(keepingCapacity: true)
        started = false
        reservoir = 0
        held = 0
        carried = nil
    }

    /// Registers this decoder for '.mp3', '.mp2' and '.mp1'.
    public static func register() {
        AudioDecoders.register(MP3Decoder.self, for: [.mpegLayer3, .mpegLayer2, .mpegLayer1])
    }

    // MARK: Decoding

    private static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG-1 Layer I
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],  // MPEG-1 Layer II
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],  // MPEG-1 Layer III
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],  // MPEG-2/2.5 Layer I
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],  // MPEG-2/2.5 Layers II, III
    ]

    /// The length of the frame at the start of `packet` from its header, checked against the
    /// stream (layer, rate) and the packet's size.
    private func frameLength(_ packet: UnsafeRawBufferPointer) -> Result<Int, AudioCodecError> {
        guard packet.count >= 4 else {
            return .failure(AudioCodecError(.badData, "MPEG audio packet of \(packet.count) bytes"))
        }
        let h = UInt32(packet[0]) << 24 | UInt32(packet[1]) << 16 | UInt32(packet[2]) << 8 | UInt32(packet[3])
        guard h >> 21 == 0x7FF else { return .failure(AudioCodecError(.badData, "no MPEG audio frame sync")) }
        let version = Int(h >> 19 & 3)  // 0 MPEG-2.5, 2 MPEG-2, 3 MPEG-1
        let layerBits = Int(h >> 17 & 3)
        let bitrateIndex = Int(h >> 12 & 15)
        let rateIndex = Int(h >> 10 & 3)
        let padding = Int(h >> 9 & 1)
        guard version != 1, layerBits != 0, bitrateIndex != 15, rateIndex != 3 else {
            return .failure(AudioCodecError(.badData, "reserved value in an MPEG audio frame header"))
        }
        let frameLayer = 4 - layerBits
        let frameRate = Self.rates[(version == 3 ? 0 : version == 2 ? 3 : 6) + rateIndex]
        guard frameLayer == layer, frameRate == rate else {
            return .failure(AudioCodecError(
                .badData, "an MPEG audio frame of Layer \(frameLayer) at \(frameRate) Hz in a Layer \(layer) stream at \(rate) Hz"))
        }
        guard bitrateIndex != 0 else {
            return .failure(AudioCodecError(.badData, "free-format MPEG audio frames are not decoded"))
        }
        let table = version == 3 ? frameLayer - 1 : (frameLayer == 1 ? 3 : 4)
        let bitrate = Self.bitrates[table][bitrateIndex] * 1000
        let length = switch frameLayer {
        case 1: (12 * bitrate / frameRate + padding) * 4
        case 2: 144 * bitrate / frameRate + padding
        default: (version == 3 ? 144 : 72) * bitrate / frameRate + padding
        }
        guard packet.count >= length else {
            return .failure(AudioCodecError(.badData, "MPEG audio packet of \(packet.count) bytes; its frame has \(length)"))
        }
        return .success(length)
    }

    /// Feeds one frame to libmpg123 and collects what it decodes; nil on success. A whole frame
    /// decoded while nothing is pending goes to `direct` (setting `wrote`), the rest to `pending`.
    private func feedAndDecode(_ frame: UnsafeRawBufferPointer, direct: UnsafeMutablePointer<Float>, wrote: inout Bool) -> AudioCodecError? {
        guard let h = handle else { return AudioCodecError(.badData, "libmpg123 could not be reopened after an error") }
        let ok = Int32(MPG123_OK.rawValue)
        guard mpg123_feed(h, frame.baseAddress!.assumingMemoryBound(to: UInt8.self), frame.count) == ok else {
            return libraryError(h, "feeding")
        }
        let n = maximumFramesPerPacket
        while true {
            var number: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var bytes = 0
            let rc = mpg123_decode_frame(h, &number, &audio, &bytes)
            switch rc {
            case Int32(MPG123_NEED_MORE.rawValue):
                return nil
            case Int32(MPG123_NEW_FORMAT.rawValue):
                var r = 0
                var c: Int32 = 0
                var e: Int32 = 0
                guard mpg123_getformat(h, &r, &c, &e) == ok, r == rate, Int(c) == channels,
                      e == Int32(MPG123_ENC_FLOAT_32.rawValue) else {
                    return AudioCodecError(.badData, "libmpg123 decodes \(r) Hz, \(c) channels, encoding \(e); the stream is \(rate) Hz, \(channels) channels")
                }
            case ok:
                let sampleBytes = MemoryLayout<Float>.size * channels
                guard bytes % sampleBytes == 0, bytes / sampleBytes <= n else {
                    return AudioCodecError(.badData, "libmpg123 decoded \(bytes) bytes; a frame is \(n * sampleBytes)")
                }
                // More than two frames held back means the stream is not what it says.
                guard pending.count + bytes / MemoryLayout<Float>.size <= 2 * n * channels else {
                    return AudioCodecError(.badData, "libmpg123 decoded more frames than packets")
                }
                if !wrote, pending.isEmpty, bytes == n * sampleBytes, let audio {
                    UnsafeMutableRawPointer(direct).copyMemory(from: audio, byteCount: bytes)
                    wrote = true
                } else if bytes > 0, let audio {
                    audio.withMemoryRebound(to: Float.self, capacity: bytes / 4) {
                        pending.append(contentsOf: UnsafeBufferPointer(start: $0, count: bytes / 4))
                    }
                }
            default:
                return libraryError(h, "decoding")
            }
        }
    }

    private func libraryError(_ h: OpaquePointer, _ doing: String) -> AudioCodecError {
        let message = mpg123_strerror(h).map { String(cString: $0) } ?? "unknown"
        return AudioCodecError(.badData, "libmpg123 failed \(doing) an MPEG audio frame: \(message)")
    }

    /// Appends a packet's length of silence.
    private func appendSilence(into buffer: PCMBuffer) {
        let n = min(maximumFramesPerPacket, buffer.framesFree)
        if n > 0 {
            buffer.freeSpace(0).baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: n * Int(outputFormat.bytesPerFrame))
            buffer.frameLength += n
        }
    }

    /// Appends a packet's length of silence and resets.
    private func concealAndReset(into buffer: PCMBuffer) {
        appendSilence(into: buffer)
        reset()
    }

    /// Conceals a packet libmpg123 is not given, as ffmpeg drops a packet without a frame of
    /// the stream: silence, the decoder's state kept.
    private func dropFrame(into buffer: PCMBuffer) {
        appendSilence(into: buffer)
    }
}
