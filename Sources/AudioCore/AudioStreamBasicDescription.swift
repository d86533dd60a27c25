/// Describes an audio data stream, field for field as Core Audio's `AudioStreamBasicDescription`.
///
/// A *frame* holds one sample per channel; a *packet* is the smallest unit of the format that
/// can be read on its own (one frame for linear PCM, 1024 frames for AAC). A field of 0 means
/// "varies" (bytes per packet of a VBR format) or "not applicable".
public struct AudioStreamBasicDescription: Hashable, Sendable, CustomStringConvertible {
    /// Frames per second of the stream.
    public var sampleRate: Double
    /// The data format.
    public var formatID: AudioFormatID
    /// Format-specific flags; for linear PCM see ``AudioFormatFlags``.
    public var formatFlags: AudioFormatFlags
    /// Bytes in a packet; 0 for formats whose packets vary in size.
    public var bytesPerPacket: UInt32
    /// Frames in a packet; 0 for formats whose packets vary in duration.
    public var framesPerPacket: UInt32
    /// Bytes in a frame; 0 for compressed formats.
    public var bytesPerFrame: UInt32
    /// Channels in a frame.
    public var channelsPerFrame: UInt32
    /// Bits of one sample of one channel; 0 for compressed formats.
    public var bitsPerChannel: UInt32
    /// Reserved; always 0 (`mReserved`).
    public var reserved: UInt32 = 0

    /// A description with every field given.
    public init(
        sampleRate: Double, formatID: AudioFormatID, formatFlags: AudioFormatFlags = [],
        bytesPerPacket: UInt32, framesPerPacket: UInt32, bytesPerFrame: UInt32,
        channelsPerFrame: UInt32, bitsPerChannel: UInt32
    ) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.formatFlags = formatFlags
        self.bytesPerPacket = bytesPerPacket
        self.framesPerPacket = framesPerPacket
        self.bytesPerFrame = bytesPerFrame
        self.channelsPerFrame = channelsPerFrame
        self.bitsPerChannel = bitsPerChannel
    }

    /// Interleaved, packed linear PCM with `bitsPerChannel` bits in whole bytes.
    public static func linearPCM(
        sampleRate: Double, channels: UInt32, bitsPerChannel: UInt32,
        isFloat: Bool = false, isBigEndian: Bool = false, isSigned: Bool = true
    ) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = [.isPacked]
        if isFloat { flags.insert(.isFloat) } else if isSigned { flags.insert(.isSignedInteger) }
        if isBigEndian && bitsPerChannel > 8 { flags.insert(.isBigEndian) }
        let bytes = (bitsPerChannel + 7) / 8 * channels
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: flags,
            bytesPerPacket: bytes, framesPerPacket: 1, bytesPerFrame: bytes,
            channelsPerFrame: channels, bitsPerChannel: bitsPerChannel)
    }

    /// True for linear PCM.
    public var isPCM: Bool { formatID == .linearPCM }
    /// True when packets vary in size (bytes per packet is 0).
    public var isVBR: Bool { bytesPerPacket == 0 }
    /// True when packets vary in duration (frames per packet is 0).
    public var isVariableFramesPerPacket: Bool { framesPerPacket == 0 }
    /// True unless the non-interleaved flag is set.
    public var isInterleaved: Bool { !formatFlags.contains(.isNonInterleaved) }
    /// True for big-endian samples.
    public var isBigEndian: Bool { formatFlags.contains(.isBigEndian) }
    /// True for floating-point samples.
    public var isFloat: Bool { formatFlags.contains(.isFloat) }
    /// True for signed integer samples.
    public var isSignedInteger: Bool { formatFlags.contains(.isSignedInteger) }

    /// Bytes of one sample of one channel in linear PCM (the word that holds `bitsPerChannel`).
    public var sampleWordSize: UInt32 {
        guard bytesPerFrame > 0, channelsPerFrame > 0 else { return 0 }
        return isInterleaved ? bytesPerFrame / channelsPerFrame : bytesPerFrame
    }

    /// True when the sample word has bits the sample does not use, so packing matters.
    public var packednessIsSignificant: Bool { UInt64(sampleWordSize) * 8 != UInt64(bitsPerChannel) }
    /// True when the sample is narrower than its word or not a whole number of bytes.
    public var alignmentIsSignificant: Bool { packednessIsSignificant || bitsPerChannel & 7 != 0 }

    /// The format in the words of Apple's `afinfo`, e.g.
    /// `2 ch, 44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer`.
    public var description: String {
        var out = "\(channelsPerFrame) ch, \(formatRate(sampleRate)) Hz, '\(formatID.code)' "
        out += "(0x\(hex(UInt64(formatFlags.rawValue), digits: 8))) "
        if isPCM {
            let word = sampleWordSize
            let isInt = !isFloat
            let endian = word > 1 ? (isBigEndian ? " big-endian" : " little-endian") : ""
            let sign = isInt ? (isSignedInteger ? " signed" : " unsigned") : ""
            var packed = ""
            if word > 0 && packednessIsSignificant {
                packed = formatFlags.contains(.isPacked) ? "packed in \(word) bytes" : "unpacked in \(word) bytes"
            }
            let align = word > 0 && alignmentIsSignificant
                ? (formatFlags.contains(.isAlignedHigh) ? " high-aligned" : " low-aligned") : ""
            let deinterleaved = isInterleaved ? "" : ", deinterleaved"
            let fraction = (formatFlags.rawValue & AudioFormatFlags.sampleFractionMask.rawValue)
                >> AudioFormatFlags.sampleFractionShift
            let depth = fraction > 0 ? "\(bitsPerChannel &- fraction).\(fraction)" : "\(bitsPerChannel)"
            let separator = !packed.isEmpty || !align.isEmpty ? ", " : ""
            out += "\(depth)-bit\(endian)\(sign) \(isInt ? "integer" : "float")\(separator)\(packed)\(align)\(deinterleaved)"
        } else {
            out += "\(bitsPerChannel) bits/channel, \(bytesPerPacket) bytes/packet, "
            out += "\(framesPerPacket) frames/packet, \(bytesPerFrame) bytes/frame"
        }
        return out
    }
}

/// Formats a rate as `%.0f` does: rounded to a whole number.
private func formatRate(_ rate: Double) -> String {
    guard rate.isFinite, abs(rate) < 1e15 else { return "\(rate)" }
    return String(Int64(rate.rounded()))
}

/// Where one packet of a variable-size or variable-duration format lies in a buffer
/// (Core Audio's `AudioStreamPacketDescription`).
public struct AudioStreamPacketDescription: Hashable, Sendable {
    /// Offset of the packet from the start of the buffer, in bytes.
    public var startOffset: Int64
    /// Frames in the packet, for formats whose frames per packet vary; otherwise 0.
    public var variableFramesInPacket: UInt32
    /// Size of the packet in bytes.
    public var dataByteSize: UInt32

    /// A packet `dataByteSize` bytes long at `startOffset`.
    public init(startOffset: Int64, variableFramesInPacket: UInt32 = 0, dataByteSize: UInt32) {
        self.startOffset = startOffset
        self.variableFramesInPacket = variableFramesInPacket
        self.dataByteSize = dataByteSize
    }
}

/// How many frames of a compressed file are real audio: the encoder's priming frames at the
/// start and the remainder frames that pad the last packet are not (`AudioFilePacketTableInfo`;
/// Apple's QA1636).
public struct AudioFilePacketTableInfo: Hashable, Sendable {
    /// Frames of audio, excluding priming and remainder.
    public var numberValidFrames: Int64
    /// Frames the encoder added at the start.
    public var primingFrames: Int32
    /// Frames that pad the last packet.
    public var remainderFrames: Int32

    /// Packet table info with every field given.
    public init(numberValidFrames: Int64, primingFrames: Int32, remainderFrames: Int32) {
        self.numberValidFrames = numberValidFrames
        self.primingFrames = primingFrames
        self.remainderFrames = remainderFrames
    }

    /// Priming + valid + remainder: the frames the packets decode to.
    public var totalFrames: Int64 { numberValidFrames + Int64(primingFrames) + Int64(remainderFrames) }
}

/// A point in time on several clocks at once (Core Audio's `AudioTimeStamp`); ``flags`` says
/// which fields are valid.
public struct AudioTimeStamp: Hashable, Sendable {
    /// Which fields of an ``AudioTimeStamp`` hold values.
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// ``AudioTimeStamp/sampleTime`` is valid.
        public static let sampleTimeValid = Flags(rawValue: 1 << 0)
        /// ``AudioTimeStamp/hostTime`` is valid.
        public static let hostTimeValid = Flags(rawValue: 1 << 1)
        /// ``AudioTimeStamp/rateScalar`` is valid.
        public static let rateScalarValid = Flags(rawValue: 1 << 2)
        /// ``AudioTimeStamp/wordClockTime`` is valid.
        public static let wordClockTimeValid = Flags(rawValue: 1 << 3)
        /// ``AudioTimeStamp/smpteTime`` is valid.
        public static let smpteTimeValid = Flags(rawValue: 1 << 4)
        /// Sample time and host time are valid.
        public static let sampleHostTimeValid: Flags = [.sampleTimeValid, .hostTimeValid]
    }

    /// Position in frames.
    public var sampleTime: Double
    /// Host clock time in nanoseconds.
    public var hostTime: UInt64
    /// Ratio of actual to nominal sample rate.
    public var rateScalar: Double
    /// Word clock time.
    public var wordClockTime: UInt64
    /// SMPTE time as a raw counter (Core Audio's `SMPTETime` structure is not modelled).
    public var smpteTime: UInt64
    /// Which fields are valid.
    public var flags: Flags

    /// A time stamp with the given fields; ``flags`` says which are valid.
    public init(
        sampleTime: Double = 0, hostTime: UInt64 = 0, rateScalar: Double = 0,
        wordClockTime: UInt64 = 0, smpteTime: UInt64 = 0, flags: Flags = []
    ) {
        self.sampleTime = sampleTime
        self.hostTime = hostTime
        self.rateScalar = rateScalar
        self.wordClockTime = wordClockTime
        self.smpteTime = smpteTime
        self.flags = flags
    }

    /// A time stamp holding only a sample time.
    public static func sampleTime(_ time: Double) -> AudioTimeStamp {
        AudioTimeStamp(sampleTime: time, flags: .sampleTimeValid)
    }
}
