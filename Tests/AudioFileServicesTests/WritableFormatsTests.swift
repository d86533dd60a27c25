import Foundation
import Testing
import AudioCore
import AudioFileServices

/// What each file type's writer is said to take (AudioFileWriter's documentation: CAF any
/// format; WAVE linear PCM, A-law and µ-law; AIFF linear PCM (other formats asked of it make
/// AIFF-C, so they are AIFF-C's); AIFF-C A-law, µ-law and IMA4 too; MPEG-4 AAC, ALAC, FLAC and Opus; ADTS AAC; FLAC FLAC;
/// Ogg Opus), asked of the writer, and each
/// answer checked by writing a file.
@Suite("The formats each file type's writer takes")
struct WritableFormatsTests {
    @Test(arguments: [
        (AudioFileType.caf, "lpcm,alaw,ulaw,ima4,aac ,alac,flac,opus"),
        (.wave, "lpcm,alaw,ulaw"),
        (.aiff, "lpcm"),
        (.aifc, "lpcm,alaw,ulaw,ima4"),
        (.m4a, "aac ,alac,flac,opus"),
        (.m4b, "aac ,alac,flac,opus"),
        (.mpeg4, "aac ,alac,flac,opus"),
        (.adts, "aac "),
        (.flac, "flac"),
        (.ogg, "opus"),
        (.mp3, ""),
        (.threeGPP, ""),
        (.rf64, ""),
    ])
    func writableFormatIDs(type: AudioFileType, expected: String) {
        #expect(type.writableFormatIDs.map { "\(FourCharCode(rawValue: $0.rawValue))" }.joined(separator: ",") == expected)
    }

    /// Every format a type lists is really written: a file is made with it.
    @Test(arguments: [AudioFileType.caf, .wave, .aiff, .aifc, .m4a, .adts, .flac, .ogg])
    func everyListedFormatIsWritten(type: AudioFileType) throws {
        let formats: [AudioFormatID: AudioStreamBasicDescription] = [
            .linearPCM: .pcm(sampleRate: 44100, channels: 2, bigEndian: type == .aiff || type == .aifc),
            .aLaw: .alaw(), .uLaw: .ulaw(), .appleIMA4: .ima4(sampleRate: 44100, channels: 2),
            .mpeg4AAC: .aac(sampleRate: 44100, channels: 2), .appleLossless: .alac(sampleRate: 44100, channels: 2),
            .flac: .flac(sampleRate: 44100, channels: 2), .opus: .opus(channels: 2),
        ]
        for id in type.writableFormatIDs {
            let format = try #require(formats[id])
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("aq-writable-\(getpid())-\(id.rawValue)").path
            defer { unlink(path) }
            #expect(throws: Never.self, "\(type) lists '\(FourCharCode(rawValue: id.rawValue))'") {
                let writer = try AudioFileWriter(path: path, type: type, format: format, flags: .eraseFile)
                try writer.close()
            }
        }
    }
}
