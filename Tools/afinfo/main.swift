// afinfo: prints what Apple's afinfo prints about audio files, or one JSON object per file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCore
import AudioFileServices

let usage = """
    usage: afinfo [--json] FILE...
      Prints the container, data format, packet counts and packet table of each audio file
      (CAF, AIFF/AIFC, WAVE/RF64/BW64, MPEG-4: M4A/M4B/MP4/3GP, ADTS, MPEG audio, FLAC, Ogg Opus
      and Vorbis, AC-3/E-AC-3), its chapters, info dictionary and album artwork. A file whose
      codec is not decoded here (DTS, AMR, GSM, ADPCM) or that holds no audio is listed all the
      same: its format, duration where the container gives one, and tags.
      --json   one JSON object per file instead of afinfo's text layout (its format's
               "formatName" is the codec's name, as "GSM 6.10")
    """

var json = false
var files: [String] = []
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--json", "-j": json = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") && argument.count > 1 {
            printError("afinfo: unknown option \(argument)\n\(usage)")
            exit(2)
        }
        files.append(argument)
    }
}
if files.isEmpty {
    printError(usage)
    exit(2)
}

var failed = false
for path in files {
    do {
        let file = try AudioFile(path: path)
        print(json ? jsonReport(path, file) : textReport(path, file))
    } catch {
        failed = true
        printError("afinfo: \(path): AudioFileOpen failed \(error.status.fourCharDescription): \(error)")
        if json {
            print(
                "{\"file\": \(quote(path)), \"error\": {\"status\": \(error.status), \"code\": \(quote(error.status.fourCharDescription)), "
                    + "\"message\": \(quote(error.description))}}")
        }
    }
}
exit(failed ? 1 : 0)

func textReport(_ path: String, _ file: AudioFile) -> String {
    let format = file.dataFormat
    var lines = [
        "File:           \(path)",
        "File type ID:   \(file.fileType)",
        "Num Tracks:     \(file.trackCount)",
        "----",
        "Data format:     \(format)",
    ]
    if let layout = file.channelLayout {
        lines.append("Channel layout: \(layout.name)")
    } else {
        lines.append("                no channel layout.")
    }
    lines += [
        "estimated duration: \(fixed(file.estimatedDuration, 6)) sec",
        "audio bytes: \(file.dataByteCount)",
        "audio packets: \(file.packetCount)",
        "bit rate: \(file.bitRate) bits per second",
        "packet size upper bound: \(file.packetSizeUpperBound)",
        "maximum packet size: \(file.maximumPacketSize)",
        "audio data file offset: \(file.dataOffset)",
    ]
    if let table = file.packetTableInfo {
        lines.append(
            "audio \(table.numberValidFrames) valid frames + \(table.primingFrames) priming + "
                + "\(table.remainderFrames) remainder = \(table.totalFrames)")
    }
    if format.isPCM {
        lines.append("source bit depth: \(format.isFloat ? "F" : "I")\(format.bitsPerChannel)")
    } else if format.formatID == .flac || format.formatID == .appleLossless, (1...4).contains(format.formatFlags.rawValue) {
        // The lossless formats' flags name the source depth (kAppleLosslessFormatFlag_16BitSourceData …).
        lines.append("source bit depth: I\([16, 20, 24, 32][Int(format.formatFlags.rawValue) - 1])")
    }
    let chapters = file.chapters
    if !chapters.isEmpty {
        lines.append("chapters: \(chapters.count)")
        for (i, chapter) in chapters.enumerated() {
            let index = i < 10 ? " \(i)" : "\(i)"
            lines.append("[\(index)] \(fixed(chapter.startTime, 3)) sec: \(chapter.title)")
        }
    }
    lines += metadataLines(file)
    // Damage worked around to read the file: never silent.
    for repair in file.repairs {
        lines.append("warning: \(repair)")
    }
    lines.append("----")
    return lines.joined(separator: "\n")
}

func jsonReport(_ path: String, _ file: AudioFile) -> String {
    let f = file.dataFormat
    let table = file.packetTableInfo
    let layout = file.channelLayout.map { layout in
        "{\"tag\": \(layout.tag.rawValue), \"bitmap\": \(layout.bitmap.rawValue), \"channels\": \(layout.numberOfChannels), "
            + "\"name\": \(quote(layout.name))}"
    } ?? "null"
    let formatJSON =
        "{\"sampleRate\": \(f.sampleRate), \"formatID\": \(quote(f.formatID.description)), \"formatName\": \(quote(f.formatID.displayName)), \"formatFlags\": \(f.formatFlags.rawValue), "
        + "\"bytesPerPacket\": \(f.bytesPerPacket), \"framesPerPacket\": \(f.framesPerPacket), \"bytesPerFrame\": \(f.bytesPerFrame), "
        + "\"channelsPerFrame\": \(f.channelsPerFrame), \"bitsPerChannel\": \(f.bitsPerChannel)}"
    let fields: [(String, String)] = [
        ("file", quote(path)),
        ("fileType", quote(file.fileType.description)),
        ("format", formatJSON),
        ("packetCount", "\(file.packetCount)"),
        ("dataByteCount", "\(file.dataByteCount)"),
        ("dataOffset", "\(file.dataOffset)"),
        ("maxPacketSize", "\(file.maximumPacketSize)"),
        ("packetSizeUpperBound", "\(file.packetSizeUpperBound)"),
        ("validFrames", "\(file.validFrames)"),
        ("primingFrames", "\(table?.primingFrames ?? 0)"),
        ("remainderFrames", "\(table?.remainderFrames ?? 0)"),
        ("estimatedDuration", "\(file.estimatedDuration)"),
        ("magicCookieSize", "\(file.magicCookie?.count ?? 0)"),
        ("channelLayout", layout),
        ("trackCount", "\(file.trackCount)"),
        ("chapters", "[" + file.chapters.map { "{\"start\": \($0.startTime), \"title\": \(quote($0.title))}" }.joined(separator: ", ") + "]"),
        ("repairs", "[" + file.repairs.map(repairJSON).joined(separator: ", ") + "]"),
        ("info", "{" + file.info.entries.map { "\(quote($0.key.rawValue)): \(quote($0.value))" }.joined(separator: ", ") + "}"),
        ("artwork", file.albumArtwork.map(pictureJSON) ?? "null"),
    ]
    return "{" + fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
}

/// The info dictionary (when the file has metadata beyond its duration), a line per entry in
/// file order, and the album artwork's type and size.
func metadataLines(_ file: AudioFile) -> [String] {
    var lines: [String] = []
    if !file.metadata.isEmpty {
        lines.append("info dictionary:")
        for entry in file.info.entries { lines.append("    \(entry.key.rawValue): \(entry.value)") }
    }
    if let art = file.albumArtwork {
        let size = art.width > 0 ? ", \(art.width)x\(art.height)" : ""
        lines.append("album artwork: \(art.mimeType), \(art.data.count) bytes\(size)")
    }
    return lines
}

/// The album artwork as a JSON object: picture type, MIME type, description, size in bytes and
/// (where the file says) pixels.
func pictureJSON(_ picture: AudioFilePicture) -> String {
    "{\"type\": \(picture.type.rawValue), \"mimeType\": \(quote(picture.mimeType)), \"description\": \(quote(picture.description)), "
        + "\"bytes\": \(picture.data.count), \"width\": \(picture.width), \"height\": \(picture.height)}"
}

/// One repair as a JSON object: its kind, chunk, offset, sizes and message.
func repairJSON(_ repair: AudioFileRepair) -> String {
    "{\"kind\": \(quote(repair.kind.rawValue)), \"chunk\": \(quote(repair.chunk)), \"offset\": \(repair.offset), "
        + "\"declaredSize\": \(repair.declaredSize), \"availableSize\": \(repair.availableSize), "
        + "\"message\": \(quote(repair.description))}"
}

/// Writes a line to standard error.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// A JSON string literal.
func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let h = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// `value` with exactly `digits` decimals, as `%.*f` prints it.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let n = Int64(scaled)
    let whole = n / Int64(scale)
    var frac = String(n % Int64(scale))
    frac = String(repeating: "0", count: digits - frac.count) + frac
    return (value < 0 ? "-" : "") + "\(whole)." + frac
}
