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
        Fixtures.malformedManifestEntries().filter { $0["reference"] as? String == "f32crc" }.compactMap { $0["file"] as? String }
    }()
}

@Suite("Damaged files against ffmpeg")
struct DamagedFileDecodeTests {
    @Test func thereAreDamagedReferences() {
        #expect(DamagedRefs.names.count >= 40)
    }

    /// What a damaged file still holds decodes to exactly ffmpeg's float samples of the same file.
    @Test(arguments: DamagedRefs.names)
    func readablePartIsFFmpegs(name: String) throws {
        let expected = try Fixtures.ffmpegCRC(name, in: DamagedRefs.directory)
        let path = DamagedRefs.directory.appendingPathComponent(name).path
        #expect(try !AudioFile(path: path).repairs.isEmpty)
        let (bytes, frames, reader) = try decodeAll(path)
        #expect(Int64(frames) == reader.fileLengthFrames)
        #expect(adler32(bytes[...]) == expected, "Adler-32 of \(frames) frames")
    }
}
