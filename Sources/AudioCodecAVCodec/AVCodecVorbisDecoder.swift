public import AudioCore
public import AudioCodecs
import CAVCodec

/// Vorbis (`'vorb'`) through libavcodec's native `vorbis` decoder, one packet per call; the
/// containers do the paging. `AudioCodecKit.registerAll()` registers it for `'vorb'` in
/// preference to libvorbis's `VorbisDecoder` (AudioCodecVorbis), which stays the decoder when
/// libavcodec cannot be loaded.
///
/// It keeps `VorbisDecoder`'s contract at every packet boundary, so the readers' priming and
/// trimming and looped playback are the same with either:
///
/// - Configuration: the magic cookie, the three header packets in either form `VorbisHeaders`
///   (AudioCore) reads; they go to libavcodec as its extradata in Xiph lacing. Without a cookie
///   the decoder is a stand-in that conceals every packet with silence.
/// - Output: interleaved, packed, native-endian Float32 at the stream's rate, libavcodec's
///   samples unchanged (what `ffmpeg -f f32le` writes). Channels: up to eight in Core Audio's
///   (WAVE's) order, which is libavcodec's own order for Vorbis's layouts, as
///   ``outputChannelLayout`` says; more than eight in the stream's order.
/// - Timing: a packet completes a quarter of the block before it and a quarter of its own. The
///   first packet after the decoder is made or reset completes nothing: the decoder appends
///   silence of its duration (`frames` where the container gives it, else a quarter of its
///   block), which the readers count as priming. Where `frames` is given the output has exactly
///   that length: the newest frames are kept when libavcodec gives more (after a
///   discontinuity), silence makes up fewer.
/// - A packet libavcodec refuses (or a header packet among the audio) appends silence of its
///   duration and throws `badData`; the packet after it starts afresh (silence again).
///
/// libavcodec is loaded when the first decoder is made; a decoder cannot be made
/// (`formatNotSupported`) when it cannot be loaded or has no Vorbis decoder.
public final class AVCodecVorbisDecoder: AudioDecoder {
    /// Interleaved Float32 at the stream's rate with its channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// 4096: a packet completes at most half of a block of 8192 frames, the longest Vorbis has.
    public let maximumFramesPerPacket = 4096
    /// One packet of pre-roll, exact: a packet's block decodes on its own, and only the overlap
    /// with the block before carries over.
    public var traits: AudioDecoderTraits { AudioDecoderTraits(preRollPackets: 1) }
    /// The stream's headers; nil for the stand-in made without a cookie.
    public let headers: VorbisHeaders?
    /// Mono, stereo or the WAVE-order bitmap of up to eight channels; nil for more.
    public var outputChannelLayout: AudioChannelLayout? { AudioChannelLayout.waveOrder(channels: channels) }

    private let session: AVCodecDecoderSession?
    private let durations: VorbisPacketDurations?
    private let channels: Int
    private var fresh = true

    /// True when libavcodec can be loaded and has a Vorbis decoder (checked once a process).
    public static var isAvailable: Bool { available }
    private static let available: Bool = {
        AVCodecDecoderSession.libraryLoads && cavcodec_has_decoder("vorbis") != 0
    }()

    /// Makes a decoder for `'vorb'` packets. Throws `formatNotSupported` for another format, a
    /// description of no channels without a cookie, or when libavcodec cannot be loaded or has
    /// no Vorbis decoder; `badData` for a cookie that is not three Vorbis headers, or whose
    /// headers libavcodec refuses.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .vorbis else {
            throw AudioCodecError(.formatNotSupported, "AVCodecVorbisDecoder does not decode '\(input.formatID)'")
        }
        guard let magicCookie, !magicCookie.isEmpty else {
            let channels = Int(input.channelsPerFrame)
            guard channels > 0, channels <= 255, input.sampleRate > 0 else {
                throw AudioCodecError(.formatNotSupported, "a Vorbis stream of \(channels) channels at \(input.sampleRate) Hz without headers")
            }
            headers = nil
            session = nil
            durations = nil
            self.channels = channels
            outputFormat = .linearPCM(sampleRate: input.sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
            return
        }
        let headers: VorbisHeaders
        do {
            headers = try VorbisHeaders(cookie: magicCookie)
        } catch {
            throw AudioCodecError(.badData, "Vorbis magic cookie: \(error.reason)")
        }
        guard AVCodecDecoderSession.libraryLoads else {
            throw AudioCodecError(.formatNotSupported, "libavcodec could not be loaded: \(String(cString: cavcodec_load_error()))")
        }
        guard cavcodec_has_decoder("vorbis") != 0 else { throw AudioCodecError(.formatNotSupported, "libavcodec has no Vorbis decoder") }
        channels = headers.info.channelCount
        do {
            session = try AVCodecDecoderSession(
                decoder: "vorbis", what: "Vorbis", extradata: headers.cookie, channels: channels, rate: headers.info.sampleRate)
        } catch {
            throw AudioCodecError(.badData, "libavcodec refuses the stream's Vorbis headers")
        }
        self.headers = headers
        durations = VorbisPacketDurations(headers)
        outputFormat = .linearPCM(sampleRate: Double(headers.info.sampleRate), channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
    }

    /// Decodes one Vorbis packet and appends its frames to `buffer`. Throws
    /// `invalidOutputSize`, appending nothing, when `buffer` is not in ``outputFormat`` or lacks
    /// room for ``maximumFramesPerPacket`` frames; `badData` after appending silence for a
    /// packet libavcodec cannot decode.
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        guard buffer.framesFree >= maximumFramesPerPacket else {
            throw AudioCodecError(
                .invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; a Vorbis packet may need \(maximumFramesPerPacket)")
        }
        guard let session, let durations, packet.count > 0 else {
            appendSilence(frames ?? 0, to: buffer)
            if session == nil, packet.count > 0 { throw AudioCodecError(.badData, "a Vorbis packet before the stream's headers") }
            return frames ?? 0
        }
        let first = packet.load(as: UInt8.self)
        let blockSize = durations.blockSize(first: first)
        // A header packet (type bit set) would make libavcodec read new headers mid-stream.
        var status: Int32 = blockSize == nil ? -1 : session.send(packet)
        let start = buffer.frameLength
        var appended = 0
        if status >= 0 {
            let limit = maximumFramesPerPacket
            let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
            let channels = channels
            session.receive { frame in
                // Only what a packet can complete; a frame of other channels is damage.
                guard Int(cavcodec_frame_channel_count(frame)) == channels, let planes = session.planes(channels) else {
                    status = -1
                    return
                }
                let count = min(Int(frame.pointee.nb_samples), limit - appended)
                guard count > 0 else { return }
                AVCodecDecoderSession.interleave(planes, count, into: destination + appended * channels)
                appended += count
            }
        }
        guard status >= 0 else {
            buffer.frameLength = start
            appendSilence(frames ?? (blockSize ?? 0) / 4, to: buffer)
            reset()
            throw AudioCodecError(.badData, "libavcodec could not decode the Vorbis packet (\(status))")
        }
        if fresh {
            // The first block completes nothing: silence for its duration.
            fresh = false
            return appendSilence(frames ?? (blockSize ?? 0) / 4, to: buffer)
        }
        // A packet lasts what the container says where it says it: the newest frames of more,
        // silence after fewer.
        var n = appended
        if let frames, frames > 0, frames <= maximumFramesPerPacket, n > frames {
            let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
            UnsafeMutableRawPointer(destination).copyMemory(
                from: destination + (n - frames) * channels, byteCount: frames * channels * MemoryLayout<Float>.size)
            n = frames
        }
        buffer.frameLength += n
        if let frames, frames > n, frames <= maximumFramesPerPacket {
            return n + appendSilence(frames - n, to: buffer)
        }
        return n
    }

    /// Drops the overlap carried between packets, as after a seek: the next packet decodes as a
    /// stream's first.
    public func reset() {
        session?.reset()
        fresh = true
    }

    @discardableResult
    private func appendSilence(_ frames: Int, to buffer: PCMBuffer) -> Int {
        buffer.appendZeros(frames: frames, limit: maximumFramesPerPacket)
    }

    /// Registers this decoder for `'vorb'` (replacing any other).
    public static func register() {
        AudioDecoders.register(AVCodecVorbisDecoder.self, for: [.vorbis])
    }
}
