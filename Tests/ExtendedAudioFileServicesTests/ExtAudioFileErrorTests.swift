import Testing
import AudioCore
import AudioFileServices
import AudioCodecs
import ExtendedAudioFileServices

/// ExtAudioFile's error: its own codes, and the file's or codec's error kept whole.
@Suite("ExtAudioFile errors")
struct ExtAudioFileErrorTests {
    /// A file's error keeps its code (the status Apple's function returns), its words and where
    /// it arose.
    @Test func aFileErrorIsKept() {
        let inner = AudioFileError(.invalidChunk, "too short", chunk: "fmt ", offset: 12)
        let error = ExtAudioFileError.file(inner)
        #expect(error.fileError == inner && error.codecError == nil)
        #expect(error.status == 0x6368_6B3F)  // 'chk?'
        #expect(error.reason == "too short")
        #expect(error.description == inner.description)
        #expect(AudioFileError.Code.invalidChunk ~= error.status)
    }

    @Test func aCodecErrorIsKept() {
        let inner = AudioCodecError(.badData, "bad packet")
        let error = ExtAudioFileError.codec(inner)
        #expect(error.codecError == inner && error.fileError == nil)
        #expect(error.status == 0x6261_6461)  // 'bada'
        #expect(error.description == "bad packet ('bada')")
    }

    /// A code no release names keeps its value, matches no named code, and a switch reaches
    /// `default:`; a named one matches its error in a `switch`.
    @Test func unnamedCodeRoundTrips() {
        let future = ExtAudioFileError.Code(rawValue: -66599)
        #expect(future.rawValue == -66599)
        #expect(ExtAudioFileError.Code(rawValue: future.rawValue) == future)
        let error = ExtAudioFileError(future, "from a later release")
        #expect(error.status == -66599)
        #expect(error.description == "from a later release (-66599)")
        func name(_ error: ExtAudioFileError) -> String {
            switch error {
            case ExtAudioFileError.Code.invalidSeek: "seek"
            case ExtAudioFileError.Code.nonPCMClientFormat: "not PCM"
            default: "other"
            }
        }
        #expect(name(error) == "other")
        #expect(name(ExtAudioFileError(.invalidSeek, "past the end")) == "seek")
    }
}
