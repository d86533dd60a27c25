public import AudioCore
public import AudioCodecs
import COpus

/// Opus (`'opus'`) over libopus's multistream decoder.
///
/// The stream is configured by the magic cookie: an `OpusHead` packet (Ogg Opus, and what this
/// package's CAF and MPEG-4 readers give) or the body of an MPEG-4 `dOps` box, see `OpusHead` (AudioCore).
/// Without a cookie (ffmpeg's CAF files have none) the stream description's channel count
/// decides: one or two channels, mapping family 0 (more: a stand-in until a cookie is given).
/// A cookie in neither form is taken as none for one or two channels (a container's own
/// layout, which needs nothing for family 0) and refused for more.
///
/// - Output: interleaved, packed, native-endian Float32 at 48 kHz, whatever the encoder's input
///   rate was (as Apple's decoder, ffmpeg and opusdec without `--rate` do). The header's output
///   gain (Q7.8 dB) is applied by libopus.
/// - Channels: mapping family 0 (mono, stereo), 1 (one to eight channels in Vorbis order,
///   put in Core Audio's / WAVE's order: L R C LFE, then back, then side surrounds, as
///   ``outputChannelLayout`` says) and 255 (any count, in the stream's order).
/// - Timing: every packet decodes to its full duration (2.5 to 120 ms). The header's pre-skip
///   is not applied here: the file readers report it as the packet table's priming frames and
///   the end trimming as its remainder frames, which ExtAudioFile and the queues trim.
/// - A packet libopus refuses appends silence of its duration (from `frames`, else its TOC,
///   else 20 ms) and throws `badData`.
public final class OpusDecoder: AudioDecoder {
    /// Interleaved Float32 at 48 kHz with the stream's channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// The stream description's frames per packet where it gives one (the containers give the
    /// longest packet's duration; audio queues take every packet to be this long unless its
    /// description says otherwise), else 5760: 120 ms at 48 kHz, the longest Opus packet.
    public let maximumFramesPerPacket: Int
    /// 8 packets of pre-roll, not exact: SILK and CELT carry state across packets; RFC 7845
    /// §4.6 has a seek decode at least 80 ms before its target (8 packets of 10 ms, 4 of the
    /// usual 20 ms). The state it rebuilds is close to, not bit for bit, what a continuous
    /// decode has.
    public var traits: AudioDecoderTraits { AudioDecoderTraits(preRollPackets: 8, restartsExactly: false) }
    /// The stream's configuration (from the cookie, or implied by the stream description).
    public let head: OpusHead

    private let decoder: OpaquePointer
    private let channels: Int

    /// Makes a decoder for `'opus'` packets. Throws `formatNotSupported` for another format, a
    /// description of no channels without a cookie, or a family libopus refuses;
    /// `badData` for a malformed cookie of a stream of more than two channels.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .opus else {
            throw AudioCodecError(.formatNotSupported, "OpusDecoder does not decode \(input.formatID.messageName)")
        }
        var head: OpusHead
        var parsed: Result<OpusHead, OpusHead.FormatError>?
        if let magicCookie, !magicCookie.isEmpty {
            do {
                parsed = .success(try OpusHead(cookie: magicCookie))
            } catch {
                parsed = .failure(error)
            }
        }
        if case .success(let cookieHead) = parsed {
            head = cookieHead
        } else if case .failure(let error) = parsed, !(1...2).contains(input.channelsPerFrame) {
            throw AudioCodecError(.badData, "Opus magic cookie: \(error.reason)")
        } else {
            let channels = Int(input.channelsPerFrame)
            guard channels > 0, channels <= 255 else {
                throw AudioCodecError(.formatNotSupported, "an Opus stream of \(channels) channels")
            }
            head = OpusHead(channelCount: channels, preSkip: 0)
            if channels > 2 {
                // No mapping without a cookie: a stand-in of one mono stream per channel, so an
                // audio queue can be made before its magic cookie is set (which remakes the
                // decoder); multichannel packets decode only with the real mapping.
                head.mappingFamily = 255
                head.streamCount = channels
                head.coupledCount = 0
                head.channelMapping = (0..<channels).map { UInt8($0) }
            }
        }
        let order = head.vorbisToCoreAudioOrder
        var mapping = order.map { head.channelMapping[$0] }
        var error: Int32 = 0
        let made = mapping.withUnsafeMutableBufferPointer { table in
            opus_multistream_decoder_create(
                48000, Int32(head.channelCount), Int32(head.streamCount), Int32(head.coupledCount), table.baseAddress!, &error)
        }
        guard let made, error == OPUS_OK else {
            if let made { opus_multistream_decoder_destroy(made) }
            throw AudioCodecError(.formatNotSupported, "libopus refuses the stream configuration: \(Self.message(error))")
        }
        if head.outputGain != 0 {
            let rc = copus_ms_set_gain(made, Int32(head.outputGain))
            guard rc == OPUS_OK else {
                opus_multistream_decoder_destroy(made)
                throw AudioCodecError(.formatNotSupported, "libopus refuses an output gain of \(head.outputGain): \(Self.message(rc))")
            }
        }
        decoder = made
        maximumFramesPerPacket = (120...5760).contains(input.framesPerPacket) ? Int(input.framesPerPacket) : 5760
        channels = head.channelCount
        self.head = head
        outputFormat = .linearPCM(sampleRate: 48000, channels: UInt32(head.channelCount), bitsPerChannel: 32, isFloat: true)
    }

    deinit { opus_multistream_decoder_destroy(decoder) }

    /// Mono, stereo or (family 1) the WAVE-order bitmap of the channels; nil for family 255.
    public var outputChannelLayout: AudioChannelLayout? { head.channelLayout }

    /// Decodes one Opus packet (all its streams) and appends its frames to `buffer`. Throws
    /// `invalidOutputSize`, appending nothing, when `buffer` is not in ``outputFormat`` or
    /// lacks room for ``maximumFramesPerPacket`` frames; `badData` after appending silence for a
    /// packet libopus cannot decode.
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        guard buffer.framesFree >= maximumFramesPerPacket else {
            throw AudioCodecError(
                .invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; an Opus packet may need \(maximumFramesPerPacket)")
        }
        let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
        let expected = OpusPacket.frameCount(packet)
        var rc: Int32 = OPUS_INVALID_PACKET
        if let base = packet.baseAddress, packet.count > 0, packet.count <= Int(Int32.max) {
            rc = opus_multistream_decode_float(
                decoder, base.assumingMemoryBound(to: UInt8.self), Int32(packet.count), destination, Int32(maximumFramesPerPacket), 0)
        }
        guard rc > 0 else {
            let length = min(frames.flatMap { $0 > 0 ? $0 : nil } ?? expected ?? 960, maximumFramesPerPacket)
            destination.initialize(repeating: 0, count: length * channels)
            buffer.frameLength += length
            throw AudioCodecError(.badData, "libopus: \(Self.message(rc))")
        }
        buffer.frameLength += Int(rc)
        return Int(rc)
    }

    /// Drops all decoding state (libopus's reset), as after a seek.
    public func reset() {
        _ = copus_ms_reset(decoder)
    }

    /// Registers this decoder for `'opus'`.
    public static func register() {
        AudioDecoders.register(OpusDecoder.self, for: [.opus])
    }

    private static func message(_ code: Int32) -> String {
        opus_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
