import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import ExtendedAudioFileServices

/// Files that open for their metadata but whose codec the package does not decode
/// (Tests/Fixtures/metadata-only): decoding fails with Apple's kAudioFileUnsupportedDataFormatError
/// and a message naming the format as people know it.
@Suite("Undecoded formats")
struct UndecodedFormatTests {
    @Test(arguments: [
        ("gsm-sox.wav", "GSM 6.10"), ("gsm-ffmpeg.wav", "GSM 6.10"), ("adpcm-ms.wav", "Microsoft ADPCM"),
        ("dts.mov", "DTS"), ("gsm.mov", "GSM 6.10"), ("samr.3gp", "AMR"),
    ])
    func decodingNamesTheFormat(name: String, format: String) throws {
        let path = Fixtures.metadataOnly.appendingPathComponent(name).path
        let file = try AudioFile(path: path)  // opens
        #expect(file.packetCount > 0)
        #expect {
            _ = try ExtAudioFile(file: file)
        } throws: { error in
            guard let error = error as? ExtAudioFileError else { return false }
            return error.status == 0x666D_743F  // 'fmt?'
                && error.description.contains("cannot decode \(format)")
                && !error.description.contains("\\x")
        }
    }
}
