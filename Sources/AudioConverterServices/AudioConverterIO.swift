public import AudioCore
public import AudioCodecs

/// What an input provider hands an ``AudioConverter`` for one request (the buffers Apple's
/// `AudioConverterComplexInputDataProc` points its `AudioBufferList` at).
///
/// The memory must stay valid until the provider is called again or the fill returns,
/// whichever comes first. Compressed packets and interleaved PCM come in one buffer;
/// non-interleaved PCM in one buffer per channel.
public struct AudioConverterInputData {
    /// The buffers.
    public var buffers: [UnsafeRawBufferPointer]
    /// Packets in the buffers (frames, for linear PCM).
    public var packetCount: Int
    /// Where each packet lies, for formats whose packets vary in size; nil for constant-size
    /// formats.
    public var packetDescriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?

    /// Input of `packetCount` packets in `buffers`.
    public init(
        buffers: [UnsafeRawBufferPointer], packetCount: Int, packetDescriptions: UnsafeBufferPointer<AudioStreamPacketDescription>? = nil
    ) {
        self.buffers = buffers
        self.packetCount = packetCount
        self.packetDescriptions = packetDescriptions
    }

    /// Input of `packetCount` packets in one buffer.
    public init(
        _ bytes: UnsafeRawBufferPointer, packetCount: Int, packetDescriptions: UnsafeBufferPointer<AudioStreamPacketDescription>? = nil
    ) {
        self.init(buffers: [bytes], packetCount: packetCount, packetDescriptions: packetDescriptions)
    }
}

/// Where ``AudioConverter/fill(_:input:)`` writes: one buffer for compressed packets and
/// interleaved PCM, one per channel for non-interleaved PCM, room for ``packetCapacity``
/// packets (frames, for linear PCM), and descriptions for formats whose packets vary in size.
public struct AudioConverterOutput {
    /// The buffers.
    public var buffers: [UnsafeMutableRawBufferPointer]
    /// Packets wanted: at most this many are written.
    public var packetCapacity: Int
    /// Room for a description per packet, for formats whose packets vary in size.
    public var packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?

    /// Output into `buffers` of at most `packetCapacity` packets.
    public init(
        buffers: [UnsafeMutableRawBufferPointer], packetCapacity: Int,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>? = nil
    ) {
        self.buffers = buffers
        self.packetCapacity = packetCapacity
        self.packetDescriptions = packetDescriptions
    }
}

/// What one ``AudioConverter/fill(_:input:)`` wrote.
public struct AudioConverterFillResult: Sendable {
    /// Packets written (frames, for linear PCM).
    public var packetCount: Int
    /// Bytes written to each buffer.
    public var byteCount: Int
    /// The provider's error that stopped the fill before the output was full, if one did; what
    /// was converted before it is in the output. The converter keeps its state: the next fill
    /// goes on where this one stopped.
    public var inputError: AudioCodecError?
    /// True when the stream has ended and everything is out: later fills write nothing until
    /// ``AudioConverter/reset()``.
    public var endOfStream: Bool
}

/// Apple's `kAudioConverterQuality_*` values, from `kAudioConverterQuality_Min` to `_Max`, and
/// how the converter's sample-rate converter takes them.
extension AudioConverter {
    /// How a converter primes its sample-rate converter (Apple's `kConverterPrimeMethod_*`).
    public struct PrimeMethod: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `kConverterPrimeMethod_Pre`.
        public static let pre = PrimeMethod(rawValue: 0)
        /// `kConverterPrimeMethod_Normal` (the default).
        public static let normal = PrimeMethod(rawValue: 1)
        /// `kConverterPrimeMethod_None`.
        public static let none = PrimeMethod(rawValue: 2)
    }

    /// Frames a converter adds before and after the audio (Apple's `AudioConverterPrimeInfo`).
    public struct PrimeInfo: Hashable, Sendable {
        /// Frames before the first input frame.
        public var leadingFrames: Int
        /// Frames after the last.
        public var trailingFrames: Int
        public init(leadingFrames: Int, trailingFrames: Int) {
            self.leadingFrames = leadingFrames
            self.trailingFrames = trailingFrames
        }
    }
}

extension AudioCodecError.Code {
    /// What a converter input throws once it has handed over all it has for now ('all '): the
    /// fill returns what it converted, and the converter keeps its stream for the next fill.
    package static let inputPaused = AudioCodecError.Code(rawValue: 0x616C_6C20)
}
