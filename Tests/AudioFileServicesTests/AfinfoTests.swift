import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// Runs the afinfo executable built beside the tests.
private func afinfo(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let binary = Fixtures.packageRoot.appendingPathComponent(".build/debug/afinfo")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: binary.path])
    }
    return try runProcess(binary.path, arguments)
}

@Suite("afinfo")
struct AfinfoTests {
    @Test func textLayoutForCAFWithPacketTable() throws {
        let name = "caf-aac-2ch-48000.caf"
        let facts = try #require(Fixtures.facts(name))
        let (status, out, _) = try afinfo([Fixtures.path(name)])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "File:           \(Fixtures.path(name))")
        #expect(lines.contains("File type ID:   caff"))
        #expect(lines.contains("Num Tracks:     1"))
        #expect(lines.contains("Data format:     2 ch, 48000 Hz, 'aac ' (0x00000000) 0 bits/channel, 0 bytes/packet, 1024 frames/packet, 0 bytes/frame"))
        #expect(lines.contains("Channel layout: Stereo (L R)"))
        let packets = facts["packets"] as! Int, valid = facts["validFrames"] as! Int, remainder = facts["remainderFrames"] as! Int
        #expect(lines.contains("audio packets: \(packets)"))
        #expect(lines.contains("audio bytes: \(facts["dataByteCount"] as! Int)"))
        #expect(lines.contains("maximum packet size: \(facts["maxPacketSize"] as! Int)"))
        #expect(lines.contains("audio \(valid) valid frames + 2112 priming + \(remainder) remainder = \(packets * 1024)"))
        #expect(lines.contains(String(format: "estimated duration: %.6f sec", Double(valid) / 48000)))
        #expect(lines.last == "----")
    }

    /// An MP3 as Apple's afinfo prints it: 'MPG3', '.mp3' with 1152 frames per packet, the
    /// packet table line from the LAME tag.
    @Test func textLayoutForMP3() throws {
        let path = Fixtures.root.appendingPathComponent("mp3/cbr-128k-2ch-44100.mp3").path
        let (status, out, _) = try afinfo([path])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("File type ID:   MPG3"))
        #expect(lines.contains("Num Tracks:     1"))
        #expect(lines.contains("Data format:     2 ch, 44100 Hz, '.mp3' (0x00000000) 0 bits/channel, 0 bytes/packet, 1152 frames/packet, 0 bytes/frame"))
        #expect(lines.contains("audio packets: 21"))
        #expect(lines.contains("audio data file offset: 417"))
        #expect(lines.contains("audio 22050 valid frames + 1105 priming + 1037 remainder = 24192"))
        #expect(lines.contains("estimated duration: 0.500000 sec"))
    }

    /// An M4A as Apple's afinfo prints it: 'm4af', the track count, the AAC format with its
    /// object type, the packet table line from iTunSMPB; and the chapters section.
    @Test func textLayoutForM4A() throws {
        let name = "built-itunsmpb-2ch-44100.m4a"
        let path = Fixtures.root.appendingPathComponent("mp4/\(name)").path
        let facts = try #require(Fixtures.json(Fixtures.root.appendingPathComponent("mp4/\(name).facts.json")))
        let (status, out, _) = try afinfo([path])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("File type ID:   m4af"))
        #expect(lines.contains("Num Tracks:     1"))
        #expect(lines.contains("Data format:     2 ch, 44100 Hz, 'aac ' (0x00000002) 0 bits/channel, 0 bytes/packet, 1024 frames/packet, 0 bytes/frame"))
        #expect(lines.contains("Channel layout: Stereo (L R)"))
        let packets = facts["packets"] as! Int, valid = facts["validFrames"] as! Int, remainder = facts["remainderFrames"] as! Int
        #expect(lines.contains("audio packets: \(packets)"))
        #expect(lines.contains("audio bytes: \(facts["dataByteCount"] as! Int)"))
        #expect(lines.contains("audio data file offset: \(facts["firstPacketOffset"] as! Int)"))
        #expect(lines.contains("audio \(valid) valid frames + 2112 priming + \(remainder) remainder = \(packets * 1024)"))
        #expect(lines.contains(String(format: "estimated duration: %.6f sec", Double(valid) / 44100)))
        #expect(!lines.contains { $0.hasPrefix("chapters") })

        let chaptered = Fixtures.root.appendingPathComponent("mp4/built-chapters-1ch-48000.m4b").path
        let (status2, out2, _) = try afinfo([chaptered])
        #expect(status2 == 0)
        let lines2 = out2.split(separator: "\n").map(String.init)
        #expect(lines2.contains("chapters: 3"))
        #expect(lines2.contains("[ 0] 0.000 sec: Opening"))
        #expect(lines2.contains("[ 1] 0.050 sec: Middle part"))
        #expect(lines2.contains("[ 2] 0.150 sec: Ending"))
        #expect(lines2.last == "----")

        let (status3, out3, _) = try afinfo([Fixtures.root.appendingPathComponent("mp4/aac-2ch-44100-frag.m4a").path])
        #expect(status3 == 0)
        #expect(out3.contains("audio packets: 23\n"))
        let (status4, _, err4) = try afinfo([Fixtures.malformed.appendingPathComponent("mp4__brand-m4p.m4a").path])
        #expect(status4 == 1)
        #expect(err4.contains("'fmt?'") && err4.contains("M4P"))
    }

    /// The info dictionary a line per entry (the duration last), the album artwork's type and
    /// size; in JSON an object of the entries and one for the artwork.
    @Test func metadataSection() throws {
        let path = Fixtures.root.appendingPathComponent("tags/id3v23-cover.mp3").path
        let (status, out, _) = try afinfo([path])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("info dictionary:"))
        #expect(lines.contains("    title: Fixture title"))
        #expect(lines.contains("    track number: 3/12"))
        #expect(lines.contains { $0.hasPrefix("    approximate duration in seconds: ") })
        #expect(lines.contains("album artwork: image/png, 101 bytes"))
        #expect(lines.last == "----")
        let (_, json, _) = try afinfo(["--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let info = try #require(object["info"] as? [String: String])
        #expect(info["artist"] == "Fixture artist" && info["genre"] == "Jazz")
        let artwork = try #require(object["artwork"] as? [String: Any])
        #expect(artwork["mimeType"] as? String == "image/png" && artwork["bytes"] as? Int == 101 && artwork["type"] as? Int == 3)
        let (_, plain, _) = try afinfo([Fixtures.path("wav-pcm_s16le-2ch-44100.wav")])
        #expect(!plain.contains("info dictionary:") && !plain.contains("album artwork"))
    }

    @Test func textLayoutForPCM() throws {
        let name = "wav-pcm_s16le-2ch-44100.wav"
        let probe = try #require(Fixtures.ffprobe(name))
        let (status, out, _) = try afinfo([Fixtures.path(name)])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("File type ID:   WAVE"))
        #expect(lines.contains("Data format:     2 ch, 44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer"))
        #expect(lines.contains("                no channel layout."))
        #expect(lines.contains("audio packets: \(probe.durationTS!)"))
        #expect(lines.contains("bit rate: 1411200 bits per second"))
        #expect(lines.contains("source bit depth: I16"))
        #expect(!lines.contains { $0.contains("valid frames") })
    }

    @Test(arguments: ["caf-aac-1ch-44100.caf", "adts-aac-6ch-48000.aac", "aifc-pcm_f64be-1ch-22050.aifc", "wav-rf64-pcm_s16le-1ch-8000.rf64"])
    func jsonObjectHasTheDocumentedFields(name: String) throws {
        let probe = try #require(Fixtures.ffprobe(name))
        let (status, out, _) = try afinfo(["--json", Fixtures.path(name)])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let keys: Set<String> = [
            "file", "fileType", "format", "packetCount", "dataByteCount", "dataOffset", "maxPacketSize",
            "packetSizeUpperBound", "validFrames", "primingFrames", "remainderFrames", "estimatedDuration",
            "magicCookieSize", "channelLayout", "trackCount", "chapters", "repairs", "info", "artwork",
        ]
        #expect(Set(object.keys) == keys)
        let format = try #require(object["format"] as? [String: Any])
        #expect(Set(format.keys) == [
            "sampleRate", "formatID", "formatName", "formatFlags", "bytesPerPacket", "framesPerPacket", "bytesPerFrame", "channelsPerFrame",
            "bitsPerChannel",
        ])
        // The codec as people know it, beside its code.
        #expect(format["formatName"] as? String == (probe.codec == "aac" ? "AAC" : "linear PCM"))
        #expect(format["sampleRate"] as? Double == probe.sampleRate)
        #expect(format["channelsPerFrame"] as? Int == probe.channels)
        let fileTypes = ["caf": "caff", "aac": "adts", "aiff": "AIFC", "wav": "RF64"]
        #expect(object["fileType"] as? String == fileTypes[probe.formatName])
        if probe.codec == "aac" {
            #expect(format["formatID"] as? String == "aac ")
            #expect((object["packetCount"] as? NSNumber)?.int64Value == probe.readPackets)
            #expect((object["magicCookieSize"] as? Int ?? 0) > 0)
        } else {
            #expect(format["formatID"] as? String == "lpcm")
            #expect((object["validFrames"] as? NSNumber)?.int64Value == probe.durationTS)
            #expect(object["primingFrames"] as? Int == 0 && object["remainderFrames"] as? Int == 0)
        }
        if let facts = Fixtures.facts(name), let priming = facts["primingFrames"] as? Int {
            #expect(object["primingFrames"] as? Int == priming)
            #expect(object["remainderFrames"] as? Int == facts["remainderFrames"] as? Int)
            #expect(object["validFrames"] as? Int == facts["validFrames"] as? Int)
        }
    }

    /// Every malformed fixture that must not open makes afinfo exit non-zero with the error's
    /// code on standard error and an error object under --json.
    @Test func malformedFilesExitNonZeroNamingTheProblem() throws {
        let failing = Fixtures.manifest.filter { !$0.expect.contains("ok") }
        #expect(!failing.isEmpty)
        for entry in failing {
            let path = Fixtures.malformed.appendingPathComponent(entry.file).path
            let (status, _, err) = try afinfo([path])
            #expect(status == 1, "\(entry.file)")
            #expect(entry.expect.contains { err.contains("'\($0)'") }, "\(entry.file): \(err)")
        }
        let entry = try #require(failing.first)
        let (status, out, _) = try afinfo(["--json", Fixtures.malformed.appendingPathComponent(entry.file).path])
        #expect(status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["status"] != nil)
    }

    /// A damaged file that opens prints one `warning:` line per repair, and lists them under
    /// `repairs` in --json; a sound file has none.
    @Test func repairsAreWarnings() throws {
        let repaired = Fixtures.manifest.filter { !$0.repairs.isEmpty }
        #expect(repaired.count > 40)
        for entry in repaired {
            let path = Fixtures.malformed.appendingPathComponent(entry.file).path
            let (status, out, _) = try afinfo([path])
            #expect(status == 0, "\(entry.file)")
            let warnings = out.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
            #expect(warnings.count == entry.repairs.count, "\(entry.file): \(out)")
            let (jsonStatus, json, _) = try afinfo(["--json", path])
            #expect(jsonStatus == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let repairs = try #require(object["repairs"] as? [[String: Any]])
            #expect(repairs.compactMap { $0["kind"] as? String } == entry.repairs, "\(entry.file)")
            #expect(repairs.allSatisfy { $0["chunk"] is String && $0["offset"] is NSNumber && $0["message"] is String })
        }
        let (_, out, _) = try afinfo(["--json", Fixtures.path("wav-pcm_s16le-2ch-44100.wav")])
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        #expect((object?["repairs"] as? [Any])?.isEmpty == true)
        #expect(try !afinfo([Fixtures.path("wav-pcm_s16le-2ch-44100.wav")]).out.contains("warning:"))
    }

    /// A file whose codec is not decoded here is listed with its format, duration and tags
    /// (Tests/Fixtures/metadata-only, against ffprobe's reading).
    @Test(arguments: [("gsm-sox.wav", "GSM 6.10"), ("dts.mov", "DTS"), ("adpcm-ms.wav", "Microsoft ADPCM")])
    func undecodedFileIsListed(name: String, formatName: String) throws {
        let path = Fixtures.metadataOnly.appendingPathComponent(name).path
        let probe = try #require(Fixtures.json(Fixtures.metadataOnly.appendingPathComponent(name + ".ffprobe.json")))
        let (status, out, _) = try afinfo(["--json", path])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let format = try #require(object["format"] as? [String: Any])
        #expect(format["formatName"] as? String == formatName)
        let tags = (probe["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        #expect((object["info"] as? [String: String])?["title"] == tags["title"])
        let duration = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? -1
        #expect(abs((object["estimatedDuration"] as? Double ?? 0) - duration) < 0.05)
        let (textStatus, text, _) = try afinfo([path])
        #expect(textStatus == 0 && text.contains("Data format:"))
    }

    @Test func usageErrors() throws {
        #expect(try afinfo([]).status == 2)
        #expect(try afinfo(["--bogus", "x"]).status == 2)
    }
}

@Suite("afinfo FLAC")
struct AfinfoFLACTests {
    /// A FLAC file's report: the type, the depth flags as the source bit depth, the frame walk's
    /// packets and STREAMINFO's frames.
    @Test func flacFile() throws {
        let path = Fixtures.root.appendingPathComponent("flac/flac-2ch-96000-s24.flac").path
        let (status, out, _) = try afinfo([path])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("File type ID:   flac"))
        #expect(lines.contains("Data format:     2 ch, 96000 Hz, 'flac' (0x00000003) 0 bits/channel, 0 bytes/packet, 4096 frames/packet, 0 bytes/frame"))
        #expect(lines.contains("source bit depth: I24"))
        #expect(lines.contains("audio packets: 3"))
        #expect(lines.contains("audio 9600 valid frames + 0 priming + 0 remainder = 9600"))
    }
}
