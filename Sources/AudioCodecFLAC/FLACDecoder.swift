public import AudioCore
public import AudioCodecs
import CFLAC

/// FLAC (`'flac'`, `kAudioFormatFLAC`) over libFLAC's stream decoder.
///
/// **Packets.** One packet is one FLAC frame, header to CRC-16 footer, as Apple's readers hand
/// them out of `.flac`, CAF and MPEG-4 files. Each packet is fed to libFLAC through its read
/// callback and decoded with `FLAC__stream_decoder_process_single`; the decoder is flushed after
/// each, so nothing one packet leaves behind reaches the next, and every packet decodes alone —
/// FLAC frames do not depend on each other, so a seek needs no pre-roll.
///
/// **Magic cookie.** The STREAMINFO block, in any form `FLACStreamInfo.init(magicCookie:)`
/// accepts: Apple's (a whole `dfLa` box: size, `'dfLa'`, version and flags, then metadata
/// blocks, as in CAF `kuki` chunks), the `dfLa` box's contents (an MPEG-4 sample entry's box
/// body), `'fLaC'` followed by metadata blocks, or a bare 34-byte STREAMINFO. Without a cookie the stream description decides: the
/// rate and channels, and the bit depth from the format flags, which Apple sets for FLAC as for
/// Apple Lossless (`kAppleLosslessFormatFlag_16BitSourceData` … `_32BitSourceData`, 1…4), else
/// `bitsPerChannel`, else 16. Frame headers name their own rate and depth in the usual cases,
/// so such streams decode as long as the depth guessed is right.
///
/// **Output.** Interleaved signed integer PCM, packed, native (little) endian, at the stream's
/// rate and channel count: sources of up to 16 bits as 16-bit samples, deeper sources as 32-bit
/// samples, left-justified (an 8-bit sample *s* is *s* · 2⁸, a 24-bit one *s* · 2⁸). This is
/// what Apple's decoder gives for Apple Lossless and FLAC alike, and bit for bit what ffmpeg's
/// FLAC decoder gives (`s16`, `s32`). Channels stay in FLAC's order (WAVE order: L R C LFE Ls Rs
/// for 5.1), which ``outputChannelLayout`` names.
///
/// **Errors.** A packet that libFLAC cannot decode (lost sync, a bad header, a CRC mismatch, a
/// frame cut short, a frame of another channel count or depth than the stream's, or more frames
/// than ``maximumFramesPerPacket``) appends silence for the packet's frames and throws
/// `badData` naming libFLAC's error; the next packet decodes normally.
public final class FLACDecoder: AudioDecoder {
    /// Interleaved signed integer PCM: 16-bit for sources of up to 16 bits, 32-bit
    /// (left-justified) for deeper ones.
    public let outputFormat: AudioStreamBasicDescription
    /// The stream's largest block size (STREAMINFO's, else the description's frames per
    /// packet, else FLAC's limit of 65535).
    public let maximumFramesPerPacket: Int
    /// The STREAMINFO the decoder was configured with (from the cookie, or made from the
    /// stream description).
    public let streamInfo: FLACStreamInfo

    private let session: FLACDecoderSession
    private let defaultFrames: Int

    /// Makes a decoder for `'flac'` packets. Throws `formatNotSupported` for another format ID,
    /// more than 8 channels, a depth outside 4…32 bits or a rate outside 1…1,048,575 Hz, and
    /// `badData` for a cookie that holds no usable STREAMINFO.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        guard input.formatID == .flac else {
            throw AudioCodecError(.formatNotSupported, "FLACDecoder does not decode \(input.formatID.messageName)")
        }
        var info: FLACStreamInfo
        if let magicCookie, !magicCookie.isEmpty {
            guard let parsed = FLACStreamInfo(magicCookie: magicCookie) else {
                throw AudioCodecError(.badData, "the FLAC magic cookie (\(magicCookie.count) bytes) holds no STREAMINFO block")
            }
            info = parsed
        } else {
            guard input.sampleRate >= 1, input.sampleRate <= 1_048_575, input.channelsPerFrame > 0 else {
                throw AudioCodecError(
                    .formatNotSupported, "FLAC description of \(input.sampleRate) Hz, \(input.channelsPerFrame) channels and no magic cookie")
            }
            let depth: Int = switch input.formatFlags.rawValue {
            case 1: 16
            case 2: 20
            case 3: 24
            case 4: 32
            default: input.bitsPerChannel >= 4 && input.bitsPerChannel <= 32 ? Int(input.bitsPerChannel) : 16
            }
            let block = input.framesPerPacket >= 16 && input.framesPerPacket <= 65535 ? Int(input.framesPerPacket) : 65535
            info = FLACStreamInfo(
                minimumBlockSize: 16, maximumBlockSize: block, sampleRate: Int(input.sampleRate),
                channels: Int(input.channelsPerFrame), bitsPerSample: depth)
        }
        if let problem = info.problem {
            throw AudioCodecError(.formatNotSupported, "FLAC STREAMINFO: \(problem)")
        }
        guard info.channels >= 1, info.channels <= 8 else {
            throw AudioCodecError(.formatNotSupported, "FLAC with \(info.channels) channels")
        }
        streamInfo = info
        maximumFramesPerPacket = info.maximumBlockSize
        let rate = input.sampleRate >= 1 ? input.sampleRate : Double(info.sampleRate)
        let outBits = info.bitsPerSample <= 16 ? 16 : 32
        outputFormat = .linearPCM(sampleRate: rate, channels: UInt32(info.channels), bitsPerChannel: UInt32(outBits))
        defaultFrames = input.framesPerPacket > 0 && input.framesPerPacket <= 65535 ? Int(input.framesPerPacket) : 0
        session = try FLACDecoderSession(streamInfo: info, outputBits: outBits)
    }

    /// Registers this decoder for `'flac'`.
    public static func register() {
        AudioDecoders.register(FLACDecoder.self, for: [.flac])
    }

    /// Decodes one FLAC frame and appends its frames to `buffer`.
    ///
    /// Throws `invalidOutputSize`, appending nothing, when `buffer` is not in ``outputFormat``
    /// or has no room for ``maximumFramesPerPacket`` frames; throws `badData` after appending
    /// silence for a packet that does not decode (its `frames`, else the stream's frames per
    /// packet, else none).
    @discardableResult
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        let room = buffer.framesFree
        guard room >= min(maximumFramesPerPacket, frames ?? maximumFramesPerPacket) else {
            throw AudioCodecError(.invalidOutputSize, "the buffer has room for \(room) frames; a packet needs up to \(maximumFramesPerPacket)")
        }
        let destination = buffer.freeSpace(0).baseAddress!
        switch session.decode(packet, into: destination, capacity: room) {
        case .success(let decoded):
            buffer.frameLength += decoded
            return decoded
        case .failure(let error):
            let silence = min(room, max(0, frames ?? defaultFrames))
            destination.initializeMemory(as: UInt8.self, repeating: 0, count: silence * Int(outputFormat.bytesPerFrame))
            buffer.frameLength += silence
            throw error
        }
    }

    /// Forgets any partial input; the next packet decodes as the first would.
    public func reset() {
        session.flush()
    }

    /// FLAC's channel order for 1…8 channels (RFC 9639 §9.1.3): mono, stereo, L R C, quad,
    /// L R C Ls Rs, 5.1 (L R C LFE Ls Rs), 6.1 (… LFE Cs Ls Rs) and 7.1 (… LFE Ls Rs Lsd Rsd),
    /// the WAVE channel masks of each.
    public var outputChannelLayout: AudioChannelLayout? {
        let masks: [UInt32] = [0x4, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F]
        let channels = Int(outputFormat.channelsPerFrame)
        guard channels >= 1, channels <= 8 else { return nil }
        if channels == 1 { return AudioChannelLayout(tag: .mono) }
        if channels == 2 { return AudioChannelLayout(tag: .stereo) }
        return AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: masks[channels - 1]))
    }
}
