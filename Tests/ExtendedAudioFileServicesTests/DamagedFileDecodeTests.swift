import Foundation
import Testing
import AudioCore
import AudioFileServices

/// The damaged files of Tests/Fixtures/malformed that open with repairs and that ffmpeg reads
/// too (manifest entries with `"reference": "f32crc"`).
enum DamagedRefs {
    static let directory = Refs.fixtures.appendingPathComponent("malformed")

    static let names: [String] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
        else { return [] }
        return list.filter { $0["reference"] as? String == "f32crc" }.compactMap { $0["file"] as? String }
    }()

    static func crc(_ name: String) -> UInt32? {
        guard let text = try? String(contentsOfFile: directory.appendingPathComponent(name + ".f32crc").path, encoding: .utf8),
              let range = text.range(of: "CRC=0x") else { return nil }
        return UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
    }
}

@Suite("Damaged files against ffmpeg")
struct DamagedFileDecodeTests {
    @Test func thereAreDamagedReferences() {
        #expect(DamagedRefs.names.count >= 40)
    }

    /// What a damaged file still holds decodes to exactly ffmpeg's float samples of the same file.
    @Test(arguments: DamagedRefs.names)
    func readablePartIsFFmpegs(name: String) throws {
        let expected = try #require(DamagedRefs.crc(name), "no ffmpeg decode of \(name)")
        let path = DamagedRefs.directory.appendingPathComponent(name).path
        #expect(try !AudioFile(path: path).repairs.isEmpty)
        let (bytes, frames, reader) = try decodeAll(path)
        #expect(Int64(frames) == reader.fileLengthFrames)
        var a: UInt32 = 1, b: UInt32 = 0
        bytes.withUnsafeBytes { adler32($0, a: &a, b: &b) }
        #expect(b << 16 | a == expected, "Adler-32 of \(frames) frames")
    }
}
