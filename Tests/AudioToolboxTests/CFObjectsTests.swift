import Foundation
import ProcessSupport
import Testing

/// The CoreFoundation subset's objects, kAudioFilePropertyInfoDictionary,
/// kAudioFileStreamProperty_InfoDictionary and AudioFileGetGlobalInfo, through a C program
/// (C/cf_objects.c) built against libAudioToolbox.so. Tags are compared with what ffprobe
/// reads from the same files; global info with Apple's names and extensions (afconvert -hf).
@Suite("C API: CoreFoundation objects")
struct CFObjectsTests {
    static let program = Result { try CPrograms.build("cf_objects", sources: ["Tests/AudioToolboxTests/C/cf_objects.c"]) }
    static let sanitized = Result {
        try CPrograms.build(
            "cf_objects_asan", sources: ["Tests/AudioToolboxTests/C/cf_objects.c"],
            extra: ["-fsanitize=address", "-fno-omit-frame-pointer"])
    }

    static func expectAllPassed(_ r: (status: Int32, out: String, err: String)) {
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed"), "\(r.out)")
    }

    @Test("Numbers, booleans, arrays, dictionaries, data, strings and URLs: values, conversions, retain counts, equality, descriptions; nothing leaks (AddressSanitizer)")
    func objects() throws {
        let r = try runProcess(try Self.sanitized.get(), ["objects"])
        Self.expectAllPassed((r.status, r.out, r.err))
        #expect(r.out.contains("76 passed"), "\(r.out)")
    }

    @Test("CFShow writes a string's text (\\u escapes beyond ASCII) and other objects' descriptions to stderr")
    func show() throws {
        let r = try runProcess(try Self.program.get(), ["show"])
        #expect(r.status == 0)
        let expected = r.out.replacingOccurrences(of: "0 passed, 0 failed\n", with: "")
        #expect(!expected.isEmpty && r.err == expected, "stderr:\n\(r.err)\nexpected:\n\(expected)")
    }

    /// ffprobe's tag names for the info dictionary's keys where they differ.
    static let appleKeys = ["comment": "comments", "track": "track number", "date": "year"]

    /// The tags and duration ffprobe reads.
    static func ffprobe(_ path: String) throws -> (tags: [String: String], duration: Double) {
        let r = try runProcess("/usr/bin/ffprobe", ["-v", "quiet", "-of", "json", "-show_entries", "format=duration:format_tags", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let format = try #require(json["format"] as? [String: Any])
        let tags = (format["tags"] as? [String: String]) ?? [:]
        return (tags, Double(format["duration"] as? String ?? "") ?? -1)
    }

    /// `key=value` lines (after the count line) of one dictionary.
    static func entries(_ lines: [Substring]) -> [String: String] {
        var out: [String: String] = [:]
        for line in lines {
            guard let eq = line.firstIndex(of: "="), !line.hasPrefix("count=") else { continue }
            out[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return out
    }

    static func expectSameTags(_ ours: [String: String], _ theirs: [String: String], _ file: String) {
        for (key, value) in theirs {
            let appleKey = appleKeys[key] ?? key
            #expect(ours[key] == value || ours[appleKey] == value, "\(file): ffprobe's \(key)=\(value) is missing from \(ours)")
        }
    }

    static let tagged = [
        "Tests/Fixtures/valid/wav-pcm_s16le-1ch-8000-info.wav", "Tests/Fixtures/valid/caf-pcm_s16le-1ch-8000-info.caf",
        "Tests/Fixtures/valid/caf-aac-1ch-44100-info.caf", "Tests/Fixtures/valid/adts-aac-1ch-44100-id3v23.aac",
        "Tests/Fixtures/valid/adts-aac-2ch-44100-id3v24.aac", "Tests/Fixtures/mp3/id3v24-id3v1-1ch-44100.mp3",
    ]

    @Test("kAudioFilePropertyInfoDictionary holds the tags ffprobe reads and the approximate duration in seconds", arguments: tagged)
    func infoDictionary(_ fixture: String) throws {
        let path = CPrograms.path(fixture)
        let r = try runProcess(try Self.sanitized.get(), ["info", path])
        Self.expectAllPassed((r.status, r.out, r.err))
        let ours = Self.entries(r.out.split(separator: "\n"))
        let (tags, duration) = try Self.ffprobe(path)
        #expect(!tags.isEmpty)
        Self.expectSameTags(ours, tags, fixture)
        #expect(ours.count == tags.count + 1, "\(ours) against ffprobe's \(tags)")
        let seconds = try #require(ours["approximate duration in seconds"].flatMap(Double.init), "\(ours)")
        // Within an AAC or MP3 encoder delay of ffprobe's, which counts the priming frames.
        #expect(abs(seconds - duration) < 0.06, "\(seconds) s against ffprobe's \(duration) s")
    }

    /// Files whose codec is not decoded here (Tests/Fixtures/metadata-only) open as a Mac opens
    /// a file it cannot play, and answer the info dictionary.
    static let undecoded = [
        "Tests/Fixtures/metadata-only/adpcm-ms.wav", "Tests/Fixtures/metadata-only/gsm-ffmpeg.wav",
        "Tests/Fixtures/metadata-only/dts.mov", "Tests/Fixtures/metadata-only/dts.mp4", "Tests/Fixtures/metadata-only/samr.3gp",
    ]

    @Test("kAudioFilePropertyInfoDictionary of a file whose codec is not decoded here holds ffprobe's tags", arguments: undecoded)
    func undecodedInfoDictionary(_ fixture: String) throws {
        let path = CPrograms.path(fixture)
        let r = try runProcess(try Self.sanitized.get(), ["info", path])
        Self.expectAllPassed((r.status, r.out, r.err))
        let ours = Self.entries(r.out.split(separator: "\n"))
        var tags = try Self.ffprobe(path).tags
        for brand in ["major_brand", "minor_version", "compatible_brands"] { tags[brand] = nil }  // ftyp, not tags
        #expect(!tags.isEmpty)
        Self.expectSameTags(ours, tags, fixture)
        #expect(ours.count == tags.count + 1, "\(ours) against ffprobe's \(tags)")
    }

    @Test("A file being written has an info dictionary with the duration written so far, and takes one (read back from the file)")
    func writtenFileInfoDictionary() throws {
        let path = CPrograms.scratch.appendingPathComponent("cf-written-\(UUID().uuidString).caf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try runProcess(try Self.sanitized.get(), ["written", path])
        Self.expectAllPassed((r.status, r.out, r.err))
    }

    /// The stream's tags are those before the audio: an ID3v1 tag at the end is not there yet
    /// when the parser is ready to produce packets.
    @Test("kAudioFileStreamProperty_InfoDictionary holds the tags ffprobe reads", arguments: tagged.filter { !$0.contains("id3v1") })
    func streamInfoDictionary(_ fixture: String) throws {
        let path = CPrograms.path(fixture)
        let r = try runProcess(try Self.sanitized.get(), ["stream", path])
        Self.expectAllPassed((r.status, r.out, r.err))
        let ours = Self.entries(r.out.split(separator: "\n"))
        let tags = try Self.ffprobe(path).tags
        Self.expectSameTags(ours, tags, fixture)
        #expect(ours.count == tags.count, "\(ours) against ffprobe's \(tags)")
    }

    @Test("AudioFileGetGlobalInfo lists the types read and written with Apple's names, extensions, UTIs and MIME types")
    func globalInfo() throws {
        let r = try runProcess(try Self.sanitized.get(), ["global"])
        Self.expectAllPassed((r.status, r.out, r.err))
        let lines = Self.entries(r.out.split(separator: "\n"))
        let expected = [
            "readable": "caff,WAVE,RF64,BW64,AIFF,AIFC,m4af,m4bf,mp4f,3gpp,3gp2,adts,flac,MPG3,MPG2,MPG1,OggS,ac-3",
            "writable": "caff,WAVE,AIFF,AIFC,m4af,m4bf,mp4f,adts,flac,OggS",
            // afconvert -hf on macOS: 'AIFF' = AIFF (.aiff, .aif), 'AIFC' = AIFC (.aifc, .aiff, .aif), …
            "name.AIFF": "AIFF", "exts.AIFF": "aiff,aif",
            "name.AIFC": "AIFC", "exts.AIFC": "aifc,aiff,aif",
            "name.WAVE": "WAVE", "exts.WAVE": "wav",
            "name.caff": "CAF", "exts.caff": "caf",
            "name.adts": "AAC ADTS", "exts.adts": "aac,adts",
            "name.MPG3": "MPEG Layer 3", "exts.MPG3": "mp3,mpeg,mpa",
            "name.m4af": "Apple MPEG-4 Audio", "exts.m4af": "m4a,m4r",
            "name.mp4f": "MPEG-4 Audio", "exts.mp4f": "mp4",
            "name.flac": "FLAC", "exts.flac": "flac",
            "types.aif": "AIFF,AIFC", "types.audio/x-caf": "caff", "types.public.mp3": "MPG3",
            "formats.WAVE": "lpcm,alaw,ulaw",
            // afconvert -hf: 'WAVE' = WAVE (.wav) UI8 LEI16 LEI24 LEI32 LEF32 LEF64 'ulaw' 'alaw'
            "asbds.WAVE.lpcm": "UI8,I16,I24,I32,F32,F64",
        ]
        for (key, value) in expected { #expect(lines[key] == value, "\(key): \(lines[key] ?? "missing")") }
        let extensions = Set((lines["extensions"] ?? "").split(separator: ",").map(String.init))
        #expect(extensions.isSuperset(of: ["caf", "wav", "aif", "aiff", "aifc", "aac", "mp3", "m4a", "mp4"]), "\(extensions)")
        let utis = Set((lines["utis"] ?? "").split(separator: ",").map(String.init))
        #expect(utis.isSuperset(of: ["com.apple.coreaudio-format", "com.microsoft.waveform-audio", "public.aiff-audio", "public.mp3"]))
        let mime = Set((lines["mimetypes"] ?? "").split(separator: ",").map(String.init))
        #expect(mime.isSuperset(of: ["audio/x-caf", "audio/wav", "audio/aiff", "audio/mpeg", "audio/aac"]))
    }
}
