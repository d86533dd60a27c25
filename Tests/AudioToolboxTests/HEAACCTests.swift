import AudioToolbox
import Foundation
import ProcessSupport
import Testing

/// HE-AAC whose SBR doubles the core rate keeps its whole duration through the C API:
/// AudioFile's format, format list and packet table, ExtAudioFile's length and reads
/// (C/he_aac_duration.c), and an audio queue rendering offline (Examples/Guide/loop.c).
@Suite("HE-AAC through the C API")
struct HEAACCTests {
    static let program = Result { try CPrograms.build("he_aac_duration", sources: ["Tests/AudioToolboxTests/C/he_aac_duration.c"]) }
    static let files = ["he-sync-1ch-22050.m4a", "he-explicit-1ch-22050.m4a", "he-1ch-22050.caf"]
    static func path(_ name: String) -> String { CPrograms.path("Tests/Fixtures/mpeg4-more/" + name) }

    @Test("AudioFile reports 'aach' at 44.1 kHz, the format list and 48510 valid frames; ExtAudioFile reads them all", arguments: files)
    func fileAndExtAudioFile(name: String) throws {
        let r = try GuideTests.run(try Self.program.get(), [Self.path(name), "48510", "44100"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" 0 failed"), "\(r.out)")
    }

    @Test("An output queue rendering offline (loop.c) plays 1.1 s at 44.1 kHz per pass, ffmpeg's decode trimmed", arguments: files)
    func queueRendersTheWholeDuration(name: String) throws {
        let (rendered, out) = try GuideTests.loopOffline(Self.path(name), loops: 2)
        let valid = 48510
        #expect(rendered.frames == 2 * valid, "rendered \(rendered.frames) frames, 2 × \(valid) expected; \(out)")
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path("he-sync-1ch-22050.m4a.f32")))
        let ffmpeg: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let once = Array(ffmpeg[4224..<(4224 + valid)])
        let reference = GuideTests.Audio(samples: once + once, channels: 1)
        guard rendered.frames == reference.frames, rendered.channels == 1 else { return }
        let db = GuideTests.snr(reference, rendered, channel: 0)
        #expect(db > 90, "\(db) dB against two trimmed ffmpeg decodes")
    }

    @Test("An output queue rendering implicit SBR in ADTS (loop.c) plays every packet's 1024 frames at the core rate")
    func queueRendersImplicitSBR() throws {
        let (rendered, out) = try GuideTests.loopOffline(Self.path("he-implicit-1ch-22050.aac"), loops: 1)
        #expect(rendered.frames == 26 * 1024 && rendered.channels == 1, "rendered \(rendered.frames) frames; \(out)")
    }

    @Test("aqplay renders 1.1 s at 44.1 kHz from the file and from standard input (Audio File Stream Services)", arguments: files)
    func aqplayFileAndStream(name: String) throws {
        let aqplay = CPrograms.path(".build/debug/aqplay")
        for source in ["file", "stream"] {
            let out = GuideTests.scratchPath("aqplay-\(source).wav")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let command = source == "file" ? "'\(aqplay)' --offline '\(out)' '\(Self.path(name))'"
                : "'\(aqplay)' --offline '\(out)' - < '\(Self.path(name))'"
            let r = try GuideTests.run("/bin/sh", ["-c", command])
            #expect(r.status == 0, "\(source): \(r.out)\(r.err)")
            let audio = try GuideTests.ffmpegDecode(out)
            #expect(audio.frames == 48510, "\(source): \(audio.frames) frames")
        }
    }

    /// ADTS cannot signal SBR; the first packet shows it (QA1639's case): the format list puts
    /// 'aach' at twice the rate before the 'aac ' core. Without SBR data, only the core.
    @Test("The format list of ADTS HE-AAC (implicit SBR) lists 'aach' before the core", arguments: [("he-implicit-1ch-22050.aac", 2), ("he-core-1ch-22050.aac", 1)])
    func implicitSBRFormatList(name: String, items: Int) throws {
        let path = Self.path(name)
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url!, .readPermission, 0, &file) == noErr)
        CFRelease(UnsafeRawPointer(url!))
        var size: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file!, kAudioFilePropertyFormatList, &size, nil) == noErr)
        #expect(Int(size) == items * MemoryLayout<AudioFormatListItem>.stride)
        var list = [AudioFormatListItem](repeating: AudioFormatListItem(), count: items)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyFormatList, &size, &list) == noErr)
        if items == 2 {
            #expect(list[0].mASBD.mFormatID == kAudioFormatMPEG4AAC_HE && list[0].mASBD.mSampleRate == 44100 && list[0].mASBD.mFramesPerPacket == 2048)
        }
        #expect(list[items - 1].mASBD.mFormatID == kAudioFormatMPEG4AAC && list[items - 1].mASBD.mSampleRate == 22050)
        #expect(AudioFileClose(file!) == noErr)
    }
}
