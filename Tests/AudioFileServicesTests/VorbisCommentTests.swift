import Foundation
import Testing
import AudioCore
import AudioFileServices
import ProcessSupport

/// The metadata blocks of a FLAC file (`fLaC`, then blocks of a 1-byte type with the last-block
/// bit and a 24-bit size), as the FLAC format specification lays them out.
private func flacBlocks(_ b: [UInt8]) -> [(type: UInt8, body: [UInt8])] {
    guard b.count >= 4, b[0..<4].elementsEqual("fLaC".utf8) else { return [] }
    var out: [(UInt8, [UInt8])] = []
    var p = 4
    while p + 4 <= b.count {
        let type = b[p] & 0x7F, last = b[p] & 0x80 != 0
        let size = Int(b[p + 1]) << 16 | Int(b[p + 2]) << 8 | Int(b[p + 3])
        guard p + 4 + size <= b.count else { break }
        out.append((type, Array(b[(p + 4)..<(p + 4 + size)])))
        p += 4 + size
        if last { break }
    }
    return out
}

/// The packets of an Ogg stream (RFC 3533: pages of segments, a 255-byte lacing value
/// continuing a packet, possibly across pages).
private func oggPackets(_ b: [UInt8]) -> [[UInt8]] {
    var packets: [[UInt8]] = []
    var current: [UInt8] = []
    var p = 0
    while p + 27 <= b.count, b[p..<(p + 4)].elementsEqual("OggS".utf8) {
        let segments = Int(b[p + 26])
        guard p + 27 + segments <= b.count else { break }
        let lacing = b[(p + 27)..<(p + 27 + segments)]
        var q = p + 27 + segments
        for length in lacing {
            guard q + Int(length) <= b.count else { return packets }
            current += b[q..<(q + Int(length))]
            q += Int(length)
            if length < 255 {
                packets.append(current)
                current = []
            }
        }
        p = q
    }
    return packets
}

/// What a FLAC or Ogg reader hands over: the raw comment body and the raw PICTURE blocks. It
/// conforms as those readers will: a plain `AudioFileFormat`, then one line declaring
/// `VorbisCommentTagged`, which must supply `info`, `chapters` and `artwork(reading:)`.
private struct TaggedStub: AudioFileFormat {
    static let fileType = AudioFileType(rawValue: 0x664C_6143)  // 'fLaC'
    static let extensions: [String] = []
    static func canRead(prefix: UnsafeRawBufferPointer) -> Bool { false }
    init(reading source: some AudioByteSource) throws(AudioFileError) {
        throw AudioFileError(.unsupportedFileType, "a stub")
    }
    init(comment: [UInt8]?, pictures: [[UInt8]]) {
        vorbisComment = comment
        self.pictures = pictures
    }
    let dataFormat = AudioStreamBasicDescription(
        sampleRate: 48000, formatID: .linearPCM, bytesPerPacket: 2, framesPerPacket: 1, bytesPerFrame: 2,
        channelsPerFrame: 1, bitsPerChannel: 16)
    let dataOffset: Int64 = 0
    let dataByteCount: Int64 = 0
    let packets = AudioFilePacketIndex.constant(bytesPerPacket: 1, count: 0)
    let vorbisComment: [UInt8]?
    let pictures: [[UInt8]]
}

extension TaggedStub: VorbisCommentTagged {}

/// Little-endian length-prefixed Vorbis comment bytes, as the specification lays them out.
private func comment(vendor: String, _ fields: [String], count: Int? = nil) -> [UInt8] {
    func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
    var out = le32(vendor.utf8.count) + Array(vendor.utf8) + le32(count ?? fields.count)
    for field in fields { out += le32(field.utf8.count) + Array(field.utf8) }
    return out
}

@Suite("Vorbis comments and FLAC pictures")
struct VorbisCommentTests {
    /// The reference encoder's FLAC: the comment block against metaflac's export, the PICTURE
    /// block against metaflac's extracted picture, and Apple's keys through a reader stub.
    @Test func flacFromTheReferenceEncoder() throws {
        let bytes = try Fixtures.bytes(TagFixtures.directory.appendingPathComponent("vorbis-comment-picture.flac"))
        let blocks = flacBlocks(bytes)
        let body = try #require(blocks.first { $0.type == 4 }?.body)
        let parsed = try #require(VorbisComment(parsing: body))
        let exported = try String(contentsOfFile: TagFixtures.path("vorbis-comment-picture.flac.tags.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(parsed.fields.map { "\($0.name)=\($0.value)" } == exported)
        #expect(parsed.vendor.hasPrefix("reference libFLAC"))
        #expect(parsed["title"] == "Fixture title" && parsed.values("TITLE") == ["Fixture title", "Second title"])

        let pictureBlocks = blocks.filter { $0.type == 6 }.map(\.body)
        #expect(pictureBlocks.count == 1)
        let picture = try #require(AudioFilePicture(flacPictureBlock: pictureBlocks[0]))
        #expect(picture.data == (try TagFixtures.cover("vorbis-comment-picture.flac")))
        #expect(picture.mimeType == "image/png" && picture.description == "Front" && picture.type == .frontCover)
        #expect(picture.width == 16 && picture.height == 16 && picture.colorDepth == 24)

        let stub: any AudioFileFormat = TaggedStub(comment: body, pictures: pictureBlocks)
        let info = AudioFileInfo(stub.info)
        let probe = try TagFixtures.probeTags("vorbis-comment-picture.flac")
        #expect(info.title == "Fixture title" && info.artist == probe["artist"] && info.album == probe["album"])
        #expect(info.trackNumberText == "3/12" && info.year == probe["date"] && info.genre == probe["genre"])
        #expect(info.comments == probe["comment"] && info.composer == probe["composer"])
        let art = stub.artwork(reading: MemoryByteSource([]))
        #expect(art.map(\.data) == [picture.data])
    }

    /// opusenc's OpusTags, METADATA_BLOCK_PICTURE included, against ffprobe and the cover.
    @Test func opusTagsFromOpusenc() throws {
        let bytes = try Fixtures.bytes(TagFixtures.directory.appendingPathComponent("opustags-picture.opus"))
        let packets = oggPackets(bytes)
        #expect(packets.count > 2)
        let tags = try #require(packets.dropFirst().first)
        #expect(tags.starts(with: Array("OpusTags".utf8)))
        let parsed = try #require(VorbisComment(parsing: tags))
        #expect(parsed.vendor.hasPrefix("libopus"))
        let probe = try TagFixtures.probeTags("opustags-picture.opus")
        let stub = TaggedStub(comment: tags, pictures: [])
        let info = AudioFileInfo(stub.info)
        #expect(info.title == probe["title"] && info.artist == probe["artist"] && info.album == probe["album"])
        #expect(info.year == probe["date"] && info.genre == probe["genre"] && info.trackNumberText == probe["track"])
        #expect(info.comments == probe["comment"] && info.encodingApplication == probe["encoder"])
        let pictures = stub.artwork(reading: MemoryByteSource([]))
        #expect(pictures.count == 1)
        #expect(pictures.first?.data == (try TagFixtures.cover("opustags-picture.opus")))
        #expect(pictures.first?.mimeType == "image/jpeg" && pictures.first?.description == "Front")
    }

    /// ffmpeg's chapters in OpusTags (CHAPTERnnn, CHAPTERnnnNAME), against ffprobe's.
    @Test func chaptersFromFFmpeg() throws {
        let bytes = try Fixtures.bytes(TagFixtures.directory.appendingPathComponent("chapters.opus"))
        let tags = try #require(oggPackets(bytes).dropFirst().first)
        let stub: any AudioFileFormat = TaggedStub(comment: tags, pictures: [])
        let expected = try TagFixtures.probeChapters("chapters.opus")
        #expect(expected.count == 3)
        #expect(stub.chapters.map(\.title) == expected.map(\.title))
        for (a, b) in zip(stub.chapters, expected) { #expect(abs(a.startTime - b.startTime) < 0.001) }
        let spec = try #require(VorbisComment(parsing: comment(vendor: "", [
            "CHAPTER2=1:02:03.5", "CHAPTER2NAME=Late", "CHAPTER1=00:00:01", "CHAPTER1NAME=Early", "CHAPTER3=x", "CHAPTERNAME=y",
        ])))
        #expect(spec.chapters == [AudioFileChapter(startTime: 1, title: "Early"), AudioFileChapter(startTime: 3723.5, title: "Late")])
    }

    @Test func specBuiltComments() throws {
        let bytes = comment(vendor: "v", ["Title=One", "tItLe=Two", "DESCRIPTION=Desc", "COMMENT=Comm", "noequals", "TRACKNUMBER=2", "TOTALTRACKS=5", "EMPTY="])
        let parsed = try #require(VorbisComment(parsing: bytes))
        #expect(parsed.vendor == "v" && parsed.fields.count == 7)
        #expect(parsed.values("title") == ["One", "Two"] && parsed["empty"] == "")
        let info = AudioFileInfo(parsed.appleInfo)
        #expect(info.title == "One" && info.comments == "Comm" && info.trackNumberText == "2/5")
        // A count larger than the bytes could hold, a vendor length past the end: nil.
        #expect(VorbisComment(parsing: comment(vendor: "v", ["A=1"], count: 1000)) == nil)
        #expect(VorbisComment(parsing: [255, 255, 255, 127, 0]) == nil)
        #expect(VorbisComment(parsing: []) == nil)
        // A field cut short ends the list with the fields before it.
        let cut = try #require(VorbisComment(parsing: Array(comment(vendor: "v", ["A=1", "B=22"]).dropLast(1))))
        #expect(cut.fields.map(\.name) == ["A"])
        // A picture field that is not base64, or not a picture block, is left out.
        let bad = try #require(VorbisComment(parsing: comment(vendor: "", ["METADATA_BLOCK_PICTURE=!!!", "METADATA_BLOCK_PICTURE=AAAA"])))
        #expect(bad.pictures.isEmpty)
    }

    @Test func pictureBlockBounds() {
        func be32(_ n: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
        let good = be32(3) + be32(9) + Array("image/png".utf8) + be32(1) + Array("d".utf8) + be32(2) + be32(3) + be32(24) + be32(0)
            + be32(4) + [0x89, 0x50, 0x4E, 0x47]
        let picture = AudioFilePicture(flacPictureBlock: good)
        #expect(picture?.data == [0x89, 0x50, 0x4E, 0x47] && picture?.width == 2 && picture?.height == 3)
        for n in 0..<good.count { #expect(AudioFilePicture(flacPictureBlock: good.prefix(n)) == nil) }
        var lying = good
        lying[7] = 0xFF  // a MIME length past the block
        #expect(AudioFilePicture(flacPictureBlock: lying) == nil)
    }
}
