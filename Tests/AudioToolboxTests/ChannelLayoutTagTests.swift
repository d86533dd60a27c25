import AudioToolbox
import ProcessSupport
import Testing

/// The channels kAudioFormatProperty_ChannelLayoutForTag gives for Core Audio's layout tags,
/// against FFmpeg's standard channel layouts (`ffmpeg -layouts`, a reference nobody here wrote)
/// where a tag and an FFmpeg layout hold the same speakers. FFmpeg lists a layout's channels in
/// its own canonical order, so the speakers are compared as sets; their order, as Apple's header
/// documents it, is checked by C/mac_audio_driver.c. Labels map to FFmpeg's channels as FFmpeg's
/// mov_chan.c maps them (Ls/Rs are its side pair, Rls/Rrs its back pair).
@Suite("Channel layout tags")
struct ChannelLayoutTagTests {
    /// Core Audio's channel labels and FFmpeg's names for them.
    static let ffmpegNames: [UInt32: String] = [
        1: "FL", 2: "FR", 3: "FC", 4: "LFE", 5: "SL", 6: "SR", 7: "FLC", 8: "FRC", 9: "BC", 10: "SDL", 11: "SDR",
        12: "TC", 13: "TFL", 14: "TFC", 15: "TFR", 16: "TBL", 17: "TBC", 18: "TBR", 33: "BL", 34: "BR", 35: "WL", 36: "WR",
        37: "LFE2", 38: "DL", 39: "DR", 49: "TSL", 51: "TSR",
    ]

    /// Tags and the FFmpeg layout with the same speakers.
    static let pairs: [(tag: AudioChannelLayoutTag, name: String, ffmpeg: String)] = [
        (kAudioChannelLayoutTag_Mono, "Mono", "mono"), (kAudioChannelLayoutTag_Stereo, "Stereo", "stereo"),
        (kAudioChannelLayoutTag_StereoHeadphones, "StereoHeadphones", "stereo"),
        (kAudioChannelLayoutTag_MatrixStereo, "MatrixStereo", "downmix"), (kAudioChannelLayoutTag_DVD_4, "DVD_4", "2.1"),
        (kAudioChannelLayoutTag_WAVE_2_1, "WAVE_2_1", "2.1"), (kAudioChannelLayoutTag_MPEG_3_0_A, "MPEG_3_0_A", "3.0"),
        (kAudioChannelLayoutTag_MPEG_3_0_B, "MPEG_3_0_B", "3.0"), (kAudioChannelLayoutTag_AC3_3_0, "AC3_3_0", "3.0"),
        (kAudioChannelLayoutTag_ITU_2_1, "ITU_2_1", "3.0(back)"), (kAudioChannelLayoutTag_MPEG_4_0_A, "MPEG_4_0_A", "4.0"),
        (kAudioChannelLayoutTag_AAC_4_0, "AAC_4_0", "4.0"), (kAudioChannelLayoutTag_AC3_3_1, "AC3_3_1", "4.0"),
        (kAudioChannelLayoutTag_Quadraphonic, "Quadraphonic", "quad(side)"), (kAudioChannelLayoutTag_DVD_3, "DVD_3", "quad(side)"),
        (kAudioChannelLayoutTag_WAVE_4_0_B, "WAVE_4_0_B", "quad"), (kAudioChannelLayoutTag_DVD_10, "DVD_10", "3.1"),
        (kAudioChannelLayoutTag_AC3_3_0_1, "AC3_3_0_1", "3.1"), (kAudioChannelLayoutTag_DTS_3_1, "DTS_3_1", "3.1"),
        (kAudioChannelLayoutTag_MPEG_5_0_A, "MPEG_5_0_A", "5.0(side)"), (kAudioChannelLayoutTag_MPEG_5_0_B, "MPEG_5_0_B", "5.0(side)"),
        (kAudioChannelLayoutTag_MPEG_5_0_C, "MPEG_5_0_C", "5.0(side)"), (kAudioChannelLayoutTag_AAC_5_0, "AAC_5_0", "5.0(side)"),
        (kAudioChannelLayoutTag_WAVE_5_0_B, "WAVE_5_0_B", "5.0"), (kAudioChannelLayoutTag_Pentagonal, "Pentagonal", "5.0"),
        (kAudioChannelLayoutTag_DVD_11, "DVD_11", "4.1"), (kAudioChannelLayoutTag_AC3_3_1_1, "AC3_3_1_1", "4.1"),
        (kAudioChannelLayoutTag_DTS_4_1, "DTS_4_1", "4.1"), (kAudioChannelLayoutTag_MPEG_5_1_A, "MPEG_5_1_A", "5.1(side)"),
        (kAudioChannelLayoutTag_MPEG_5_1_B, "MPEG_5_1_B", "5.1(side)"), (kAudioChannelLayoutTag_MPEG_5_1_C, "MPEG_5_1_C", "5.1(side)"),
        (kAudioChannelLayoutTag_AAC_5_1, "AAC_5_1", "5.1(side)"), (kAudioChannelLayoutTag_DVD_20, "DVD_20", "5.1(side)"),
        (kAudioChannelLayoutTag_WAVE_5_1_B, "WAVE_5_1_B", "5.1"), (kAudioChannelLayoutTag_AAC_6_0, "AAC_6_0", "6.0"),
        (kAudioChannelLayoutTag_AudioUnit_6_0, "AudioUnit_6_0", "6.0"), (kAudioChannelLayoutTag_EAC_6_0_A, "EAC_6_0_A", "6.0"),
        (kAudioChannelLayoutTag_DTS_6_0_A, "DTS_6_0_A", "6.0(front)"), (kAudioChannelLayoutTag_Hexagonal, "Hexagonal", "hexagonal"),
        (kAudioChannelLayoutTag_DTS_6_0_C, "DTS_6_0_C", "hexagonal"), (kAudioChannelLayoutTag_MPEG_6_1_A, "MPEG_6_1_A", "6.1"),
        (kAudioChannelLayoutTag_WAVE_6_1, "WAVE_6_1", "6.1"), (kAudioChannelLayoutTag_AAC_6_1, "AAC_6_1", "6.1"),
        (kAudioChannelLayoutTag_EAC3_6_1_A, "EAC3_6_1_A", "6.1"), (kAudioChannelLayoutTag_DTS_6_1_C, "DTS_6_1_C", "6.1(back)"),
        (kAudioChannelLayoutTag_DTS_6_1_A, "DTS_6_1_A", "6.1(front)"), (kAudioChannelLayoutTag_AAC_7_0, "AAC_7_0", "7.0"),
        (kAudioChannelLayoutTag_AudioUnit_7_0, "AudioUnit_7_0", "7.0"), (kAudioChannelLayoutTag_EAC_7_0_A, "EAC_7_0_A", "7.0"),
        (kAudioChannelLayoutTag_AudioUnit_7_0_Front, "AudioUnit_7_0_Front", "7.0(front)"),
        (kAudioChannelLayoutTag_MPEG_7_1_C, "MPEG_7_1_C", "7.1"), (kAudioChannelLayoutTag_WAVE_7_1, "WAVE_7_1", "7.1"),
        (kAudioChannelLayoutTag_AAC_7_1_B, "AAC_7_1_B", "7.1"), (kAudioChannelLayoutTag_EAC3_7_1_A, "EAC3_7_1_A", "7.1"),
        (kAudioChannelLayoutTag_MPEG_7_1_A, "MPEG_7_1_A", "7.1(wide-side)"), (kAudioChannelLayoutTag_MPEG_7_1_B, "MPEG_7_1_B", "7.1(wide-side)"),
        (kAudioChannelLayoutTag_Emagic_Default_7_1, "Emagic_Default_7_1", "7.1(wide-side)"),
        (kAudioChannelLayoutTag_EAC3_7_1_B, "EAC3_7_1_B", "7.1(wide-side)"), (kAudioChannelLayoutTag_DTS_7_1, "DTS_7_1", "7.1(wide-side)"),
        (kAudioChannelLayoutTag_Octagonal, "Octagonal", "octagonal"), (kAudioChannelLayoutTag_AAC_Octagonal, "AAC_Octagonal", "octagonal"),
    ]

    /// FFmpeg's standard layouts: name and channels.
    static let ffmpegLayouts: [String: Set<String>]? = {
        guard let r = try? runProcess("/usr/bin/ffmpeg", ["-hide_banner", "-layouts"]), r.status == 0 else { return nil }
        var layouts: [String: Set<String>] = [:]
        var inStandard = false
        for line in (r.out + r.err).split(separator: "\n") {
            if line.hasPrefix("Standard channel layouts") { inStandard = true; continue }
            guard inStandard else { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, fields[0] != "NAME" else { continue }
            layouts[String(fields[0])] = Set(fields[1].split(separator: "+").map(String.init))
        }
        return layouts
    }()

    /// The labels ChannelLayoutForTag gives for `tag`.
    static func labels(_ tag: AudioChannelLayoutTag) -> [UInt32]? {
        var tag = tag
        var size: UInt32 = 0
        guard AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size) == noErr, size >= 12 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let status = bytes.withUnsafeMutableBytes { AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size, $0.baseAddress) }
        guard status == noErr else { return nil }
        return bytes.withUnsafeBytes { raw in
            let count = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            return (0..<count).map { raw.loadUnaligned(fromByteOffset: 12 + 20 * $0, as: UInt32.self) }
        }
    }

    @Test("Each tag's speakers are those of the FFmpeg layout with the same channels")
    func againstFFmpeg() throws {
        let layouts = try #require(Self.ffmpegLayouts, "ffmpeg -layouts did not run")
        #expect(layouts.count >= 20, "\(layouts.count) layouts parsed")
        for pair in Self.pairs {
            let expected = try #require(layouts[pair.ffmpeg], "ffmpeg has no layout \(pair.ffmpeg)")
            let labels = try #require(Self.labels(pair.tag), "no layout for \(pair.name)")
            let names = labels.map { Self.ffmpegNames[$0] ?? "label \($0)" }
            #expect(names.count == expected.count && Set(names) == expected, "\(pair.name): \(names) vs \(pair.ffmpeg) \(expected.sorted())")
            #expect(UInt32(labels.count) == pair.tag & 0xFFFF, "\(pair.name): \(labels.count) channels")
        }
    }

    @Test("Every predefined tag gives as many channels as its low 16 bits, and no label twice")
    func countsMatchTags() {
        var checked = 0
        for index in UInt32(100)...UInt32(219) {
            for count in UInt32(1)...UInt32(24) {
                let candidate = index << 16 | count
                guard let labels = Self.labels(candidate) else { continue }
                checked += 1
                #expect(UInt32(labels.count) == count, "tag \(index)|\(count): \(labels.count) channels")
                #expect(Set(labels).count == labels.count, "tag \(index)|\(count) repeats a label: \(labels)")
            }
        }
        #expect(checked > 100, "\(checked) tags expanded")
    }
}
