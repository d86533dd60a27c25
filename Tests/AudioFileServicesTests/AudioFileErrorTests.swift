import Testing
import AudioCore
import AudioFileServices

/// Audio File Services' result codes: Apple's values, how they print, and that a code is any
/// `OSStatus` (as every ``AudioResultCode`` is).
@Suite("Audio File Services result codes")
struct AudioFileErrorTests {
    /// The decimal values Apple's documentation lists for the Audio File Services result codes.
    static let appleValues: [(AudioFileError.Code, Int32)] = [
        (AudioFileError.Code.unspecified, 2_003_334_207),
        (.unsupportedFileType, 1_954_115_647),
        (.unsupportedDataFormat, 1_718_449_215),
        (.unsupportedProperty, 1_886_681_407),
        (.badPropertySize, 561_211_770),
        (.permissions, 1_886_547_263),
        (.notOptimized, 1_869_640_813),
        (.invalidChunk, 1_667_787_583),
        (.doesNotAllow64BitDataSize, 1_868_981_823),
        (.invalidPacketOffset, 1_885_563_711),
        (.invalidPacketDependency, 1_684_369_471),
        (.invalidFile, 1_685_348_671),
        (.operationNotSupported, 1_869_627_199),
        (.notOpen, -38),
        (.endOfFile, -39),
        (.position, -40),
        (.fileNotFound, -43),
        (.duplicateFileName, -48),  // dupFNErr (MacErrors.h)
        (.parameter, -50),  // kAudio_ParamError (CoreAudioBaseTypes.h)
    ]

    @Test(arguments: appleValues)
    func appleResultCodes(code: AudioFileError.Code, value: Int32) {
        #expect(code.rawValue == value)
    }

    @Test func statusPrintsAsFourCharCode() {
        #expect(AudioFileError.Code.invalidFile.rawValue.fourCharDescription == "'dta?'")
        #expect(AudioFileError.Code.endOfFile.rawValue.fourCharDescription == "-39")
        let error = AudioFileError(.invalidChunk, "too short", chunk: "fmt ", offset: 12)
        #expect(error.description.contains("'fmt '"))
        #expect(error.description.contains("offset 12"))
        #expect(error.description.contains("'chk?'"))
    }

    /// A code Apple has not defined (or defines after this library) is still a code: it keeps
    /// its value, prints it, matches no named code, and a switch reaches `default:`.
    @Test func unnamedCodesAreCodes() {
        let future = AudioFileError.Code(rawValue: 0x6E65_7721)  // 'new!'
        #expect(future.rawValue == 0x6E65_7721)
        #expect(future.description == "'new!'")
        #expect(future != .invalidFile)
        let error = AudioFileError(future, "from a later release")
        #expect(error.status == 0x6E65_7721)
        func name(_ code: AudioFileError.Code) -> String {
            switch code {
            case .invalidFile: "invalid file"
            case .endOfFile: "end of file"
            default: "other"
            }
        }
        #expect(name(future) == "other")
        #expect(name(AudioFileError.Code(rawValue: -39)) == "end of file")
        #expect(AudioFileError.Code.endOfFile.description == "-39")
    }

    /// A status from the C API matches a named code in a switch.
    @Test func statusMatchesNamedCodes() {
        let status: OSStatus = 0x6474_613F
        var matched = false
        if case AudioFileError.Code.invalidFile = status { matched = true }
        #expect(matched)
        #expect(!(AudioFileError.Code.invalidChunk ~= status))
    }
}
