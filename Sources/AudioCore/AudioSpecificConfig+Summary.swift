extension AudioSpecificConfig {
    /// What a file's stream description says of an AAC stream with a config, as Apple's
    /// `AudioFile` reports it: explicit SBR (hierarchical, or the 0x2b7 sync extension) makes
    /// the stream HE-AAC (`'aach'`, or `'aacp'` with PS) at the SBR output rate with twice the
    /// core's frames per packet.
    public struct StreamSummary: Hashable, Sendable {
        /// The core audio object type (2 for AAC LC).
        public var objectType: Int
        /// The core's sampling rate in Hz.
        public var coreRate: Double
        /// The decoded rate in Hz: the SBR output rate where SBR is signalled, else the core's.
        public var outputRate: Double
        /// The MPEG-4 channel configuration (0: a program config element says).
        public var channelConfiguration: Int
        /// Decoded channels; 0 when the config does not say (the container's count applies).
        public var channels: Int
        /// `'aac '`, `'aach'` (SBR) or `'aacp'` (SBR and PS).
        public var formatID: AudioFormatID
        /// The stream description's flags: the object type, 5 for HE-AAC, 29 for HE-AAC v2.
        public var formatFlags: UInt32
        /// Frames in a packet: the core's frame length, twice it where SBR doubles the rate.
        public var framesPerPacket: UInt32
    }

    /// The summary of this config.
    public var streamSummary: StreamSummary {
        let core = Double(samplingFrequency)
        let sbrPresent = sbr == .present
        let psPresent = sbrPresent && ps == .present
        let output = sbrPresent ? Double(extensionSamplingFrequency ?? samplingFrequency * 2) : core
        let frames = UInt32(coreFrameLength)
        return StreamSummary(
            objectType: audioObjectType, coreRate: core, outputRate: output, channelConfiguration: channelConfiguration,
            channels: psPresent && channelCount == 1 ? 2 : channelCount,
            formatID: psPresent ? .mpeg4AAC_HE_V2 : (sbrPresent ? .mpeg4AAC_HE : .mpeg4AAC),
            formatFlags: psPresent ? 29 : (sbrPresent ? 5 : UInt32(audioObjectType)),
            framesPerPacket: output > core ? frames * 2 : frames)
    }

    /// The summary of the config `bytes` hold, read as a file reader must: a config the parser
    /// refuses (an object type that is not AAC, error protection, a program config element cut
    /// short) is still summarised from its first fields — object type, rates, channel
    /// configuration, hierarchical SBR/PS, frame length — with 0 channels where the channel
    /// configuration does not give them. Nil when even those cannot be read (object type 0, a
    /// reserved or zero rate, too few bits).
    public static func streamSummary(of bytes: [UInt8]) -> StreamSummary? {
        if let config = try? AudioSpecificConfig(bytes: bytes) { return config.streamSummary }
        var r = ConfigBitReader(bytes)
        guard var type = try? r.objectType(), type > 0,
              let (_, core) = try? r.samplingFrequency(), core > 0,
              let configuration = try? Int(r.bits(4)) else { return nil }
        var signalled = 0
        var extensionRate: Int?
        if type == 5 || type == 29 {
            signalled = type
            extensionRate = (try? r.samplingFrequency())?.rate
            guard let coreType = try? r.objectType(), coreType > 0 else { return nil }
            type = coreType
        }
        let shortFrames = gaObjectTypes.contains(type) && r.bitsOrZero(1) == 1
        var channels = configuration == 7 ? 8 : (configuration <= 6 ? configuration : 0)
        if signalled == 29, channels == 1 { channels = 2 }
        let output = Double(signalled != 0 ? (extensionRate ?? core * 2) : core)
        let frames: UInt32 = type == 23 ? (shortFrames ? 480 : 512) : (shortFrames ? 960 : 1024)
        return StreamSummary(
            objectType: type, coreRate: Double(core), outputRate: output, channelConfiguration: configuration, channels: channels,
            formatID: signalled == 29 ? .mpeg4AAC_HE_V2 : (signalled == 5 ? .mpeg4AAC_HE : .mpeg4AAC),
            formatFlags: signalled != 0 ? UInt32(signalled) : UInt32(type),
            framesPerPacket: output > Double(core) ? frames * 2 : frames)
    }
}
