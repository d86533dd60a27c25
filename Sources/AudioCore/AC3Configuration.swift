/// The configuration of an AC-3 or E-AC-3 stream: the `AC3SpecificBox` (`dac3`) and
/// `EC3SpecificBox` (`dec3`) of ETSI TS 102 366 Annex F, which are the magic cookie of `'ac-3'`
/// and `'ec-3'` data (the box's body, as a Mac's MPEG-4 reader gives it; the whole box, size and
/// type first, is read too), and what the first syncframes of a raw stream say.
///
/// The channels are in the order of the bitstream, as Apple's decoder gives them: the front and
/// surround channels of the audio coding mode (L C R Ls Rs), then LFE, then the channels the
/// dependent substreams add in `chan_loc` order. ``channelLayout`` names that order with Core
/// Audio's AC-3 tags (`kAudioChannelLayoutTag_MPEG_5_1_C` for 3/2 with LFE, `AC3_3_0_1`,
/// `EAC3_7_1_A`, …) or, where no tag fits, channel descriptions.
public struct AC3Configuration: Hashable, Sendable {
    /// Why a configuration was refused.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the field.
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// One independent substream (AC-3 has one).
    public struct Substream: Hashable, Sendable {
        /// The sample rate code (3: E-AC-3's reduced rates, which `dec3` does not tell apart).
        public var fscod: Int
        /// Bitstream identification.
        public var bsid: Int
        /// Bitstream mode.
        public var bsmod: Int
        /// Audio coding mode.
        public var acmod: Int
        /// True when the substream carries an LFE channel.
        public var lfeOn: Bool
        /// True for an associated service (E-AC-3 `asvc`).
        public var associatedService: Bool
        /// Dependent substreams that belong to this one.
        public var dependentSubstreams: Int
        /// The channel locations they add (`chan_loc`, Table F.6.1: bit 0 Lc/Rc, 1 Lrs/Rrs, 2 Cs,
        /// 3 Ts, 4 Lsd/Rsd, 5 Lw/Rw, 6 Lvh/Rvh, 7 Cvh, 8 LFE2).
        public var channelLocations: UInt16

        /// A substream with the given fields.
        public init(
            fscod: Int, bsid: Int, bsmod: Int = 0, acmod: Int, lfeOn: Bool, associatedService: Bool = false,
            dependentSubstreams: Int = 0, channelLocations: UInt16 = 0
        ) {
            self.fscod = fscod
            self.bsid = bsid
            self.bsmod = bsmod
            self.acmod = acmod
            self.lfeOn = lfeOn
            self.associatedService = associatedService
            self.dependentSubstreams = dependentSubstreams
            self.channelLocations = channelLocations
        }
    }

    /// True for E-AC-3 (`dec3`), false for AC-3 (`dac3`).
    public var isEnhanced: Bool
    /// AC-3: the bit rate code (`frmsizecod >> 1`). E-AC-3: 0.
    public var bitRateCode: Int
    /// E-AC-3: the data rate in kbit/s (`data_rate`). AC-3: the rate of ``bitRateCode``.
    public var dataRate: Int
    /// The independent substreams: one for AC-3, one to eight for E-AC-3.
    public var substreams: [Substream]

    /// The sampling rate of the first substream (`fscod` 3, a reduced E-AC-3 rate, gives 0:
    /// the stream description says which).
    public var sampleRate: Int {
        let code = substreams[0].fscod
        return code < 3 ? AC3FrameHeader.sampleRates[code] : 0
    }

    /// The channels decoded: the first independent substream's and those its dependents add.
    public var channelCount: Int { channelLabels.count }

    /// The decoded channels' roles, in output order.
    public var channelLabels: [AudioChannelLabel] {
        let s = substreams[0]
        return Self.labels(acmod: s.acmod, lfeOn: s.lfeOn, channelLocations: s.channelLocations)
    }

    /// The layout of the decoded channels (see the type's discussion).
    public var channelLayout: AudioChannelLayout {
        let s = substreams[0]
        if let tag = Self.tag(acmod: s.acmod, lfeOn: s.lfeOn, channelLocations: s.channelLocations) {
            return AudioChannelLayout(tag: tag)
        }
        return AudioChannelLayout(tag: .useChannelDescriptions, descriptions: channelLabels.map { AudioChannelDescription(label: $0) })
    }

    /// An AC-3 configuration.
    public init(ac3 substream: Substream, bitRateCode: Int) {
        isEnhanced = false
        self.bitRateCode = bitRateCode
        dataRate = AC3FrameHeader.bitRates[min(max(bitRateCode, 0), AC3FrameHeader.bitRates.count - 1)]
        substreams = [substream]
    }

    /// An E-AC-3 configuration.
    public init(eac3 substreams: [Substream], dataRate: Int) {
        isEnhanced = true
        bitRateCode = 0
        self.dataRate = dataRate
        self.substreams = substreams.isEmpty ? [Substream(fscod: 0, bsid: 16, acmod: 2, lfeOn: false)] : substreams
    }

    /// Parses a magic cookie: a `dac3` or `dec3` box, whole or its body. `enhanced` says which
    /// body a cookie without a box header is (`'ec-3'` data: `dec3`).
    public init(cookie: [UInt8], enhanced: Bool) throws(FormatError) {
        var body = cookie[...]
        var isEnhanced = enhanced
        if cookie.count >= 8, cookie[4] == 0x64, cookie[5] == 0x61 || cookie[5] == 0x65, cookie[6] == 0x63, cookie[7] == 0x33 {
            let size = Int(cookie[0]) << 24 | Int(cookie[1]) << 16 | Int(cookie[2]) << 8 | Int(cookie[3])
            guard size >= 8, size <= cookie.count else { throw FormatError("the \(cookie[5] == 0x65 ? "dec3" : "dac3") box's size \(size) does not fit its \(cookie.count) bytes") }
            isEnhanced = cookie[5] == 0x65
            body = cookie[8..<size]
        }
        if isEnhanced {
            try self.init(dec3: Array(body))
        } else {
            try self.init(dac3: Array(body))
        }
    }

    /// Parses the body of an `AC3SpecificBox` (3 bytes: fscod, bsid, bsmod, acmod, lfeon,
    /// bit_rate_code).
    public init(dac3 body: [UInt8]) throws(FormatError) {
        guard body.count >= 3 else { throw FormatError("a dac3 box has 3 bytes; this one has \(body.count)") }
        var bits = HeaderBits(body, from: 0)
        let fscod = Int(bits.read(2))
        let bsid = Int(bits.read(5))
        let bsmod = Int(bits.read(3))
        let acmod = Int(bits.read(3))
        let lfeOn = bits.read(1) == 1
        let code = Int(bits.read(5))
        guard fscod < 3 else { throw FormatError("dac3 fscod 3 is reserved") }
        guard bsid <= 10 else { throw FormatError("dac3 bsid \(bsid) is not AC-3") }
        guard code < AC3FrameHeader.bitRates.count else { throw FormatError("dac3 bit_rate_code \(code) is reserved") }
        self.init(ac3: Substream(fscod: fscod, bsid: bsid, bsmod: bsmod, acmod: acmod, lfeOn: lfeOn), bitRateCode: code)
    }

    /// Parses the body of an `EC3SpecificBox`: data_rate, num_ind_sub, and for each independent
    /// substream fscod, bsid, asvc, bsmod, acmod, lfeon, num_dep_sub and chan_loc.
    public init(dec3 body: [UInt8]) throws(FormatError) {
        guard body.count >= 5 else { throw FormatError("a dec3 box has at least 5 bytes; this one has \(body.count)") }
        var bits = HeaderBits(body, from: 0)
        let rate = Int(bits.read(13))
        let count = Int(bits.read(3)) + 1
        var substreams: [Substream] = []
        for index in 0..<count {
            let fscod = Int(bits.read(2))
            let bsid = Int(bits.read(5))
            _ = bits.read(1)  // reserved
            let asvc = bits.read(1) == 1
            let bsmod = Int(bits.read(3))
            let acmod = Int(bits.read(3))
            let lfeOn = bits.read(1) == 1
            _ = bits.read(3)  // reserved
            let dependents = Int(bits.read(4))
            var locations: UInt16 = 0
            if dependents > 0 {
                locations = UInt16(bits.read(9))
            } else {
                _ = bits.read(1)  // reserved
            }
            guard !bits.overrun else { throw FormatError("dec3 ends inside independent substream \(index)") }
            substreams.append(Substream(
                fscod: fscod, bsid: bsid, bsmod: bsmod, acmod: acmod, lfeOn: lfeOn, associatedService: asvc,
                dependentSubstreams: dependents, channelLocations: locations))
        }
        self.init(eac3: substreams, dataRate: rate)
    }

    /// The configuration of one packet's syncframes: `frames` holds the headers of an
    /// independent frame and the frames after it up to the next independent frame of substream 0
    /// (E-AC-3), or one AC-3 frame. Nil when the first is not an independent frame.
    public init?(frames: [AC3FrameHeader]) {
        guard let first = frames.first, first.streamType != .dependent else { return nil }
        if !first.isEnhanced {
            self.init(
                ac3: Substream(fscod: first.fscod, bsid: first.bsid, bsmod: first.bsmod, acmod: first.acmod, lfeOn: first.lfeOn),
                bitRateCode: first.frameSizeCode >> 1)
            return
        }
        var substreams: [Substream] = []
        for frame in frames {
            if frame.streamType == .dependent {
                guard !substreams.isEmpty else { continue }
                substreams[substreams.count - 1].dependentSubstreams += 1
                if let map = frame.channelMap { substreams[substreams.count - 1].channelLocations |= Self.locations(channelMap: map) }
            } else if substreams.count < 8 {
                substreams.append(Substream(fscod: frame.fscod, bsid: frame.bsid, acmod: frame.acmod, lfeOn: frame.lfeOn))
            }
        }
        let bytes = frames.reduce(0) { $0 + $1.frameSize }
        self.init(eac3: substreams, dataRate: bytes * 8 * first.sampleRate / (max(first.frameCount, 1) * 1000))
    }

    /// The body of the `dac3` or `dec3` box for this configuration.
    public var boxBody: [UInt8] {
        var w = ConfigBitWriter()
        if !isEnhanced {
            let s = substreams[0]
            w.write(s.fscod, 2); w.write(s.bsid, 5); w.write(s.bsmod, 3); w.write(s.acmod, 3)
            w.write(s.lfeOn ? 1 : 0, 1); w.write(bitRateCode, 5); w.write(0, 5)
            return w.bytes
        }
        w.write(min(dataRate, 0x1FFF), 13)
        w.write(substreams.count - 1, 3)
        for s in substreams {
            w.write(s.fscod, 2); w.write(s.bsid, 5); w.write(0, 1); w.write(s.associatedService ? 1 : 0, 1)
            w.write(s.bsmod, 3); w.write(s.acmod, 3); w.write(s.lfeOn ? 1 : 0, 1); w.write(0, 3)
            w.write(s.dependentSubstreams, 4)
            if s.dependentSubstreams > 0 { w.write(Int(s.channelLocations), 9) } else { w.write(0, 1) }
        }
        return w.bytes
    }

    /// `chan_loc` bits for a dependent substream's `chanmap` (Table E.1.4, bit 0 the most
    /// significant: L C R Ls Rs, then Lc/Rc … Cvh at bits 5–12, Lts/Rts, LFE2 at 14, LFE).
    public static func locations(channelMap: UInt16) -> UInt16 {
        var locations: UInt16 = 0
        for bit in 5...12 where channelMap & (0x8000 >> UInt16(bit)) != 0 { locations |= 1 << UInt16(bit - 5) }
        if channelMap & (0x8000 >> 14) != 0 { locations |= 1 << 8 }
        return locations
    }

    /// The channels of an audio coding mode, LFE and `chan_loc`, in decoding order.
    public static func labels(acmod: Int, lfeOn: Bool, channelLocations: UInt16) -> [AudioChannelLabel] {
        var labels: [AudioChannelLabel] = switch acmod & 7 {
        case 1: [.center]
        case 3: [.left, .center, .right]
        case 4: [.left, .right, .centerSurround]
        case 5: [.left, .center, .right, .centerSurround]
        case 6: [.left, .right, .leftSurround, .rightSurround]
        case 7: [.left, .center, .right, .leftSurround, .rightSurround]
        default: [.left, .right]
        }
        if lfeOn { labels.append(.lfeScreen) }
        let extra: [[AudioChannelLabel]] = [
            [.leftCenter, .rightCenter], [.rearSurroundLeft, .rearSurroundRight], [.centerSurround], [.topCenterSurround],
            [.leftSurroundDirect, .rightSurroundDirect], [.leftWide, .rightWide], [.verticalHeightLeft, .verticalHeightRight],
            [.verticalHeightCenter], [.lfe2],
        ]
        for bit in 0..<9 where channelLocations & (1 << UInt16(bit)) != 0 {
            for label in extra[bit] where !labels.contains(label) { labels.append(label) }
        }
        return labels
    }

    /// Core Audio's tag for the channels, nil where none names them in this order.
    public static func tag(acmod: Int, lfeOn: Bool, channelLocations: UInt16) -> AudioChannelLayoutTag? {
        func t(_ index: UInt32, _ channels: UInt32) -> AudioChannelLayoutTag { AudioChannelLayoutTag(rawValue: index << 16 | channels) }
        if channelLocations == 0 {
            let withoutLFE: [AudioChannelLayoutTag] = [
                .stereo, .mono, .stereo, t(150, 3) /* AC3_3_0 */, t(131, 3) /* ITU_2_1 */, t(151, 4) /* AC3_3_1 */,
                t(132, 4) /* ITU_2_2 */, .mpeg_5_0_C,
            ]
            let withLFE: [AudioChannelLayoutTag] = [
                t(133, 3) /* DVD_4 */, t(149, 2) /* AC3_1_0_1 */, t(133, 3), t(152, 4) /* AC3_3_0_1 */, t(153, 4) /* AC3_2_1_1 */,
                t(154, 5) /* AC3_3_1_1 */, t(138, 5) /* DVD_18 */, .mpeg_5_1_C,
            ]
            return (lfeOn ? withLFE : withoutLFE)[acmod & 7]
        }
        guard acmod == 7, lfeOn else { return nil }
        switch channelLocations {
        case 1 << 0: return t(161, 8)  // EAC3_7_1_B: Lc Rc
        case 1 << 1: return t(160, 8)  // EAC3_7_1_A: Rls Rrs
        case 1 << 2: return t(157, 7)  // EAC3_6_1_A: Cs
        case 1 << 3: return t(158, 7)  // EAC3_6_1_B: Ts
        case 1 << 4: return t(162, 8)  // EAC3_7_1_C: Lsd Rsd
        case 1 << 5: return t(163, 8)  // EAC3_7_1_D: Lw Rw
        case 1 << 6: return t(164, 8)  // EAC3_7_1_E: Vhl Vhr
        case 1 << 7: return t(159, 7)  // EAC3_6_1_C: Vhc
        default: return nil
        }
    }

    /// The configuration a stream description implies when there is no cookie: the usual
    /// coding mode for its channel count (1/0, 2/0, 3/0, 2/2, 3/2, 3/2 with LFE, 3/2 with LFE and
    /// Cs, 3/2 with LFE and Lrs/Rrs; more: 3/2 with LFE).
    public static func assumed(channels: Int, enhanced: Bool) -> AC3Configuration {
        let (acmod, lfe, locations): (Int, Bool, UInt16) = switch channels {
        case 1: (1, false, 0)
        case 3: (3, false, 0)
        case 4: (6, false, 0)
        case 5: (7, false, 0)
        case 6: (7, true, 0)
        case 7: (7, true, 1 << 2)
        case 8: (7, true, 1 << 1)
        default: (channels > 8 ? 7 : 2, channels > 8, 0)
        }
        let substream = Substream(
            fscod: 0, bsid: enhanced ? 16 : 8, acmod: acmod, lfeOn: lfe, dependentSubstreams: locations == 0 ? 0 : 1,
            channelLocations: locations)
        return enhanced ? AC3Configuration(eac3: [substream], dataRate: 0) : AC3Configuration(ac3: substream, bitRateCode: 0)
    }
}
