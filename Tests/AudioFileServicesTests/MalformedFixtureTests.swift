import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

extension Fixtures.ManifestEntry: CustomTestStringConvertible {
    var testDescription: String { file }
}

@Suite("Malformed fixtures")
struct MalformedFixtureTests {
    @Test func manifestIsPresent() {
        #expect(Fixtures.manifest.count > 100)
    }

    /// Every damaged file either opens (where the damage spares the audio) or throws the typed
    /// error the manifest names; none crashes or hangs.
    @Test(arguments: Fixtures.manifest)
    func opensOrThrowsTheRightError(entry: Fixtures.ManifestEntry) throws {
        let path = Fixtures.malformed.appendingPathComponent(entry.file).path
        let file: AudioFile
        do {
            file = try AudioFile(path: path)
        } catch {
            let code = FourCharCode(rawValue: UInt32(bitPattern: error.status)).description
            #expect(entry.expect.contains(code), "threw \(error), expected \(entry.expect): \(entry.what)")
            #expect(!error.reason.isEmpty)
            if code == "chk?" { #expect(error.chunk != nil && error.offset != nil, "a chunk error names chunk and offset") }
            return
        }
        #expect(entry.expect.contains("ok"), "opened, but expected \(entry.expect): \(entry.what)")
        if let packets = entry.packets { #expect(file.packetCount == Int64(packets)) }
        // What opens must also read to the end without error.
        let (data, _) = try file.allPackets(batch: 1000)
        #expect(data.count <= Int(file.dataByteCount))
    }
}
