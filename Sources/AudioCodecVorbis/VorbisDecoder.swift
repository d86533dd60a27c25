public import AudioCore
public import AudioCodecs
import CVorbis

/// Vorbis (`'vorb'`) over libvorbis's decoding functions (`vorbis_synthesis` and its
/// companions), one packet per call; the containers do the paging.
///
/// The stream is configured by the magic cookie: the three header packets in the form
/// `VorbisHeaders` (AudioCore) describes (Xiph lacing, what the Ogg reader gives, as Matroska and
/// ffmpeg carry them; or each packet after a 16-bit size). Without a cookie the decoder is a
/// stand-in that conceals every packet with silence, so that an audio queue can be made before
/// its magic cookie is set (which remakes the decoder).
///
/// - Output: interleaved, packed, native-endian Float32 at the stream's rate, libvorbis's
///   samples unchanged.
/// - Channels: up to eight in Core Audio's (WAVE's) order rather than Vorbis order (§4.3.9:
///   L C R → L R C, the LFE after the centre, and so on), as ``outputChannelLayout`` says; more
///   than eight in the stream's order.
/// - Timing: a packet completes a quarter of the block before it and a quarter of its own
///   (libvorbis's output for it). The first packet after the decoder is made or reset has no
///   block before it: libvorbis gives nothing for it, and the decoder appends silence of the
///   packet's duration (`frames` where the container gives it, else a quarter of its block),
///   which the readers count as priming; so every packet decodes to the duration the packet
///   table says, after a seek too. Where `frames` is given the output always has that length:
///   after a discontinuity (a looped stream's first packet decoded again after its last)
///   libvorbis gives more, and the newest frames are kept (the first packet's are priming).
/// - A packet libvorbis refuses appends silence of its duration and throws `badData`; the
///   packet after it then starts afresh (silence again), keeping the timing.
///
/// `AudioCodecKit.registerAll()` registers AudioCodecAVCodec's `AVCodecVorbisDecoder` (the same
/// contract over libavcodec's decoder) for `'vorb'` where libavcodec can be loaded, and this
/// decoder where it cannot; ``register()`` registers this one whatever is installed.
public final class VorbisDecoder: AudioDecoder {
    /// Interleaved Float32 at the stream's rate with its channel count.
    public let outputFormat: AudioStreamBasicDescription
    /// 4096: a packet completes at most half of a block of 8192 frames, the longest Vorbis has.
    public let maximumFramesPerPacket = 4096
    /// One packet of pre-roll, exact: a packet's block decodes on its own, and only the overlap
    /// with the block before carries over.
    public var traits: AudioDecoderTraits { AudioDecoderTraits(preRollPackets: 1) }
    /// The stream's headers; nil for the stand-in made without a cookie.
    public let headers: VorbisHeaders?

    private let state: UnsafeMutablePointer<State>?
    private let channels: Int
    private let order: [Int]
    private var fresh = true
    private var packetNumber: Int64 = 3

    /// libvorbis's decoder state, in memory that does not move; the headers it reads are the
    /// shared ``VorbisSetup``.
    private struct State {
        var dsp = vorbis_dsp_state()
        var block = vorbis_block()
    }
    /// The headers as libvorbis read them (kept alive as long as the state points into them).
    private let setup: VorbisSetup?

    /// Makes a decoder for `'vorb'` packets. Throws `formatNotSupported` for another format or a
    /// description of no channels without a cookie; `badData` for a cookie that is not three
    /// Vorbis headers, or whose headers libvorbis refuses.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .vorbis else {
            throw AudioCodecError(.formatNotSupported, "VorbisDecoder does not decode '\(input.formatID)'")
        }
        guard let magicCookie, !magicCookie.isEmpty else {
            let channels = Int(input.channelsPerFrame)
            guard channels > 0, channels <= 255, input.sampleRate > 0 else {
                throw AudioCodecError(.formatNotSupported, "a Vorbis stream of \(channels) channels at \(input.sampleRate) Hz without headers")
            }
            headers = nil
            state = nil
            setup = nil
            self.channels = channels
            order = VorbisIdentification.coreAudioOrder(channels: channels)
            outputFormat = .linearPCM(sampleRate: input.sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
            return
        }
        let headers: VorbisHeaders
        do {
            headers = try VorbisHeaders(cookie: magicCookie)
        } catch {
            throw AudioCodecError(.badData, "Vorbis magic cookie: \(error.reason)")
        }
        let setup = try VorbisSetup.shared(for: headers)
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        guard vorbis_synthesis_init(&state.pointee.dsp, setup.info) == 0 else {
            vorbis_dsp_clear(&state.pointee.dsp)
            state.deallocate()
            throw AudioCodecError(.badData, "libvorbis cannot start decoding the stream")
        }
        vorbis_block_init(&state.pointee.dsp, &state.pointee.block)
        self.setup = setup
        self.headers = headers
        self.state = state
        channels = headers.info.channelCount
        order = VorbisIdentification.coreAudioOrder(channels: channels)
        outputFormat = .linearPCM(sampleRate: Double(headers.info.sampleRate), channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
    }

    deinit {
        guard let state else { return }
        vorbis_block_clear(&state.pointee.block)
        vorbis_dsp_clear(&state.pointee.dsp)
        state.deallocate()
    }

    /// Mono, stereo or the WAVE-order bitmap of up to eight channels; nil for more.
    public var outputChannelLayout: AudioChannelLayout? { AudioChannelLayout.waveOrder(channels: channels) }

    /// Decodes one Vorbis packet and appends its frames to `buffer`. Throws
    /// `invalidOutputSize`, appending nothing, when `buffer` is not in ``outputFormat`` or lacks
    /// room for ``maximumFramesPerPacket`` frames; `badData` after appending silence for a
    /// packet libvorbis cannot decode.
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        guard buffer.framesFree >= maximumFramesPerPacket else {
            throw AudioCodecError(
                .invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; a Vorbis packet may need \(maximumFramesPerPacket)")
        }
        guard let state, packet.count > 0 else {
            appendSilence(frames ?? 0, to: buffer)
            if state == nil, packet.count > 0 { throw AudioCodecError(.badData, "a Vorbis packet before the stream's headers") }
            return frames ?? 0
        }
        let number = packetNumber
        packetNumber += 1
        let rc = Self.withPacket(packet, number: number, first: false) { op in
            let rc = vorbis_synthesis(&state.pointee.block, op)
            return rc == 0 ? vorbis_synthesis_blockin(&state.pointee.dsp, &state.pointee.block) : rc
        }
        guard rc == 0 else {
            let blockSize = Self.withPacket(packet, number: number, first: false) { vorbis_packet_blocksize(self.setup?.info, $0) }
            let length = frames ?? (blockSize > 0 ? blockSize / 4 : 0)
            appendSilence(length, to: buffer)
            restart()
            throw AudioCodecError(.badData, "libvorbis: \(Self.message(rc))")
        }
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        let available = Int(vorbis_synthesis_pcmout(&state.pointee.dsp, &pcm))
        if fresh {
            // The first block completes nothing: silence for its duration.
            fresh = false
            if available > 0 { _ = vorbis_synthesis_read(&state.pointee.dsp, Int32(available)) }
            let blockSize = Self.withPacket(packet, number: number, first: false) { vorbis_packet_blocksize(self.setup?.info, $0) }
            let length = frames ?? (blockSize > 0 ? blockSize / 4 : 0)
            return appendSilence(length, to: buffer)
        }
        // A packet lasts what the container says where it says it: more frames than that come
        // after a discontinuity (a looped stream's first packet again, after its last), whose
        // newest frames are kept; fewer are made up with silence.
        var n = min(available, maximumFramesPerPacket)
        var skip = 0
        if let frames, frames > 0, frames <= maximumFramesPerPacket, n > frames {
            skip = n - frames
            n = frames
        }
        if n > 0, let pcm {
            let destination = buffer.freeSpace(0).baseAddress!.assumingMemoryBound(to: Float.self)
            for (out, source) in order.enumerated() {
                guard let channel = pcm[source] else { continue }
                var d = destination + out
                for i in skip..<(skip + n) {
                    d.pointee = channel[i]
                    d += channels
                }
            }
            buffer.frameLength += n
        }
        if available > 0 { _ = vorbis_synthesis_read(&state.pointee.dsp, Int32(available)) }
        if let frames, frames > n, frames <= maximumFramesPerPacket {
            return n + appendSilence(frames - n, to: buffer)
        }
        return n
    }

    /// Drops the overlap carried between packets, as after a seek: the next packet decodes as a
    /// stream's first.
    public func reset() { restart() }

    private func restart() {
        if let state { _ = vorbis_synthesis_restart(&state.pointee.dsp) }
        fresh = true
    }

    @discardableResult
    private func appendSilence(_ frames: Int, to buffer: PCMBuffer) -> Int {
        buffer.appendZeros(frames: frames, limit: maximumFramesPerPacket)
    }

    /// Calls `body` with `bytes` as libvorbis's packet structure.
    static func withPacket<R>(
        _ bytes: some ContiguousBytesLike, number: Int64, first: Bool, _ body: (UnsafeMutablePointer<ogg_packet>) -> R
    ) -> R {
        bytes.withRawBytes { raw in
            var op = ogg_packet()
            op.packet = UnsafeMutablePointer(mutating: raw.baseAddress?.assumingMemoryBound(to: UInt8.self))
            op.bytes = raw.count
            op.b_o_s = first ? 1 : 0
            op.e_o_s = 0
            op.granulepos = -1
            op.packetno = number
            return body(&op)
        }
    }

    /// Registers this decoder for `'vorb'`.
    public static func register() {
        AudioDecoders.register(VorbisDecoder.self, for: [.vorbis])
    }

    static func message(_ code: Int32) -> String {
        switch code {
        case OV_ENOTVORBIS: "not Vorbis data"
        case OV_EBADHEADER: "a malformed header"
        case OV_ENOTAUDIO: "a packet that is not audio"
        case OV_EBADPACKET: "a malformed packet"
        case OV_EFAULT: "internal error"
        case OV_EIMPL: "a feature it does not implement"
        case OV_EINVAL: "an invalid value"
        default: "error \(code)"
        }
    }
}

/// Bytes that lend a raw pointer to them for a call.
protocol ContiguousBytesLike {
    func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R
}

extension Array: ContiguousBytesLike where Element == UInt8 {
    func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeBytes(body) }
}

extension UnsafeRawBufferPointer: ContiguousBytesLike {
    func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { body(self) }
}
