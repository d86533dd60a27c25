import Testing
import AudioCore
import AudioFileServices
import ToolSupport

/// afconvert's `-f` names and output extensions, as macOS `afconvert -hf` lists them: each
/// writable type by its code, and the extensions it gives each.
@Suite("File type names")
struct FileTypeNameTests {
    @Test(arguments: [
        ("WAVE", "WAVE"), ("wav", "WAVE"), ("caff", "caff"), ("caf", "caff"), ("AIFF", "AIFF"), ("aif", "AIFF"),
        ("aiff", "AIFF"), ("AIFC", "AIFC"), ("aifc", "AIFC"), ("m4af", "m4af"), ("m4a", "m4af"), ("mp4f", "mp4f"),
        ("mp4", "mp4f"), ("m4bf", "m4bf"), ("m4b", "m4bf"), ("adts", "adts"), ("aac", "adts"), ("flac", "flac"),
        ("OggS", "OggS"), ("ogg", "OggS"), ("opus", "OggS"),
    ])
    func namesAndExtensions(name: String, code: String) {
        #expect(FileTypeName.type(name) == AudioFileType(FourCharCode(stringLiteral: code)), "\(name)")
        #expect(FileTypeName.type(name.uppercased()) == AudioFileType(FourCharCode(stringLiteral: code)), "\(name) in capitals")
    }

    @Test func typesNotWrittenAreNotNamed() {
        for name in ["mp3", "MPG3", "3gp", "txt", ""] { #expect(FileTypeName.type(name) == nil, "\(name)") }
    }

    @Test func aacIsTheDefaultOfMPEG4AndADTSOnly() {
        for code in ["m4af", "mp4f", "m4bf", "adts"] { #expect(FileTypeName.holdsAAC(AudioFileType(FourCharCode(stringLiteral: code))), "\(code)") }
        for code in ["WAVE", "caff", "AIFF", "AIFC", "flac", "OggS"] { #expect(!FileTypeName.holdsAAC(AudioFileType(FourCharCode(stringLiteral: code))), "\(code)") }
    }
}
