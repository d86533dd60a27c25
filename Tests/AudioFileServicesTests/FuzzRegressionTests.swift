import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Inputs the fuzzer (Scripts/fuzz) once crashed on, kept so they stay fixed. Each goes through
/// the same calls as the fuzz harness; the only acceptable outcomes are a typed error or success.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = Fixtures.root.appendingPathComponent("fuzz-regressions")
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    @Test func thereAreRegressionInputs() { #expect(!Self.names.isEmpty) }

    @Test(arguments: names)
    func survives(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let source = MemoryByteSource(bytes)
        for ext in [nil, "wav", "aiff", "caf", "aac"] as [String?] {
            guard let file = try? AudioFile(source: source, fileExtension: ext) else { continue }
            _ = file.dataFormat.description
            _ = file.infoDictionary
            _ = file.bitRate
            _ = file.packetSizeUpperBound
            _ = try? file.readPackets(from: 0, count: 4, maxBytes: 1 << 16)
        }
    }

    /// The first regression: a sample rate of about 1e-125 Hz made the duration overflow when
    /// formatted. Rates below 1 Hz are refused as Apple refuses unusable formats.
    @Test func subHertzRateIsUnsupported() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("caf-tiny-rate-duration-overflow.caf")))
        expectError(.unsupportedDataFormat) { try AudioFile(source: MemoryByteSource(bytes)) }
    }
}
