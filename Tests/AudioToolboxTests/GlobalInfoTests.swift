import AudioToolbox
import AudioFileServices
import Testing

/// `AudioFileGetGlobalInfo` answers from the container formats' descriptors: exactly the types
/// they declare, in their order, with their writable formats and HFS codes. (Apple's names,
/// extensions and codes themselves are checked in `CFObjectsTests` and the descriptor tests.)
@Suite("Global info from the format descriptors")
struct GlobalInfoTests {
    /// A global property whose value is UInt32s, asked with an optional UInt32 specifier.
    static func uint32s(_ id: UInt32, specifier: UInt32? = nil) -> (status: OSStatus, values: [UInt32]) {
        var spec = specifier ?? 0
        let specSize: UInt32 = specifier == nil ? 0 : 4
        return withUnsafeMutablePointer(to: &spec) { p in
            let pointer = specifier == nil ? nil : UnsafeMutableRawPointer(p)
            var size: UInt32 = 0
            let status = AudioFileGetGlobalInfoSize(id, specSize, pointer, &size)
            guard status == 0 else { return (status, []) }
            var values = [UInt32](repeating: 0, count: Int(size) / 4 + 1)
            var io = size
            let got = values.withUnsafeMutableBytes { AudioFileGetGlobalInfo(id, specSize, pointer, &io, $0.baseAddress!) }
            return (got, Array(values.prefix(Int(io) / 4)))
        }
    }

    @Test func readableTypesAreTheDescriptorsTypes() {
        let readable = Self.uint32s(UInt32(kAudioFileGlobalInfo_ReadableTypes))
        #expect(readable.status == 0)
        #expect(readable.values == AudioFileFormats.descriptors.flatMap(\.types).map(\.type.rawValue))
        #expect(Set(readable.values).count == readable.values.count)
    }

    @Test func writableTypesAreTheTypesWithWritableFormats() {
        let writable = Self.uint32s(UInt32(kAudioFileGlobalInfo_WritableTypes))
        #expect(writable.status == 0)
        #expect(writable.values == AudioFileFormats.fileTypes.filter { !$0.writableFormats.isEmpty }.map(\.type.rawValue))
    }

    @Test func eachTypesFormatsAndCodes() {
        for type in AudioFileFormats.fileTypes {
            let formats = Self.uint32s(UInt32(kAudioFileGlobalInfo_AvailableFormatIDs), specifier: type.type.rawValue)
            if type.writableFormats.isEmpty {
                #expect(formats.status == OSStatus(kAudioFileUnsupportedFileTypeError), "\(type.name)")
            } else {
                #expect(formats.status == 0 && formats.values == type.writableFormats.map(\.rawValue), "\(type.name)")
            }
            let codes = Self.uint32s(UInt32(kAudioFileGlobalInfo_HFSTypeCodesForType), specifier: type.type.rawValue)
            #expect(codes.status == 0 && codes.values == type.hfsTypeCodes.map(\.rawValue), "\(type.name)")
            for code in type.hfsTypeCodes {
                let types = Self.uint32s(UInt32(kAudioFileGlobalInfo_TypesForHFSTypeCode), specifier: code.rawValue)
                #expect(types.values.contains(type.type.rawValue), "\(type.name)")
            }
        }
        // A type no descriptor declares.
        let unknown = Self.uint32s(UInt32(kAudioFileGlobalInfo_AvailableFormatIDs), specifier: 0x4E65_5854)  // 'NeXT'
        #expect(unknown.status == OSStatus(kAudioFileUnsupportedFileTypeError))
    }
}
