public import AudioCore
public import AudioCodecs
import CFAAD2

/// MPEG-4 AAC (LC, Main, LTP, HE-AAC, HE-AAC v2) over faad2.
///
/// Packets are raw access units (no ADTS header); the stream is configured by the magic cookie
/// (an ES_Descriptor or a bare AudioSpecificConfig, see ``AACMagicCookie``) or, without one, by
/// the stream description. Output is interleaved, packed, native-endian Float32.
///
/// ## Output format
///
/// ``outputFormat`` is fixed before the first packet, and every packet decodes to exactly
/// ``maximumFramesPerPacket`` frames of it:
/// - SBR signalled explicitly in the AudioSpecificConfig (object type 5 or 29, or the 0x2b7 sync
///   extension): the SBR output rate, twice the core's frames (2048); with an SBR rate equal to
///   the core rate (downsampled SBR), the core rate and 1024 frames.
/// - SBR not signalled, but the stream description says HE-AAC (`'aach'`, `'aacp'`, object type
///   5 or 29 in the format flags, or a sample rate twice the core rate): as if it were explicit,
///   at twice the core rate.
/// - SBR not signalled and no such hint (plain AAC, e.g. every ADTS stream): the core rate and
///   1024 frames (faad2's `dontUpSampleImplicitSBR`). If the first packet carries SBR data
///   anyway (implicit signalling), SBR is decoded in faad2's downsampled mode from the start, so
///   rate, frame count and timing hold: the output is the core band, delayed by the 481 frames
///   of the SBR filter bank. SBR data that first appears later is an error in faad2 (the packet
///   is concealed, see below).
/// - Channels: the core's (channel configuration or program config element); 2 for a mono core
///   with PS signalled or hinted (`'aacp'`, or a description of 2 channels). faad2 always decodes
///   a mono core to two channels; for a mono output they are averaged (identical without PS, so
///   mono output is exact). Channels are in AAC order (e.g. C L R Ls Rs LFE for 5.1), as
///   Apple's decoder and the AAC channel layout tags have them.
///
/// ## Timing
///
/// faad2 hides the first frame it decodes after opening (it reports 0 samples, having written
/// them); this decoder outputs that frame too, so packet *n* decodes to frames
/// `n × 1024 ..< (n + 1) × 1024` of the stream: sample-aligned with ffmpeg's AAC decoder, and
/// trimming the priming frames a file's packet table records (2112 for Apple's encoder) leaves
/// the encoder's input sample-exactly. 7350 Hz, a rate faad2 lacks, is decoded with the 8000 Hz
/// tables, which are the same. A packet that cannot be decoded appends silence of its length and
/// throws `badData` with faad2's message; the decoder is then reopened, so the next packet
/// decodes as after a seek. ``reset()`` does the same.
///
/// ## Safety
///
/// faad2 is given only what it can take: configs in the hierarchical signalling form it parses
/// unconditionally, each packet in a private zero-padded copy with its exact size, and an output
/// buffer sized for the worst case (2048 frames × 64 channels) rather than its own. Every decoded
/// frame's rate, length and channels are checked against ``outputFormat`` before they are
/// copied. A decoder is used by one thread at a time; it is not `Sendable`.
public final class AACDecoder: AudioDecoder {
    /// How SBR is decoded.
    public enum SBRMode: Hashable, Sendable {
        /// No SBR: output at the core rate (SBR in the first packet switches to ``downsampled``).
        case off
        /// SBR at twice the core rate (HE-AAC as intended).
        case upsampled
        /// SBR in faad2's downsampled mode: output at the core rate.
        case downsampled
    }

    /// Interleaved, packed, native-endian Float32 at the output rate and channel count (see the
    /// type's documentation for how SBR and PS decide them).
    public let outputFormat: AudioStreamBasicDescription
    /// Frames one access unit decodes to: 1024 (960 for 960-sample frames, 512/480 for AAC LD),
    /// doubled by upsampling SBR. A packet holding several raw data blocks (an ADTS frame with
    /// more than one, whose `frames` say so) needs that many times the room.
    public let maximumFramesPerPacket: Int
    /// The stream's AudioSpecificConfig, from the magic cookie or the stream description.
    public let audioSpecificConfig: AudioSpecificConfig
    /// 2 packets of pre-roll (the MDCT overlap needs the previous packet).
    ///
    /// AAC without SBR at twice the described rate ('aac ' decoded at its own rate) is reset
    /// every 512 packets: faad2 draws the noise of perceptual noise substitution from one
    /// generator running through the stream, so readers restart the decoder at those points
    /// (about 12 s at 44.1 kHz, 0.4 % more decoding) and each packet decodes to the same frames
    /// whether the stream is read in order, after a seek, or in pieces on several threads.
    ///
    /// HE-AAC ('aach', 'aacp', or SBR doubling the rate): SBR codes envelopes relative to
    /// earlier frames and sends its header only now and then, so a restarted decoder could play
    /// the core alone for a while. It is never reset and its restarts are not exact.
    public let traits: AudioDecoderTraits
    /// How SBR is being decoded; changes once from ``SBRMode/off`` to ``SBRMode/downsampled``
    /// when the first packet carries SBR the config did not signal.
    public private(set) var sbrMode: SBRMode

    /// The config faad2 is opened with (normalised signalling; see ``init(input:magicCookie:)``).
    private var faadConfig: AudioSpecificConfig
    /// faad2's core sampling frequency index (11 stands in for 12, 7350 Hz, which faad2 lacks).
    private let faadCoreIndex: Int
    /// The rate faad2 reports for decoded frames.
    private var faadRate: Int
    /// True once a packet has decoded.
    private var decodedAny = false
    private var handle: NeAACDecHandle?
    private let channels: Int

    private let output: UnsafeMutableRawPointer
    private static let outputCapacity = 2048 * 64 * MemoryLayout<Float>.size
    private var staging: UnsafeMutableRawPointer
    private var stagingCapacity: Int
    private static let stagingPadding = 64

    /// Makes a decoder for `input` ('aac ', 'aach' or 'aacp'). `magicCookie` is an
    /// ES_Descriptor (optionally in `esds` form) or a bare AudioSpecificConfig; without one the
    /// config is built from `input`: the object type from the format ID or flags (else LC), the
    /// sampling index from the rate, the channel configuration from the channel count.
    /// Throws `formatNotSupported` for what faad2 cannot decode and `badData` for a malformed
    /// cookie.
    public init(input: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioCodecError) {
        let aacFormats: [AudioFormatID] = [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2]
        guard aacFormats.contains(input.formatID) else {
            throw AudioCodecError(.formatNotSupported, "AACDecoder does not decode \(input.formatID.messageName)")
        }
        let flagsType = Int(input.formatFlags.rawValue)
        var asc: AudioSpecificConfig?
        if let magicCookie, !magicCookie.isEmpty, let bytes = try AACMagicCookie.audioSpecificConfig(from: magicCookie) {
            asc = try parsed { () throws(AudioSpecificConfig.ParseError) in try AudioSpecificConfig(bytes: bytes) }
        }
        if asc == nil {
            let type: Int = switch input.formatID {
            case .mpeg4AAC_HE: 5
            case .mpeg4AAC_HE_V2: 29
            default: [1, 2, 4, 5, 17, 19, 23, 29].contains(flagsType) ? flagsType : 2
            }
            guard input.channelsPerFrame > 0 else {
                throw AudioCodecError(.formatNotSupported, "AAC stream description with 0 channels and no magic cookie")
            }
            let coreChannels = type == 29 ? 1 : Int(input.channelsPerFrame)
            asc = try parsed { () throws(AudioSpecificConfig.ParseError) in
                try AudioSpecificConfig(objectType: type, sampleRate: input.sampleRate, channels: coreChannels)
            }
        }
        guard let asc else { throw AudioCodecError(.unspecified, "no AudioSpecificConfig") }
        audioSpecificConfig = asc

        // faad2 knows sampling indices 0–11 only; 7350 Hz (12) shares every table with 8000 Hz
        // (11), so the core is decoded as 8000 Hz and labelled 7350 Hz.
        let coreIndex = asc.samplingFrequencyIndex
        guard coreIndex < 13 else {
            throw AudioCodecError(.formatNotSupported, "faad2 cannot decode an explicit sampling rate (\(asc.samplingFrequency) Hz)")
        }
        faadCoreIndex = coreIndex == 12 ? 11 : coreIndex
        let coreRate = asc.samplingFrequency
        let faadCoreRate = AudioSpecificConfig.samplingFrequencies[faadCoreIndex]

        let heHint = input.formatID != .mpeg4AAC || flagsType == 5 || flagsType == 29
            || Double(coreRate * 2) == input.sampleRate
        let psHint = input.formatID == .mpeg4AAC_HE_V2 || flagsType == 29
            || (asc.channelCount == 1 && input.channelsPerFrame == 2)

        // Decide the SBR mode and the config faad2 sees. Signalling is always handed to faad2 in
        // the hierarchical form (object type 5/29 first), which it parses unconditionally.
        var mode = SBRMode.off
        var faadASC: AudioSpecificConfig
        var outputRate = coreRate
        switch asc.sbr {
        case .present:
            guard let ext = asc.extensionSamplingFrequencyIndex, ext < 12 else {
                throw AudioCodecError(.formatNotSupported, "faad2 cannot decode SBR at \(asc.extensionSamplingFrequency ?? 0) Hz")
            }
            guard coreIndex < 12 else {
                throw AudioCodecError(.formatNotSupported, "faad2 cannot decode SBR over a 7350 Hz core")
            }
            if ext == coreIndex {
                mode = .downsampled
            } else {
                guard AudioSpecificConfig.samplingFrequencies[ext] == 2 * coreRate else {
                    throw AudioCodecError(
                        .formatNotSupported,
                        "SBR output rate \(AudioSpecificConfig.samplingFrequencies[ext]) Hz is not twice the core rate \(coreRate) Hz")
                }
                mode = .upsampled
                outputRate = 2 * coreRate
            }
            faadASC = try Self.sbrConfig(asc, coreIndex: faadCoreIndex, extensionIndex: ext, ps: asc.ps == .present)
        case .unspecified where heHint:
            if coreIndex < 12, let ext = AudioSpecificConfig.samplingFrequencies.firstIndex(of: 2 * coreRate), ext < 12 {
                mode = .upsampled
                outputRate = 2 * coreRate
                faadASC = try Self.sbrConfig(asc, coreIndex: faadCoreIndex, extensionIndex: ext, ps: psHint && asc.channelCount == 1)
            } else {
                mode = .downsampled
                faadASC = try Self.sbrConfig(
                    asc, coreIndex: faadCoreIndex, extensionIndex: faadCoreIndex, ps: psHint && asc.channelCount == 1)
            }
        case .absent, .unspecified:
            faadASC = try Self.coreConfig(asc, coreIndex: faadCoreIndex)
        }
        sbrMode = mode
        faadConfig = faadASC
        faadRate = mode == .upsampled ? 2 * faadCoreRate : faadCoreRate

        channels = asc.channelCount == 1 && (asc.ps == .present || psHint) ? 2 : asc.channelCount
        let frames = asc.coreFrameLength * (mode == .upsampled ? 2 : 1)
        maximumFramesPerPacket = frames
        traits = input.formatID == .mpeg4AAC && Double(outputRate) == input.sampleRate
            ? AudioDecoderTraits(preRollPackets: 2, resetInterval: 512)
            : AudioDecoderTraits(preRollPackets: 2, restartsExactly: false)
        outputFormat = .linearPCM(sampleRate: Double(outputRate), channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)

        // faad2 is opened before the buffers are allocated: a throw once every property is set
        // would run deinit.
        handle = try Self.open(faadASC, upsampleImplicitSBR: false)
        output = UnsafeMutableRawPointer.allocate(byteCount: Self.outputCapacity, alignment: 16)
        stagingCapacity = 8192
        staging = UnsafeMutableRawPointer.allocate(byteCount: stagingCapacity + Self.stagingPadding, alignment: 16)
    }

    deinit {
        if let handle { NeAACDecClose(handle) }
        output.deallocate()
        staging.deallocate()
    }

    /// Opens and initialises a faad2 decoder for `config`.
    private static func open(_ config: AudioSpecificConfig, upsampleImplicitSBR: Bool) throws(AudioCodecError) -> NeAACDecHandle {
        guard let h = NeAACDecOpen() else {
            throw AudioCodecError(.unspecified, "faad2 could not allocate a decoder")
        }
        guard let settings = NeAACDecGetCurrentConfiguration(h) else {
            NeAACDecClose(h)
            throw AudioCodecError(.unspecified, "faad2 has no configuration")
        }
        settings.pointee.defObjectType = UInt8(truncatingIfNeeded: config.audioObjectType)
        settings.pointee.defSampleRate = UInt(config.samplingFrequency)
        settings.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
        settings.pointee.downMatrix = 0
        // NeAACDecSetConfiguration does not copy this field; it is set in place.
        settings.pointee.dontUpSampleImplicitSBR = upsampleImplicitSBR ? 0 : 1
        guard NeAACDecSetConfiguration(h, settings) != 0 else {
            NeAACDecClose(h)
            throw AudioCodecError(.formatNotSupported, "faad2 cannot decode MPEG-4 audio object type \(config.audioObjectType)")
        }
        // The config in a zero-padded copy, given with its exact size.
        var bytes = config.bytes + [UInt8](repeating: 0, count: 8)
        var rate: UInt = 0
        var channels: UInt8 = 0
        let count = UInt(config.bytes.count)
        let rc = bytes.withUnsafeMutableBufferPointer { NeAACDecInit2(h, $0.baseAddress, count, &rate, &channels) }
        guard rc == 0 else {
            NeAACDecClose(h)
            throw AudioCodecError(.formatNotSupported, "faad2 rejects the AudioSpecificConfig (error \(rc))")
        }
        return h
    }

    /// `config`'s core (at sampling index `coreIndex`) without SBR or PS signalling.
    private static func coreConfig(_ config: AudioSpecificConfig, coreIndex: Int) throws(AudioCodecError) -> AudioSpecificConfig {
        try parsed { () throws(AudioSpecificConfig.ParseError) in try config.coreOnly(coreIndex: coreIndex) }
    }

    /// `config`'s core (at sampling index `coreIndex`) with explicit hierarchical SBR signalling.
    private static func sbrConfig(
        _ config: AudioSpecificConfig, coreIndex: Int, extensionIndex: Int, ps: Bool
    ) throws(AudioCodecError) -> AudioSpecificConfig {
        try parsed { () throws(AudioSpecificConfig.ParseError) in
            try config.coreOnly(coreIndex: coreIndex).withExplicitSBR(extensionIndex: extensionIndex, ps: ps)
        }
    }

    /// Reopens faad2, dropping all state.
    private func reopen() {
        if let handle { NeAACDecClose(handle) }
        handle = try? Self.open(faadConfig, upsampleImplicitSBR: false)
    }

    /// Switches an ``SBRMode/off`` stream whose first packet carries SBR to downsampled SBR,
    /// which keeps the output rate and frame count (faad2's SBR filter bank adds its delay of 481
    /// frames from the start).
    private func switchToDownsampledSBR() {
        let ps = audioSpecificConfig.channelCount == 1
        if let config = try? Self.sbrConfig(audioSpecificConfig, coreIndex: faadCoreIndex, extensionIndex: faadCoreIndex, ps: ps) {
            faadConfig = config
            sbrMode = .downsampled
        }
        reopen()
    }

    /// Decodes one raw access unit and appends ``maximumFramesPerPacket`` frames to `buffer`.
    ///
    /// `frames` matters only when it is a multiple (2…8) of ``maximumFramesPerPacket``: the
    /// packet then holds that many raw data blocks back to back (an ADTS frame with several),
    /// which are decoded in turn. Otherwise a packet is one access unit; trimming priming and
    /// remainder frames is the caller's. Throws `invalidOutputSize`, appending nothing, when
    /// `buffer` is not in ``outputFormat`` or lacks room; throws `badData` after appending
    /// silence for a packet that does not decode.
    public func decode(packet: UnsafeRawBufferPointer, frames: Int?, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        guard buffer.format == outputFormat else {
            throw AudioCodecError(.invalidOutputSize, "the buffer's format is not the decoder's output format (\(outputFormat))")
        }
        let perUnit = maximumFramesPerPacket
        var units = 1
        if let frames, frames > perUnit, frames % perUnit == 0, frames / perUnit <= 8 { units = frames / perUnit }
        let total = units * perUnit
        guard buffer.framesFree >= total else {
            throw AudioCodecError(.invalidOutputSize, "the buffer has room for \(buffer.framesFree) frames; a packet needs \(total)")
        }
        guard let base = packet.baseAddress, packet.count > 0 else {
            conceal(total, into: buffer)
            throw AudioCodecError(.badData, "empty AAC packet")
        }
        stage(base, packet.count)
        var offset = 0
        for unit in 0..<units {
            let result = decodeUnit(from: offset, count: packet.count - offset, into: buffer)
            switch result {
            case .success(let consumed):
                offset += consumed
                if unit + 1 < units, consumed == 0 || offset >= packet.count {
                    conceal((units - unit - 1) * perUnit, into: buffer)
                    throw AudioCodecError(.badData, "AAC packet holds fewer raw data blocks than its \(total) frames")
                }
            case .failure(let error):
                conceal((units - unit) * perUnit, into: buffer)
                throw error
            }
        }
        return total
    }

    /// Drops all decoding state: faad2 is reopened, so the next packet decodes exactly as it
    /// would by a new decoder (its first frame overlaps nothing).
    /// AAC's channel order for the configuration (C L R Ls Rs LFE for 5.1), as faad2 outputs
    /// it; nil for a program config element, whose order the stream defines.
    public var outputChannelLayout: AudioChannelLayout? {
        guard Int(outputFormat.channelsPerFrame) == (audioSpecificConfig.channelConfiguration == 7 ? 8 : audioSpecificConfig.channelConfiguration) else {
            return outputFormat.channelsPerFrame == 2 ? AudioChannelLayout(tag: .stereo) : nil
        }
        return AudioChannelLayoutTag.aac(channelConfiguration: audioSpecificConfig.channelConfiguration).map { AudioChannelLayout(tag: $0) }
    }

    public func reset() {
        reopen()
    }

    /// Whether `firstPacket`, the first access unit of a stream described by `input` and
    /// `magicCookie` whose config does not signal SBR, carries SBR data (implicit signalling, as
    /// ADTS HE-AAC does): the stream then also decodes as HE-AAC at twice the core rate, which a
    /// format list reports before the core. False when SBR is signalled either way, when the
    /// core rate leaves no room for it (above 24 kHz), or when the packet does not decode.
    public static func carriesImplicitSBR(input: AudioStreamBasicDescription, magicCookie: [UInt8]?, firstPacket: [UInt8]) -> Bool {
        guard !firstPacket.isEmpty, let decoder = try? AACDecoder(input: input, magicCookie: magicCookie),
              decoder.sbrMode == .off, decoder.audioSpecificConfig.sbr == .unspecified,
              decoder.audioSpecificConfig.samplingFrequency <= 24000 else { return false }
        firstPacket.withUnsafeBytes { decoder.stage($0.baseAddress!, $0.count) }
        return decoder.sentinelFindsSBR(at: 0, count: firstPacket.count)
    }

    /// Registers this decoder for the AAC format IDs.
    public static func register() {
        AudioDecoders.register(AACDecoder.self, for: [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2])
    }

    // MARK: Decoding

    /// Copies the packet into the zero-padded input buffer.
    private func stage(_ base: UnsafeRawPointer, _ count: Int) {
        if count > stagingCapacity {
            staging.deallocate()
            stagingCapacity = max(count, stagingCapacity * 2)
            staging = UnsafeMutableRawPointer.allocate(byteCount: stagingCapacity + Self.stagingPadding, alignment: 16)
        }
        staging.copyMemory(from: base, byteCount: count)
        (staging + count).initializeMemory(as: UInt8.self, repeating: 0, count: Self.stagingPadding)
    }

    /// Calls faad2 on the staged bytes at `offset`.
    private func faadDecode(_ h: NeAACDecHandle, _ info: inout NeAACDecFrameInfo, offset: Int, count: Int) -> Bool {
        var sampleBuffer: UnsafeMutableRawPointer? = output
        let bytes = (staging + offset).assumingMemoryBound(to: UInt8.self)
        let result = NeAACDecDecode2(h, &info, bytes, UInt(count), &sampleBuffer, UInt(Self.outputCapacity))
        return result != nil
    }

    /// Whether a throwaway decoder finds SBR data in the raw data block at `offset`.
    ///
    /// Without SBR signalling, faad2 takes SBR data in the first frame it decodes as implicit
    /// signalling: at core rates up to 24 kHz it then doubles that frame and every later one
    /// (2048 frames at twice the rate), which would contradict ``outputFormat``. So the first
    /// packet goes to a throwaway decoder first; when it carries SBR, the main decoder is opened
    /// for downsampled SBR before it decodes anything. (SBR data that shows up after the first
    /// frame is an error in faad2 2.10.1, "First SBR frame is not the same as first AAC frame".)
    private func sentinelFindsSBR(at offset: Int, count: Int) -> Bool {
        guard let sentinel = try? Self.open(faadConfig, upsampleImplicitSBR: true) else { return false }
        var info = NeAACDecFrameInfo()
        let ok = faadDecode(sentinel, &info, offset: offset, count: count)
        NeAACDecClose(sentinel)
        guard ok, info.error == 0 else { return false }  // the next packet is looked at instead
        return info.sbr == UInt8(SBR_UPSAMPLED) || info.sbr == UInt8(SBR_DOWNSAMPLED)
    }

    /// Decodes one raw data block at `offset` into `buffer`; returns the bytes faad2 consumed.
    private func decodeUnit(from offset: Int, count: Int, into buffer: PCMBuffer) -> Result<Int, AudioCodecError> {
        if sbrMode == .off, !decodedAny, sentinelFindsSBR(at: offset, count: count) {
            // Implicit signalling: SBR from the first packet on.
            switchToDownsampledSBR()
        }
        guard let h = handle else {
            reopen()
            return .failure(AudioCodecError(.badData, "faad2 could not be reopened after an error"))
        }
        let perUnit = maximumFramesPerPacket
        var info = NeAACDecFrameInfo()
        let ok = faadDecode(h, &info, offset: offset, count: count)
        guard ok, info.error == 0 else {
            let message: String
            if info.error != 0, let text = NeAACDecGetErrorMessage(info.error) {
                message = "faad2: \(String(cString: text)) (error \(info.error))"
            } else {
                message = "faad2 decoded no audio from the packet"
            }
            reopen()
            return .failure(AudioCodecError(.badData, message))
        }
        let decodedChannels = Int(info.channels)
        let samples = Int(info.samples)
        // faad2 reports 0 samples for the first frame after opening, whose samples it has
        // written all the same.
        let decodedFrames = decodedChannels > 0 ? (samples > 0 ? samples / decodedChannels : perUnit) : 0
        let unexpectedSBR = sbrMode == .off && info.sbr != UInt8(NO_SBR)
        guard decodedChannels > 0, decodedChannels <= 64, samples % decodedChannels == 0,
              decodedFrames == perUnit, Int(info.samplerate) == faadRate, !unexpectedSBR,
              decodedChannels == channels || (channels == 1 && decodedChannels == 2) else {
            reopen()
            return .failure(AudioCodecError(
                .badData,
                "faad2 decoded \(decodedFrames) frames of \(decodedChannels) channels at \(info.samplerate) Hz\(unexpectedSBR ? " with SBR" : ""); the stream is \(perUnit) frames of \(channels) channels at \(faadRate) Hz"))
        }
        let destination = buffer.freeSpace(0)
        if decodedChannels == channels {
            destination.baseAddress!.copyMemory(from: output, byteCount: perUnit * channels * MemoryLayout<Float>.size)
        } else {
            // A mono core that faad2 decoded to two channels (identical unless PS was used).
            let out = destination.baseAddress!
            for i in 0..<perUnit {
                let l = output.load(fromByteOffset: 8 * i, as: Float.self)
                let r = output.load(fromByteOffset: 8 * i + 4, as: Float.self)
                out.storeBytes(of: (l + r) * 0.5, toByteOffset: 4 * i, as: Float.self)
            }
        }
        buffer.frameLength += perUnit
        decodedAny = true
        return .success(Int(info.bytesconsumed))
    }

    /// Appends `frames` frames of silence.
    private func conceal(_ frames: Int, into buffer: PCMBuffer) {
        let n = min(frames, buffer.framesFree)
        guard n > 0 else { return }
        buffer.freeSpace(0).baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: n * Int(outputFormat.bytesPerFrame))
        buffer.frameLength += n
    }
}

/// `body`'s config, its parse errors as the codec's (`badData`, `formatNotSupported`).
private func parsed(_ body: () throws(AudioSpecificConfig.ParseError) -> AudioSpecificConfig) throws(AudioCodecError) -> AudioSpecificConfig {
    do {
        return try body()
    } catch {
        throw AudioCodecError(error)
    }
}
