import Foundation

/// What other programs read of a file's tags: ffprobe's format tags and ffmpeg's attached
/// picture, and mutagen's tags and pictures, under common names (`title`, `artist`, `album`,
/// `date`, `genre`, `comment`, `composer`, `copyright`, `track` as `n/total`, `lyricist`,
/// `encoder`) so that containers that spell them differently compare.
public enum TagReaders {
    /// The common name of a tag name as ffprobe or a container spells it (case ignored).
    public static func commonName(_ name: String) -> String {
        let lower = name.lowercased()
        let synonyms: [String: String] = [
            "year": "date", "tdrc": "date", "comments": "comment", "description": "comment", "track number": "track",
            "tracknumber": "track", "lyrics": "lyricist", "text": "lyricist", "encoding application": "encoder", "recorded date": "date",
        ]
        return synonyms[lower] ?? lower
    }

    /// Tags under their common names, a `tracktotal` (or `totaltracks`) joined to `track` as
    /// `n/total`; names that describe the container rather than the recording (MPEG-4 brands,
    /// `iTunSMPB`) are left out.
    public static func common(_ tags: [String: String]) -> [String: String] {
        var out: [String: String] = [:]
        var total: String?
        for (name, value) in tags {
            let common = commonName(name)
            switch common {
            case "major_brand", "minor_version", "compatible_brands", "itunsmpb": continue
            case "tracktotal", "totaltracks": total = value
            default: if out[common] == nil { out[common] = value }
            }
        }
        if let total, let track = out["track"], !track.contains("/") { out["track"] = track + "/" + total }
        return out
    }

    /// ffprobe's format tags (`-show_format`), else its audio stream's (Ogg), under common names;
    /// throws when ffprobe fails.
    public static func ffprobeTags(_ path: String) throws -> [String: String] {
        let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", path])
        guard result.status == 0 else { throw ToolFailure("ffprobe \(path): \(result.err)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        // Ogg keeps the comments with the stream: ffprobe shows them as the audio stream's tags.
        let streams = json?["streams"] as? [[String: Any]] ?? []
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let tags = (json?["format"] as? [String: Any])?["tags"] as? [String: String] ?? audio?["tags"] as? [String: String] ?? [:]
        return common(tags)
    }

    /// The bytes of the first attached picture ffmpeg finds (`-map 0:v:0 -c copy -f data`), nil
    /// when it finds none.
    public static func ffmpegPicture(_ path: String) throws -> [UInt8]? {
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=index", "-of", "csv=p=0", path])
        guard probe.status == 0 else { throw ToolFailure("ffprobe \(path): \(probe.err)") }
        guard !probe.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("picture-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "data", out])
        guard result.status == 0 else { throw ToolFailure("ffmpeg \(path): \(result.err)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// The system's Python, where Debian's python3-mutagen installs.
    static let python = "/usr/bin/python3"

    /// True when python3 can import mutagen (Debian's python3-mutagen).
    public static var hasMutagen: Bool {
        (try? runProcess(python, ["-c", "import mutagen"]).status) == 0
    }

    /// mutagen's tags under common names and its pictures' bytes (ID3 in WAVE and AIFF, ADTS's
    /// leading ID3v2 tag through mutagen's ID3 reader,
    /// MPEG-4 items, FLAC Vorbis comments and PICTURE blocks); throws when mutagen cannot read
    /// the file.
    /// With `commonNames` false, the names are the script's: the common name of each ID3 frame or
    /// MPEG-4 item it knows, a `TXXX` frame's description, a Vorbis field's name in lower case.
    public static func mutagenTags(_ path: String, commonNames: Bool = true) throws -> (tags: [String: String], pictures: [[UInt8]]) {
        let script = #"""
            import json, sys, mutagen
            path = sys.argv[1]
            if path.endswith(".aac"):
                # mutagen's ADTS class has no tags: its ID3 reader reads the leading tag.
                from mutagen.id3 import ID3
                f = None
                tags_object = ID3(path)
            else:
                f = mutagen.File(path)
                tags_object = f.tags if f is not None else None
            if tags_object is None:
                sys.exit("mutagen read no tags")
            tags, pictures = {}, []
            id3 = {"TIT2": "title", "TPE1": "artist", "TALB": "album", "TDRC": "date", "TCON": "genre", "TCOM": "composer",
                   "TCOP": "copyright", "TRCK": "track", "TEXT": "lyricist", "TSSE": "encoder"}
            mp4 = {"\xa9nam": "title", "\xa9ART": "artist", "\xa9alb": "album", "\xa9day": "date", "\xa9gen": "genre",
                   "\xa9cmt": "comment", "\xa9wrt": "composer", "cprt": "copyright", "\xa9lyr": "lyricist", "\xa9too": "encoder"}
            kind = type(tags_object).__name__
            if hasattr(tags_object, "getall"):
                for frame in tags_object.values():
                    fid = frame.FrameID
                    if fid == "APIC":
                        pictures.append(frame.data.hex())
                    elif fid == "COMM":
                        tags["comment"] = str(frame.text[0])
                    elif fid == "TXXX":
                        tags[frame.desc] = str(frame.text[0])
                    elif fid in id3:
                        tags[id3[fid]] = str(frame.text[0])
            elif kind == "MP4Tags":
                for key, values in tags_object.items():
                    if key == "covr":
                        pictures += [bytes(v).hex() for v in values]
                    elif key == "trkn":
                        n, total = values[0]
                        tags["track"] = "%d/%d" % (n, total) if total else str(n)
                    elif key in mp4:
                        tags[mp4[key]] = str(values[0])
                    elif key.startswith("----:com.apple.iTunes:"):
                        tags[key[22:]] = bytes(values[0]).decode("utf-8")
            else:
                for key, value in tags_object:
                    if key.lower() not in tags:
                        tags[key.lower()] = value
                pictures += [p.data.hex() for p in getattr(f, "pictures", [])]
            print(json.dumps({"tags": tags, "pictures": pictures}))
            """#
        let result = try runProcess(python, ["-c", script, path])
        guard result.status == 0 else { throw ToolFailure("mutagen \(path): \(result.err)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let tags = json?["tags"] as? [String: String] ?? [:]
        let pictures = (json?["pictures"] as? [String] ?? []).map { hex in
            var bytes: [UInt8] = []
            var chars = hex.makeIterator()
            while let a = chars.next(), let b = chars.next() { bytes.append(UInt8(String([a, b]), radix: 16) ?? 0) }
            return bytes
        }
        return (commonNames ? common(tags) : tags, pictures)
    }
}

/// A reference tool that failed.
public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
