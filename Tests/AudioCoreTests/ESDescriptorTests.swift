import Testing
import AudioCore

@Suite("ESDescriptor")
struct ESDescriptorTests {
    /// An ES_Descriptor holding a DecoderConfigDescriptor for `indication` with `info` as its
    /// DecoderSpecificInfo, each length in `lengthBytes` bytes.
    static func descriptor(indication: UInt8 = 0x40, info: [UInt8]?, flags: UInt8 = 0, fields: [UInt8] = [], lengthBytes: Int = 1) -> [UInt8] {
        func length(_ n: Int) -> [UInt8] {
            (0..<lengthBytes).map { i in
                let shift = 7 * (lengthBytes - 1 - i)
                return UInt8(n >> shift & 0x7F) | (i < lengthBytes - 1 ? 0x80 : 0)
            }
        }
        let dsi = info.map { [0x05] + length($0.count) + $0 } ?? []
        let config: [UInt8] = [indication, 0x15, 0, 0, 0, 0, 1, 0xF4, 0, 0, 1, 0xF4, 0] + dsi
        let body: [UInt8] = [0, 1, flags] + fields + [0x04] + length(config.count) + config + [0x06, 1, 2]
        return [0x03] + length(body.count) + body
    }

    @Test(arguments: [1, 2, 4])
    func readsTheConfigAndItsInfo(lengthBytes: Int) throws {
        let parsed = try ESDescriptor(bytes: Self.descriptor(info: [0x12, 0x10], lengthBytes: lengthBytes))
        #expect(parsed.objectTypeIndication == 0x40 && parsed.decoderSpecificInfo == [0x12, 0x10])
        let mp3 = try ESDescriptor(bytes: Self.descriptor(indication: 0x6B, info: nil))
        #expect(mp3.objectTypeIndication == 0x6B && mp3.decoderSpecificInfo == nil)
        // dependsOn_ES_ID, a URL and OCR_ES_Id are skipped.
        let flagged = try ESDescriptor(bytes: Self.descriptor(info: [0x12, 0x10], flags: 0xE0, fields: [0, 2, 3, 0x61, 0x62, 0x63, 0, 4]))
        #expect(flagged.decoderSpecificInfo == [0x12, 0x10])
    }

    @Test func rejectsWhatIsMalformed() {
        var tooLong = Self.descriptor(info: [0x12, 0x10])
        tooLong.removeLast(4)
        #expect(throws: ESDescriptor.ParseError.self) { try ESDescriptor(bytes: tooLong) }
        // A length of five bytes.
        #expect(throws: ESDescriptor.ParseError.self) { try ESDescriptor(bytes: [0x03, 0x80, 0x80, 0x80, 0x80, 0x05, 0, 0, 0, 0, 0]) }
        // A dependsOn_ES_ID flag with no room for the field.
        #expect(throws: ESDescriptor.ParseError.self) { try ESDescriptor(bytes: [0x03, 0x04, 0, 1, 0x80, 0]) }
        #expect(throws: ESDescriptor.ParseError.self) { try ESDescriptor(bytes: [0x04, 0x00]) }
        #expect(throws: ESDescriptor.ParseError.self) { try ESDescriptor(bytes: [0x03, 0x03, 0, 1, 0]) }
    }
}
