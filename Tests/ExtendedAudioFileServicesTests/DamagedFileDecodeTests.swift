import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// The damaged files of Tests/Fixtures/malformed that open with repairs and that ffmpeg reads
/// too (manifest entries with `"reference": "f32crc"`).
enum DamagedRefs {
    static let directory = Fixtures.malformed

    static let names: [String] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
        else { return [] }
        return list.filter { $0["reference"] as? String == "f32crc" }.compactMap { $0["file"] as? String }
    }()

    /// ffmpeg's Adler-32 of its float decode; throws when the reference is missing.
    static func crc(_ name: String) throws -> UInt32 {
        let text = String(decoding: try Fixtures.data(directory.appendingPathComponent(name + ".f32crc")), as: UTF8.self)
        guard let range = text.range(of: "CRC=0x"),
              let crc = UInt32(text[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) else {
            throw MissingFixture("malformed/\(name).f32crc (no CRC=0x… line)")
        }
        return crc
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
        let expected = try DamagedRefs.crc(name)
        let path = DamagedRefs.directory.appendingPathComponent(name).path
        #expect(try !AudioFile(path: path).repairs.isEmpty)
        let (bytes, frames, reader) = try decodeAll(path)
        #expect(Int64(frames) == reader.fileLengthFrames)
        #expect(adler32(bytes[...]) == expected, "Adler-32 of \(frames) frames")
    }
}
