import Foundation
import ProcessSupport
import Testing

/// FLAC written through the C API (C/flac_writer.c): ExtAudioFile to .flac, CAF and M4A,
/// AudioFileWritePackets with a converter's packets, and the codes of what cannot be written.
/// `flac -t` checks each .flac file's MD5; flac and ffmpeg decode to the client's samples.
@Suite("FLAC writing in C")
struct FLACWritingCTests {
    static let program = Result { try CPrograms.build("flac_writer", sources: ["Tests/AudioToolboxTests/C/flac_writer.c"]) }

    static func run(_ arguments: [String]) throws -> String {
        let r = try GuideTests.run(try program.get(), arguments)
        try #require(r.status == 0, "flac_writer \(arguments.joined(separator: " ")): \(r.err)\(r.out)")
        return r.out
    }

    static func bytes(_ path: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }

    /// What ffmpeg decodes `path` to, raw little-endian `format`.
    static func ffmpeg(_ path: String, _ format: String) throws -> Data {
        let out = path + ".ff.raw"
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", format, out])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        return bytes(out)
    }

    /// 24-bit reference samples as ffmpeg gives them in 32 bits.
    static func widen24(_ data: Data) -> Data {
        var out = Data(capacity: data.count / 3 * 4)
        var i = data.startIndex
        while i + 2 < data.endIndex {
            out.append(contentsOf: [0, data[i], data[i + 1], data[i + 2]])
            i += 3
        }
        return out
    }

    @Test("ExtAudioFileCreateWithURL writes FLAC losslessly to .flac, CAF and M4A", arguments: ["flac", "caff", "m4af"], [16, 24])
    func extAudioFile(_ type: String, _ bits: Int) throws {
        let ext = type == "flac" ? "flac" : type == "caff" ? "caf" : "m4a"
        let path = GuideTests.scratchPath("c-\(bits).\(ext)")
        let out = try Self.run(["ext", path, type, "\(bits)", "50001"])
        #expect(out.contains("format flags \(bits == 24 ? 3 : 1) frames/packet 4096"), "\(out)")
        #expect(out.contains("frames 50001"))
        let reference = Self.bytes(path + ".raw")
        if type == "flac" {
            let t = try runProcess("/usr/bin/flac", ["-t", "-w", "-s", path])
            #expect(t.status == 0, "flac -t: \(t.err)")
            let raw = path + ".flac.raw"
            let d = try runProcess("/usr/bin/flac", ["-s", "-d", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw, path])
            #expect(d.status == 0, "flac -d: \(d.err)")
            #expect(Self.bytes(raw) == reference, "flac -d gives other samples")
        }
        let decoded = try Self.ffmpeg(path, bits == 16 ? "s16le" : "s32le")
        #expect(decoded.count == (bits == 16 ? reference.count : reference.count / 3 * 4))
        #expect(decoded == (bits == 16 ? reference : Self.widen24(reference)), "ffmpeg decodes other samples")
    }

    @Test("AudioFileWritePackets writes a converter's FLAC packets to a .flac file that flac verifies")
    func writePackets() throws {
        let path = GuideTests.scratchPath("c-packets.flac")
        let out = try Self.run(["packets", path, "30000"])
        #expect(out.contains("packets 8 frames 30000"), "\(out)")
        let t = try runProcess("/usr/bin/flac", ["-t", "-w", "-s", path])
        #expect(t.status == 0, "flac -t: \(t.err)")
        #expect(try Self.ffmpeg(path, "s16le") == Self.bytes(path + ".raw"))
    }

    @Test("What cannot be written gets Apple's codes")
    func misuse() throws {
        let dir = GuideTests.scratchPath("flac-misuse")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = try Self.run(["misuse", dir])
        let fmt = 0x666D_743F  // 'fmt?': the converter's and kAudioFileUnsupportedDataFormatError
        #expect(out.contains("ext 9 channels \(fmt)\n"), "\(out)")
        #expect(out.contains("ext 700 kHz \(fmt)\n"), "\(out)")
        #expect(out.contains("file pcm \(fmt)\n"), "\(out)")
        #expect(out.contains("ext wave \(fmt)\n"), "\(out)")
        #expect(out.contains("converter 0 channels \(fmt)\n"), "\(out)")
        #expect(out.contains("cookie junk -50\n"), "\(out)")
        #expect(out.contains("packets without descriptions 1885563711\n"), "\(out)")  // 'pck?'
    }
}
