import Testing
@testable import AudioCore

/// AC-3 syncframe headers and the `dac3`/`dec3` boxes, against ETSI TS 102 366's tables and
/// Apple's layout tag values (CoreAudioBaseTypes.h).
@Suite struct AC3ConfigurationTests {
    /// An AC-3 header: sync word, CRC, fscod/frmsizecod, then bsid 8, bsmod, acmod and the
    /// fields the coding mode brings, and lfeon.
    static func ac3Header(fscod: UInt8, frmsizecod: UInt8, acmod: Int, lfe: Bool) -> [UInt8] {
        var bits: [Int] = []
        func put(_ v: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { bits.append(v >> k & 1) } }
        put(8, 5)  // bsid
        put(0, 3)  // bsmod
        put(acmod, 3)
        if acmod & 1 != 0 && acmod != 1 { put(0, 2) }
        if acmod & 4 != 0 { put(0, 2) }
        if acmod == 2 { put(0, 2) }
        put(lfe ? 1 : 0, 1)
        while bits.count % 8 != 0 { bits.append(0) }
        var bytes: [UInt8] = [0x0B, 0x77, 0, 0, fscod << 6 | frmsizecod]
        for i in stride(from: 0, to: bits.count, by: 8) { bytes.append(UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 })) }
        return bytes + [UInt8](repeating: 0, count: 16)
    }

    @Test func ac3FrameSizesFollowTheStandardsTable() {
        // Table 4.13: 32 kbit/s is 64/69/96 words at 48/44.1/32 kHz; 640 kbit/s 1280/1393/1920;
        // odd codes add a word at 44.1 kHz only.
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 0, fscod: 0) == 128)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 0, fscod: 1) == 138)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 1, fscod: 1) == 140)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 0, fscod: 2) == 192)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 36, fscod: 0) == 2560)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 37, fscod: 1) == 2788)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 36, fscod: 2) == 3840)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 38, fscod: 0) == nil)
        #expect(AC3FrameHeader.ac3FrameSize(frameSizeCode: 0, fscod: 3) == nil)
    }

    @Test func ac3HeaderGivesRateChannelsAndSize() throws {
        let header = try #require(AC3FrameHeader(Self.ac3Header(fscod: 0, frmsizecod: 30, acmod: 7, lfe: true), 0))
        #expect(!header.isEnhanced)
        #expect(header.sampleRate == 48000)
        #expect(header.frameSize == 2 * 896)  // 448 kbit/s at 48 kHz
        #expect(header.bitRate == 448)
        #expect(header.channels == 6)
        #expect(header.frameCount == 1536)
        let mono = try #require(AC3FrameHeader(Self.ac3Header(fscod: 1, frmsizecod: 10, acmod: 1, lfe: false), 0))
        #expect(mono.sampleRate == 44100 && mono.channels == 1)
        #expect(AC3FrameHeader(Self.ac3Header(fscod: 3, frmsizecod: 10, acmod: 1, lfe: false), 0) == nil)
        #expect(AC3FrameHeader([0x0B, 0x78, 0, 0, 0, 0x40], 0) == nil)
    }

    @Test func eac3HeaderGivesStreamTypeBlocksAndChannelMap() throws {
        // strmtyp 1 (dependent), substream 0, frmsiz 0x1FF (1024 bytes), fscod 0, numblkscod 3,
        // acmod 2, lfeon 0, bsid 16, dialnorm, compre 0, chanmape 1, chanmap Lrs/Rrs (bit 6).
        var bits: [Int] = []
        func put(_ v: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { bits.append(v >> k & 1) } }
        put(1, 2); put(0, 3); put(0x1FF, 11); put(0, 2); put(3, 2); put(2, 3); put(0, 1); put(16, 5)
        put(31, 5); put(0, 1); put(1, 1); put(0x8000 >> 6, 16)
        while bits.count % 8 != 0 { bits.append(0) }
        var bytes: [UInt8] = [0x0B, 0x77]
        for i in stride(from: 0, to: bits.count, by: 8) { bytes.append(UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 })) }
        let header = try #require(AC3FrameHeader(bytes + [0, 0, 0, 0], 0))
        #expect(header.isEnhanced && header.streamType == .dependent)
        #expect(header.frameSize == 1024 && header.blocks == 6 && header.sampleRate == 48000)
        #expect(header.channelMap == 0x0200)
        #expect(AC3Configuration.locations(channelMap: 0x0200) == 1 << 1)
    }

    @Test func dac3GivesTheLayoutAppleNamesForEachCodingMode() throws {
        // fscod 0, bsid 8, bsmod 0, acmod 7, lfeon 1, bit_rate_code 14 (384 kbit/s).
        let body: [UInt8] = [0x10, 0x3D, 0xC0]
        let config = try AC3Configuration(dac3: body)
        #expect(config.sampleRate == 48000)
        #expect(config.dataRate == 384)
        #expect(config.channelCount == 6)
        // kAudioChannelLayoutTag_MPEG_5_1_C = (123 << 16) | 6: L C R Ls Rs LFE.
        #expect(config.channelLayout.tag.rawValue == 123 << 16 | 6)
        #expect(config.boxBody == body)
        // The same body inside its box, and a box's size that lies.
        let box: [UInt8] = [0, 0, 0, 11] + Array("dac3".utf8) + body
        #expect(try AC3Configuration(cookie: box, enhanced: false) == config)
        #expect(throws: AC3Configuration.FormatError.self) { try AC3Configuration(cookie: [0, 0, 0, 40] + Array("dac3".utf8) + body, enhanced: false) }
        #expect(throws: AC3Configuration.FormatError.self) { try AC3Configuration(dac3: [0x20]) }
        // Apple's tags: AC3_3_0 (150), ITU_2_1 (131), AC3_3_1 (151), ITU_2_2 (132), MPEG_5_0_C
        // (119); with LFE DVD_4 (133), AC3_1_0_1 (149), AC3_3_0_1 (152), AC3_2_1_1 (153),
        // AC3_3_1_1 (154), DVD_18 (138).
        let without: [UInt32] = [101, 100, 101, 150, 131, 151, 132, 119]
        let with: [UInt32] = [133, 149, 133, 152, 153, 154, 138, 123]
        for acmod in 0..<8 {
            let plain = AC3Configuration.tag(acmod: acmod, lfeOn: false, channelLocations: 0)
            let lfe = AC3Configuration.tag(acmod: acmod, lfeOn: true, channelLocations: 0)
            #expect(plain.map { $0.rawValue >> 16 } == without[acmod])
            #expect(lfe.map { $0.rawValue >> 16 } == with[acmod])
            let channels = [2, 1, 2, 3, 3, 4, 4, 5][acmod]
            #expect(AC3Configuration.labels(acmod: acmod, lfeOn: true, channelLocations: 0).count == channels + 1)
            #expect(plain.map { Int($0.numberOfChannels) } == channels)
        }
    }

    @Test func dec3WithADependentSubstreamIsSevenOne() throws {
        // data_rate 1536, num_ind_sub 0; fscod 0, bsid 16, asvc 0, bsmod 0, acmod 7, lfeon 1,
        // num_dep_sub 1, chan_loc Lrs/Rrs (bit 1).
        var bits: [Int] = []
        func put(_ v: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { bits.append(v >> k & 1) } }
        put(1536, 13); put(0, 3); put(0, 2); put(16, 5); put(0, 1); put(0, 1); put(0, 3); put(7, 3); put(1, 1); put(0, 3)
        put(1, 4); put(0b0_0000_0010, 9)
        while bits.count % 8 != 0 { bits.append(0) }
        var body: [UInt8] = []
        for i in stride(from: 0, to: bits.count, by: 8) { body.append(UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 })) }
        let config = try AC3Configuration(dec3: body)
        #expect(config.isEnhanced && config.dataRate == 1536)
        #expect(config.channelCount == 8)
        // kAudioChannelLayoutTag_EAC3_7_1_A = (160 << 16) | 8: L C R Ls Rs LFE Rls Rrs.
        #expect(config.channelLayout.tag.rawValue == 160 << 16 | 8)
        #expect(config.channelLabels.suffix(2) == [.rearSurroundLeft, .rearSurroundRight])
        #expect(try AC3Configuration(dec3: config.boxBody) == config)
        // Two locations no tag names: channel descriptions in decoding order.
        let both = AC3Configuration.tag(acmod: 7, lfeOn: true, channelLocations: 0b11)
        #expect(both == nil)
        #expect(AC3Configuration.labels(acmod: 7, lfeOn: true, channelLocations: 0b11).count == 10)
        #expect(throws: AC3Configuration.FormatError.self) { try AC3Configuration(dec3: Array(body.prefix(4))) }
    }
}
