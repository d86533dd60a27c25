import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// A `key=value` reference file of Scripts/fixtures/make_vorbis_fixtures.py.
func vorbisValues(_ name: String) throws -> [String: String] {
    let url = Fixtures.vorbis.appendingPathComponent(name)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw MissingFixture("vorbis/\(name)") }
    var values: [String: String] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
}

@Suite("Ogg Vorbis files")
struct OggVorbisTests {
    func open(_ name: String) throws -> AudioFile {
        try AudioFile(path: Fixtures.vorbis.appendingPathComponent(name).path)
    }

    /// The valid frames are oggdec's decode length (the granule positions' trimming), and the
    /// packet table covers priming, valid and remainder frames exactly.
    @Test(arguments: [
        "oggenc-mono-44100.ogg", "ffmpeg-stereo-48000.ogg", "oggenc-51-48000.ogg", "oggenc-short-44100.ogg", "spec-start-trim.ogg",
        "spec-late-start.ogg", "spec-tags.ogg",
    ])
    func validFramesAreOggdecs(_ name: String) throws {
        let file = try open(name)
        let reference = try vorbisValues(name.replacingOccurrences(of: ".ogg", with: ".ref"))
        #expect(file.fileType == .ogg)
        #expect(file.dataFormat.formatID == .vorbis)
        let info = try #require(file.container.packetTableInfo)
        #expect(String(info.numberValidFrames) == reference["frames"], "\(name)")
        #expect(Int64(info.primingFrames) + info.numberValidFrames + Int64(info.remainderFrames) == file.totalFrames)
        let format = try #require(file.container as? OggFormat)
        #expect(format.vorbisHeaders?.cookie == file.container.magicCookie)
    }

    /// What the identification header says; the first packet's quarter block is priming.
    @Test func streamDescription() throws {
        let file = try open("oggenc-51-48000.ogg")
        #expect(file.dataFormat.sampleRate == 48000 && file.dataFormat.channelsPerFrame == 6)
        #expect(file.container.channelLayout == AudioChannelLayout.waveOrder(channels: 6))
        let format = try #require(file.container as? OggFormat)
        let headers = try #require(format.vorbisHeaders)
        #expect(headers.info.shortBlockSize == 256 && headers.info.longBlockSize == 2048)
        #expect(headers.modeUsesLongBlock == [false, true])
        guard case .table(let table) = file.container.packets else { Issue.record("no packet table"); return }
        #expect(file.container.packetTableInfo?.primingFrames == Int32(table.frames[0]))
        #expect(Int(file.dataFormat.framesPerPacket) == Int(table.frames.max() ?? 0))
        // Every packet lasts a quarter of its block and of the one before.
        #expect(table.frames.allSatisfy { [64, 128, 512, 576, 1024].contains($0) })
    }

    /// The start trimmed by the first page's granule position is priming; a later start is
    /// where the stream begins.
    @Test func starts() throws {
        let plain = try open("ffmpeg-stereo-48000.ogg")
        let trimmed = try open("spec-start-trim.ogg")
        let late = try open("spec-late-start.ogg")
        let plainPriming = try #require(plain.container.packetTableInfo?.primingFrames)
        #expect(trimmed.container.packetTableInfo?.primingFrames == plainPriming + 300)
        #expect(late.container.packetTableInfo?.primingFrames == plainPriming)
        #expect((late.container as? OggFormat)?.startGranulePosition == 48000)
        #expect((trimmed.container as? OggFormat)?.startGranulePosition == 0)
    }

    /// Chained streams: the first is read, and the file says that more follow.
    @Test func chainedReadsFirst() throws {
        let file = try open("chained.ogg")
        let single = try open("oggenc-mono-44100.ogg")
        #expect((file.container as? OggFormat)?.hasFollowingStreams == true)
        #expect(file.packetCount == single.packetCount)
        #expect(file.container.packetTableInfo == single.container.packetTableInfo)
        #expect(file.dataFormat == single.dataFormat)
    }

    /// Comments and the picture (headers across pages) as ffprobe and ffmpeg read them.
    @Test func commentsAndPicture() throws {
        let file = try open("spec-tags.ogg")
        let probe = try vorbisValues("spec-tags.tags")
        #expect(probe["TAG:TITLE"] != nil)
        let info = file.info
        #expect(info.title == probe["TAG:TITLE"] && info.artist == probe["TAG:ARTIST"] && info.album == probe["TAG:ALBUM"])
        #expect(info.year == probe["TAG:DATE"])
        let cover = try Data(contentsOf: Fixtures.vorbis.appendingPathComponent("spec-tags.cover.png"))
        #expect(file.albumArtwork?.data == [UInt8](cover))
        // The cookie's comment header is empty: the pictures stay out of it.
        let cookie = try #require(file.container.magicCookie)
        #expect(cookie.count < 8192)
        #expect(try VorbisHeaders(cookie: cookie).comment == VorbisHeaders.emptyComment)
    }

    /// Damaged files fail with an error that names the problem.
    @Test func damageIsAnError() throws {
        #expect(throws: AudioFileError.self) { try open("bad-setup.ogg") }
        #expect(throws: AudioFileError.self) { try open("bad-blocksize.ogg") }
        do {
            _ = try open("bad-blocksize.ogg")
        } catch let error as AudioFileError {
            #expect(error.code == .unsupportedDataFormat)
            #expect(error.reason.contains("block sizes"))
        }
        // Cut in the first audio page: the headers are all there, the audio is not.
        let truncated = try? open("bad-truncated.ogg")
        #expect((truncated?.packetCount ?? 0) == 0)
    }

    /// Every prefix of a file either opens or fails with an error; none traps or hangs.
    @Test func everyTruncationIsHandled() throws {
        let data = [UInt8](try Data(contentsOf: Fixtures.vorbis.appendingPathComponent("spec-tags.ogg")))
        for cut in stride(from: 0, to: data.count, by: 53) {
            _ = try? AudioFile(source: MemoryByteSource(Array(data[0..<cut])))
        }
    }
}

@Suite("Vorbis headers")
struct VorbisHeadersTests {
    /// The cookie's three forms carry the same packets; damaged cookies are refused.
    @Test func cookieForms() throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("ffmpeg-stereo-48000.ogg").path)
        let headers = try VorbisHeaders(cookie: try #require(file.container.magicCookie))
        func sized(bigEndian: Bool) -> [UInt8] {
            var out: [UInt8] = []
            for p in [headers.identification, headers.comment, headers.setup] {
                let n = UInt16(p.count)
                out += bigEndian ? [UInt8(n >> 8), UInt8(n & 0xFF)] : [UInt8(n & 0xFF), UInt8(n >> 8)]
                out += p
            }
            return out
        }
        #expect(try VorbisHeaders(cookie: sized(bigEndian: false)) == headers)
        #expect(try VorbisHeaders(cookie: sized(bigEndian: true)) == headers)
        #expect(throws: VorbisHeaders.FormatError.self) { try VorbisHeaders(cookie: Array(headers.cookie.prefix(40))) }
        #expect(throws: VorbisHeaders.FormatError.self) { try VorbisHeaders(cookie: [2, 255, 255, 255]) }
        #expect(throws: VorbisHeaders.FormatError.self) { try VorbisHeaders(cookie: []) }
    }

    /// A setup header without a framing bit, or whose modes are damaged, is refused quickly,
    /// however long its run of zero bytes.
    @Test func setupWithoutModes() throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("ffmpeg-stereo-48000.ogg").path)
        let headers = try VorbisHeaders(cookie: try #require(file.container.magicCookie))
        let magic: [UInt8] = [5] + Array("vorbis".utf8)
        for setup in [magic, magic + [UInt8](repeating: 0, count: 1 << 22), Array(headers.setup.dropLast(12)) + [UInt8](repeating: 0xFF, count: 12)] {
            #expect(throws: VorbisHeaders.FormatError.self) {
                try VorbisHeaders(identification: headers.identification, comment: headers.comment, setup: setup)
            }
        }
        // Trailing zero bytes after the framing bit change nothing.
        let padded = try VorbisHeaders(identification: headers.identification, comment: headers.comment, setup: headers.setup + [0, 0, 0])
        #expect(padded.modeUsesLongBlock == headers.modeUsesLongBlock)
    }

    /// Packet durations: a quarter of the block before and of the packet's own; the first a
    /// quarter of its own; a header packet or unknown mode gives none.
    @Test func durations() throws {
        let file = try AudioFile(path: Fixtures.vorbis.appendingPathComponent("oggenc-51-48000.ogg").path)
        let headers = try VorbisHeaders(cookie: try #require(file.container.magicCookie))
        var d = VorbisPacketDurations(headers)
        #expect(d.frames(first: 0b10) == 512)  // mode 1: long, first
        #expect(d.frames(first: 0b00) == 512 + 64)  // mode 0: short after long
        #expect(d.frames(first: 0b00) == 128)
        #expect(d.frames(first: 0x01) == nil)  // a header packet
        d.reset()
        #expect(d.frames(first: 0) == 64)
    }
}

@Suite("AudioFileStream: Ogg Vorbis")
struct StreamOggVorbisTests {
    /// Fed in pieces of any size, a stream gives the packets the file reader's table lists, in
    /// order, with their durations, after the properties (the three headers as cookie, the
    /// first packet's quarter block as priming).
    @Test(arguments: ["ffmpeg-stereo-48000.ogg", "oggenc-51-48000.ogg", "spec-tags.ogg", "chained.ogg"])
    func packetsMatchTheFileReader(_ name: String) throws {
        let url = Fixtures.vorbis.appendingPathComponent(name)
        let bytes = [UInt8](try Data(contentsOf: url))
        let file = try AudioFile(path: url.path)
        let all = try file.readPackets(from: 0, count: Int(file.packetCount))
        let descriptions = try #require(all.descriptions)
        let expected = descriptions.map { Array(all.data[Int($0.startOffset)..<(Int($0.startOffset) + Int($0.dataByteSize))]) }
        guard case .table(let table) = file.container.packets else { Issue.record("no packet table"); return }
        for size in [1, 7, 300, 1 << 20] {
            let run = streamRun(bytes) { size }
            #expect(run.error == nil, "\(name) in pieces of \(size): \(String(describing: run.error))")
            #expect(run.ready)
            #expect(run.dataFormat?.formatID == .vorbis && run.dataFormat?.sampleRate == file.dataFormat.sampleRate)
            #expect(run.magicCookie == file.container.magicCookie)
            let longBlock = try VorbisHeaders(cookie: try #require(file.container.magicCookie)).info.longBlockSize
            #expect(run.dataFormat?.framesPerPacket == UInt32(longBlock / 2))
            #expect(run.packetTableInfo?.primingFrames == Int32(table.frames[0]))
            #expect(run.packets == expected, "\(name) in pieces of \(size): \(run.packets.count) packets, the file \(expected.count)")
            #expect(run.frames == table.frames)
        }
    }

    /// A damaged setup header fails the stream.
    @Test func damagedSetupFails() throws {
        let run = streamRun([UInt8](try Data(contentsOf: Fixtures.vorbis.appendingPathComponent("bad-setup.ogg")))) { 512 }
        #expect(run.error?.code == .unsupportedDataFormat)
    }
}
