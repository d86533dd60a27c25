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
        #expect(file.repairs.map(\.kind.rawValue) == entry.repairs, "repairs \(file.repairs): \(entry.what)")
        for repair in file.repairs {
            #expect(repair.offset >= 0 && repair.offset <= file.source.size && !repair.chunk.isEmpty)
            #expect(!repair.description.isEmpty)
        }
        // What opens must also read to the end without error.
        let (data, _) = try file.allPackets(batch: 1000)
        #expect(data.count <= Int(file.dataByteCount))
    }

    /// The damaged files ffmpeg reads as well: every packet is ffmpeg's packet, byte for byte
    /// (its last may be a partial one, which the reader drops).
    @Test(arguments: Fixtures.manifest.filter { $0.reference == "framecrc" })
    func damagedPacketsAreFFmpegs(entry: Fixtures.ManifestEntry) throws {
        let reference = try Fixtures.framecrc(entry.file, in: Fixtures.malformed)
        let file = try AudioFile(path: Fixtures.malformed.appendingPathComponent(entry.file).path)
        let (data, sizes) = try file.allPackets()
        #expect(sizes.count >= reference.count - 1 && sizes.count <= reference.count, "\(sizes.count) packets, ffmpeg \(reference.count)")
        var offset = 0
        for (i, size) in sizes.enumerated() where i < reference.count {
            #expect(size == reference[i].size, "packet \(i)")
            #expect(adler32(data[offset..<(offset + size)], start: 0) == reference[i].adler, "packet \(i)")
            offset += size
        }
    }

    /// Sound files report no repairs.
    @Test func validFixturesNeedNoRepair() throws {
        for name in Fixtures.validNames {
            guard let file = try? AudioFile(path: Fixtures.path(name)) else { continue }
            #expect(file.repairs.isEmpty, "\(name): \(file.repairs)")
        }
    }
}
