public import AudioCore
public import AudioCodecs

/// Converts audio from one format to another (Apple's `AudioConverterRef`): a decoder or an
/// encoder, PCM conversion, a channel map and sample-rate conversion in one converter.
///
/// Any format with a registered decoder converts to linear PCM, linear PCM to any format with a
/// registered encoder, and linear PCM to linear PCM of any rate, channel count and sample
/// format. (Compressed to compressed is done by two converters, as on a Mac.) The converter
/// pulls its input (``fill(_:input:)``, Apple's `AudioConverterFillComplexBuffer`): it asks a
/// provider for packets whenever it needs more, keeps what it does not use for the next fill,
/// and ends the stream when the provider has no more.
///
/// - Linear PCM to linear PCM of the same rate and channel count converts each sample straight
///   from the input to the output (exact wherever `PCMConverter` is).
/// - Otherwise samples pass as interleaved Float32: decoded or converted, mapped to the output's
///   channels (``channelMap``, or mono copied to every channel and other counts as
///   ``ChannelMixer`` describes), resampled by libsoxr at ``sampleRateConverterQuality``, and
///   converted to the output or encoded.
///
/// The sample-rate converter's own delay is trimmed: N input frames at rate A come out as
/// round(N × B / A) frames at rate B, the first output frame at the time of the first input
/// frame. An encoder's delay is not trimmed (as Apple's): its first ``primeInfo``
/// `leadingFrames` frames (2112 for AAC) are the encoder's priming, which a file records in its
/// packet table.
///
/// A converter is used by one thread at a time.
public final class AudioConverter {
    /// The format the converter reads (`kAudioConverterCurrentInputStreamDescription`).
    public let inputFormat: AudioStreamBasicDescription
    /// The format the converter writes (`kAudioConverterCurrentOutputStreamDescription`): the
    /// requested format, completed by the encoder where there is one.
    public private(set) var outputFormat: AudioStreamBasicDescription

    /// The decoder for compressed input; nil for linear PCM input or until a magic cookie it
    /// needs is set.
    private(set) var decoder: PacketDecoder?
    /// The encoder for compressed output; nil for linear PCM output.
    public let encoder: (any AudioEncoder)?
    /// The magic cookie the decoder was made with (`kAudioConverterDecompressionMagicCookie`).
    public private(set) var decompressionMagicCookie: [UInt8]?
    /// Why the decoder could not be made yet (for the error of a fill without one).
    private var decoderError: AudioCodecError?

    /// The running conversion; nil before the first fill and after a reset or a change of
    /// settings.
    var pipeline: ConverterPipeline?

    /// Apple's `kAudioConverterChannelMap`: for each output channel, the input channel it takes
    /// (-1: silence). nil: the default mapping.
    public var channelMap: [Int]? {
        didSet { pipeline = nil }
    }
    /// The sample-rate converter's quality (`kAudioConverterSampleRateConverterQuality`);
    /// Apple's default is `kAudioConverterQuality_High`.
    public var sampleRateConverterQuality = SampleRateConverterQuality.high {
        didSet { pipeline = nil }
    }
    /// How the sample-rate converter primes (`kAudioConverterPrimeMethod`); stored and reported.
    /// Every method gives the same output here: the converter's delay is always trimmed.
    public var primeMethod = PrimeMethod.normal
    /// The encoder's quality setting (`kAudioConverterCodecQuality`); stored, reported and
    /// given to the encoder (FLAC takes its compression level from it; see
    /// `AudioEncoder.setQuality(_:)`), which keeps its own setting once its stream has begun.
    /// 0 (`kAudioConverterQuality_Min`) to 127 (`_Max`); values outside are clamped.
    public var codecQuality = 0x60 {
        didSet {
            if codecQuality < 0 || codecQuality > 127 { codecQuality = min(max(codecQuality, 0), 127) }
            try? encoder?.setQuality(codecQuality)
        }
    }
    /// The input's channel layout (`kAudioConverterInputChannelLayout`); stored and reported.
    public var inputChannelLayout: AudioChannelLayout?
    /// The output's channel layout (`kAudioConverterOutputChannelLayout`); stored and reported.
    public var outputChannelLayout: AudioChannelLayout?

    /// A converter from `input` to `output` (Apple's `AudioConverterNew`).
    ///
    /// `formatNotSupported` (`'fmt?'`) when neither side is linear PCM, when no decoder or
    /// encoder is registered for the compressed side, or when the encoder cannot write `output`;
    /// `inputSampleRateOutOfRange`/`outputSampleRateOutOfRange` for a rate that is not positive
    /// and finite. A decoder that needs a magic cookie is made when ``setDecompressionMagicCookie(_:)``
    /// gives it (or with `magicCookie` here).
    public init(
        from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription, magicCookie: [UInt8]? = nil
    ) throws(AudioCodecError) {
        // Rates from 1 Hz to 10 MHz (every rate audio uses; beyond, frame counts scaled by the
        // ratio could overflow).
        guard input.sampleRate.isFinite, input.sampleRate >= 1, input.sampleRate <= 10_000_000 else {
            throw AudioCodecError(.inputSampleRateOutOfRange, "input rate \(input.sampleRate) Hz")
        }
        guard output.sampleRate.isFinite, output.sampleRate >= 1, output.sampleRate <= 10_000_000 else {
            throw AudioCodecError(.outputSampleRateOutOfRange, "output rate \(output.sampleRate) Hz")
        }
        guard input.channelsPerFrame > 0, input.channelsPerFrame <= 64, output.channelsPerFrame > 0, output.channelsPerFrame <= 64 else {
            throw AudioCodecError(.formatNotSupported, "channel counts \(input.channelsPerFrame) and \(output.channelsPerFrame)")
        }
        guard input.isPCM || output.isPCM else {
            throw AudioCodecError(.formatNotSupported, "\(input.formatID.messageName) to \(output.formatID.messageName): one side must be linear PCM")
        }
        inputFormat = input
        if input.isPCM {
            _ = try PCMConverter(from: input, to: .float32(sampleRate: input.sampleRate, channels: input.channelsPerFrame))
        } else {
            guard AudioDecoders.canDecode(input.formatID) else {
                throw AudioCodecError(.formatNotSupported, AudioDecoders.missingDecoderReason(input.formatID))
            }
        }
        if output.isPCM {
            _ = try PCMConverter(from: .float32(sampleRate: output.sampleRate, channels: output.channelsPerFrame), to: output)
            encoder = nil
            outputFormat = output
        } else {
            var made: any AudioEncoder
            if let integer = Self.integerEncoder(from: input, to: output) {
                made = integer
            } else {
                made = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: output), to: output)
            }
            encoder = made
            outputFormat = made.outputFormat
        }
        if !input.isPCM {
            makeDecoder(cookie: magicCookie)
        }
    }

    /// An encoder that takes `input` itself: native-endian signed integers in words of 1 to 4
    /// bytes at the output's rate and channel count, for the encoder that reads them (FLAC, of
    /// the input's bit depth). Samples of 25 to 32 bits, more than Float32 holds, stay lossless
    /// this way; narrower ones skip a round trip through Float32 that changes no sample. nil
    /// when the input is other PCM, the output another format, or FLAC of another depth.
    private static func integerEncoder(
        from input: AudioStreamBasicDescription, to output: AudioStreamBasicDescription
    ) -> (any AudioEncoder)? {
        let channels = input.channelsPerFrame
        guard output.formatID == .flac, input.isPCM, !input.isFloat, input.isSignedInteger, !input.isBigEndian,
              input.isInterleaved || channels == 1, channels > 0, input.bytesPerFrame % channels == 0,
              input.sampleRate == output.sampleRate, channels == output.channelsPerFrame else { return nil }
        let word = input.bytesPerFrame / channels
        if word == 4 { return try? AudioEncoders.make(from: input, to: output) }
        // Narrower words reach the encoder sign-extended to 32 bits (ConverterPipeline widens
        // them), so only samples that fill their words qualify.
        guard (1...3).contains(word), input.bitsPerChannel == 8 * word else { return nil }
        let widened = AudioStreamBasicDescription(
            sampleRate: input.sampleRate, formatID: .linearPCM, formatFlags: [.isSignedInteger],
            bytesPerPacket: 4 * channels, framesPerPacket: 1, bytesPerFrame: 4 * channels,
            channelsPerFrame: channels, bitsPerChannel: input.bitsPerChannel)
        return try? AudioEncoders.make(from: widened, to: output)
    }

    private func makeDecoder(cookie: [UInt8]?) {
        do {
            decoder = try PacketDecoder(format: inputFormat, magicCookie: cookie, convertingToFloat32: true)
            decompressionMagicCookie = cookie
            decoderError = nil
        } catch {
            decoder = nil
            decoderError = error
        }
        pipeline = nil
    }

    /// Gives the decoder its magic cookie (`kAudioConverterDecompressionMagicCookie`): the
    /// decoder is made again from it. `propertyNotSupported` when the input is linear PCM; the
    /// decoder's error when the cookie does not configure it.
    public func setDecompressionMagicCookie(_ cookie: [UInt8]) throws(AudioCodecError) {
        guard !inputFormat.isPCM else { throw AudioCodecError(.propertyNotSupported, "linear PCM input has no magic cookie") }
        makeDecoder(cookie: cookie)
        if let decoderError { throw decoderError }
    }

    /// The encoder's magic cookie (`kAudioConverterCompressionMagicCookie`); nil when the
    /// output has none.
    public var compressionMagicCookie: [UInt8]? { encoder?.magicCookie }

    /// The PCM format the decoder writes (the input format for linear PCM input); nil until a
    /// decoder exists.
    public var decodedFormat: AudioStreamBasicDescription? { inputFormat.isPCM ? inputFormat : decoder?.decodedFormat }

    /// The decoder, or the error that keeps it from being made.
    func requireDecoder() throws(AudioCodecError) -> PacketDecoder? {
        guard !inputFormat.isPCM else { return nil }
        guard let decoder else {
            throw decoderError ?? AudioCodecError(.formatNotSupported, AudioDecoders.missingDecoderReason(inputFormat.formatID))
        }
        return decoder
    }

    /// The largest input packet, in bytes (`kAudioConverterPropertyMaximumInputPacketSize`).
    public var maximumInputPacketSize: Int {
        if inputFormat.bytesPerPacket > 0 { return Int(inputFormat.bytesPerPacket) }
        switch inputFormat.formatID {
        case .mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD:
            return 768 * Int(inputFormat.channelsPerFrame)  // 6144 bits per channel
        case .mpegLayer1, .mpegLayer2, .mpegLayer3:
            return 2881
        default:
            let frames = Int(max(inputFormat.framesPerPacket, 1))
            return frames * Int(inputFormat.channelsPerFrame) * 4 + 64
        }
    }

    /// The largest output packet, in bytes (`kAudioConverterPropertyMaximumOutputPacketSize`).
    public var maximumOutputPacketSize: Int {
        if let encoder { return encoder.maximumPacketSize }
        return Int(outputFormat.bytesPerPacket)
    }

    /// The frames the converter adds before and after the audio (`kAudioConverterPrimeInfo`):
    /// an encoder's priming and, once the stream has ended, the frames that completed its last
    /// packet. 0 and 0 without an encoder (the sample-rate converter's delay is trimmed).
    public var primeInfo: PrimeInfo {
        PrimeInfo(leadingFrames: encoder?.primingFrames ?? 0, trailingFrames: pipeline?.trailingFrames ?? 0)
    }

    /// The encoder's bit rate (`kAudioConverterEncodeBitRate`); 0 without an encoder or for
    /// formats whose rate follows from the format.
    public var encodeBitRate: Int { encoder?.bitRate ?? 0 }

    /// Sets the encoder's bit rate (before the first packet). `propertyNotSupported` without an
    /// encoder; the encoder's error for a format whose rate is fixed.
    public func setEncodeBitRate(_ bitRate: Int) throws(AudioCodecError) {
        guard let encoder else { throw AudioCodecError(.propertyNotSupported, "linear PCM output has no bit rate") }
        try encoder.setBitRate(bitRate)
    }

    /// The bit rates the encoder takes (`kAudioConverterApplicableEncodeBitRates`).
    public var applicableEncodeBitRates: [ClosedRange<Int>] { encoder?.applicableBitRates ?? [] }

    /// Forgets everything in flight (Apple's `AudioConverterReset`): input kept from earlier
    /// fills, the decoder's, encoder's and sample-rate converter's state. The next fill starts
    /// a new stream.
    public func reset() {
        pipeline = nil
        decoder?.reset()
        encoder?.reset()
    }


    /// Converts what `input` provides into `output` (Apple's `AudioConverterFillComplexBuffer`).
    ///
    /// `input` is called with the number of packets the converter would like (a hint: any
    /// number may come) until the output is full. It returns nil (or zero packets) at the end of
    /// the stream, after which the converter writes out what it holds (the sample-rate
    /// converter's tail, an encoder's last packets) and then nothing until ``reset()``. An error
    /// it throws stops the fill: what was written is in the result with the error, and the next
    /// fill goes on.
    ///
    /// Errors thrown: `requiresPacketDescriptions` when compressed output of varying packet
    /// sizes has nowhere for its descriptions, or compressed input of varying sizes comes
    /// without them; `invalidOutputSize`/`invalidInputSize` when a buffer does not match its
    /// format; the decoder's error when it could not be made.
    public func fill(
        _ output: AudioConverterOutput, input: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> AudioConverterFillResult {
        if pipeline == nil {
            pipeline = try ConverterPipeline(converter: self)
        }
        return try pipeline!.fill(output, input: input)
    }

    /// Converts `frameCount` frames of linear PCM in `input` into `output` in one call
    /// (Apple's `AudioConverterConvertComplexBuffer`): linear PCM to linear PCM of the same rate;
    /// `formatNotSupported` otherwise. Buffers as ``AudioConverterInputData`` and
    /// ``AudioConverterOutput`` take them. Returns the frames written.
    public func convert(
        frameCount: Int, input: [UnsafeRawBufferPointer], output: [UnsafeMutableRawBufferPointer]
    ) throws(AudioCodecError) -> Int {
        guard inputFormat.isPCM, outputFormat.isPCM, inputFormat.sampleRate == outputFormat.sampleRate else {
            throw AudioCodecError(.formatNotSupported, "converting a buffer needs linear PCM of one rate on both sides")
        }
        guard frameCount >= 0 else { throw AudioCodecError(.invalidInputSize, "\(frameCount) frames") }
        var given = false
        let result = try fill(AudioConverterOutput(buffers: output, packetCapacity: frameCount)) { _ throws(AudioCodecError) in
            guard !given else { throw AudioCodecError(.inputPaused, "all given") }
            given = true
            return AudioConverterInputData(buffers: input, packetCount: frameCount)
        }
        return result.packetCount
    }
}

extension AudioStreamBasicDescription {
    /// Interleaved native-endian Float32 linear PCM.
    static func float32(sampleRate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        .linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 32, isFloat: true)
    }

    /// Buffers a buffer list of this format has: one per channel for non-interleaved linear
    /// PCM, else one.
    package var bufferCount: Int { isPCM && !isInterleaved ? Int(channelsPerFrame) : 1 }
}
