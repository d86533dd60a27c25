import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// What a codec name reported by ffprobe means in Core Audio terms.
private struct ExpectedFormat {
    var id: AudioFormatID
    var bits: UInt32 = 0
    var float = false
    var bigEndian = false
    var signed = true

    init?(codec: String) {
        func pcm(_ bits: UInt32, float: Bool = false, big: Bool = false, signed: Bool = true) -> ExpectedFormat {
            var f = ExpectedFormat(id: .linearPCM)
            f.bits = bits
            f.float = float
            f.bigEndian = big
            f.signed = signed
            return f
        }
        switch codec {
        case "pcm_u8": self = pcm(8, signed: false)
        case "pcm_s8": self = pcm(8)
        case "pcm_s16le": self = pcm(16)
        case "pcm_s16be": self = pcm(16, big: true)
        case "pcm_s24le": self = pcm(24)
        case "pcm_s24be": self = pcm(24, big: true)
        case "pcm_s32le": self = pcm(32)
        case "pcm_s32be": self = pcm(32, big: true)
        case "pcm_f32le": self = pcm(32, float: true)
        case "pcm_f32be": self = pcm(32, float: true, big: true)
        case "pcm_f64le": self = pcm(64, float: true)
        case "pcm_f64be": self = pcm(64, float: true, big: true)
        case "pcm_alaw": self.init(id: .aLaw, bits: 8)
        case "pcm_mulaw": self.init(id: .uLaw, bits: 8)
        case "adpcm_ima_qt": self.init(id: .appleIMA4)
        case "adpcm_ima_wav": self.init(id: .dviIntelIMA, bits: 4)
        case "adpcm_ms": self.init(id: .waveFormatTag(2), bits: 4)
        case "gsm_ms": self.init(id: .microsoftGSM)
        case "mp3": self.init(id: .mpegLayer3)
        case "aac": self.init(id: .mpeg4AAC)
        default: return nil
        }
    }

    private init(id: AudioFormatID, bits: UInt32 = 0) {
        self.id = id
        self.bits = bits
    }
}

/// ffmpeg's channel layout masks (libavutil/channel_layout.h), the same bits as WAVE's dwChannelMask.
private let ffmpegLayoutMasks: [String: UInt32] = ["mono": 0x4, "stereo": 0x3, "5.1": 0x3F, "5.1(side)": 0x60F]

@Suite("Valid fixtures against ffprobe")
struct ValidFixtureTests {
    @Test(arguments: Fixtures.validNames)
    func propertiesMatchFFprobe(name: String) throws {
        let probe = try #require(Fixtures.ffprobe(name), "no ffprobe report for \(name)")
        let file = try AudioFile(path: Fixtures.path(name))
        let format = file.dataFormat
        #expect(format.sampleRate == probe.sampleRate)
        #expect(Int(format.channelsPerFrame) == probe.channels)

        let expected = try #require(ExpectedFormat(codec: probe.codec), "codec \(probe.codec) not mapped")
        #expect(format.formatID == expected.id, "ffprobe says \(probe.codec)")
        if format.isPCM {
            #expect(format.bitsPerChannel == expected.bits)
            #expect(Int(format.bitsPerChannel) == probe.bitsPerSample)
            #expect(format.isFloat == expected.float)
            if format.bitsPerChannel > 8 { #expect(format.isBigEndian == expected.bigEndian) }
            #expect(format.isSignedInteger == (expected.signed && !expected.float))
            #expect(format.bytesPerFrame == format.bytesPerPacket)
            #expect(Int(format.bytesPerFrame) == Int(format.channelsPerFrame) * Int((format.bitsPerChannel + 7) / 8))
            // ffprobe's duration_ts counts PCM frames exactly.
            #expect(file.packetCount == probe.durationTS)
            #expect(file.validFrames == probe.durationTS)
        } else if format.formatID == .mpeg4AAC {
            #expect(file.packetCount == probe.readPackets)
            #expect(format.framesPerPacket == 1024)
            #expect(format.bytesPerPacket == 0)
        } else if format.formatID == .aLaw || format.formatID == .uLaw {
            #expect(file.packetCount == probe.durationTS)
            #expect(format.bytesPerPacket == format.channelsPerFrame)
        } else if format.formatID != .mpegLayer3 {
            // Block codecs: ffmpeg's duration is the exact sample count (fact chunk or blocks).
            #expect(file.validFrames == probe.durationTS)
            #expect(format.bytesPerPacket > 0 && format.framesPerPacket > 0)
        } else {
            #expect(file.validFrames == probe.durationTS)
        }
        if expected.id == .appleIMA4 {
            #expect(format.bytesPerPacket == 34 * format.channelsPerFrame)
            #expect(file.packetCount * 64 == probe.durationTS)
        }

        let duration = file.estimatedDuration
        if let frames = probe.durationTS, format.formatID != .mpeg4AAC {
            #expect(abs(duration - Double(frames) / format.sampleRate) < 1e-9)
        }
        if let layout = file.channelLayout {
            #expect(layout.numberOfChannels == probe.channels)
        }
        if name.hasPrefix("wav"), let layout = file.channelLayout, let probeLayout = probe.channelLayout,
           let mask = ffmpegLayoutMasks[probeLayout] {
            #expect(layout.tag == .useChannelBitmap)
            #expect(layout.bitmap.rawValue == mask)
        }

        let container: [String: AudioFileType] = ["wav": .wave, "aiff": .aiff, "caf": .caf, "aac": .adts]
        if let type = container[probe.formatName] {
            if type == .wave {
                #expect([AudioFileType.wave, .rf64, .bw64].contains(file.fileType))
            } else if type == .aiff {
                #expect([AudioFileType.aiff, .aifc].contains(file.fileType))
            } else {
                #expect(file.fileType == type)
            }
        }
        #expect(file.maximumPacketSize <= file.packetSizeUpperBound)
        #expect(file.dataOffset + file.dataByteCount <= Int64(try FileManager.default.attributesOfItem(atPath: Fixtures.path(name))[.size] as! Int))
    }

    /// Every packet read through readPackets, concatenated, equals ffmpeg's packets byte for byte
    /// (Adler-32 per ffmpeg packet); AAC packets match one to one.
    @Test(arguments: Fixtures.validNames)
    func packetsMatchFFmpegDemux(name: String) throws {
        let reference = try Fixtures.framecrc(name)
        let file = try AudioFile(path: Fixtures.path(name))
        let (data, sizes) = try file.allPackets()
        #expect(sizes.count == Int(file.packetCount))
        #expect(data.count == reference.reduce(0) { $0 + $1.size })
        if file.dataFormat.formatID == .mpeg4AAC || file.dataFormat.formatID == .mpegLayer3 {
            #expect(sizes == reference.map(\.size))
        }
        var offset = 0
        for (index, packet) in reference.enumerated() where offset + packet.size <= data.count {
            #expect(adler32(data[offset..<(offset + packet.size)], start: 0) == packet.adler, "ffmpeg packet \(index)")
            offset += packet.size
        }
    }

    @Test(arguments: Fixtures.validNames.filter { $0.hasSuffix(".aac") })
    func adtsMatchesHeaderWalk(name: String) throws {
        let facts = try #require(Fixtures.facts(name))
        let file = try AudioFile(path: Fixtures.path(name))
        #expect(file.fileType == .adts)
        #expect(file.packetCount == facts["packets"] as? Int64 ?? Int64(facts["packets"] as! Int))
        #expect(file.maximumPacketSize == facts["maxPacketSize"] as? Int)
        #expect(file.dataOffset == Int64(facts["firstFrameOffset"] as! Int))
        #expect(file.magicCookie.map(hexString) == facts["audioSpecificConfig"] as? String)
        #expect(file.dataFormat.formatFlags.rawValue == UInt32(facts["audioObjectType"] as! Int))
        #expect(file.dataFormat.sampleRate == Double(facts["sampleRate"] as! Int))
        let (data, _) = try file.allPackets()
        #expect(data.count == facts["dataByteCount"] as? Int)
        let adts = try #require(file.container as? ADTSFormat)
        #expect(adts.junkByteCount == Int64(facts["skippedBytes"] as! Int))
        #expect(adts.firstHeader.hasCRC == ((facts["protectionAbsent"] as? Int) == 0))
    }

    @Test(arguments: Fixtures.validNames.filter { $0.hasPrefix("caf-aac") })
    func cafAACMatchesBuilder(name: String) throws {
        let facts = try #require(Fixtures.facts(name))
        let file = try AudioFile(path: Fixtures.path(name))
        let table = try #require(file.packetTableInfo)
        #expect(file.packetCount == Int64(facts["packets"] as! Int))
        #expect(table.numberValidFrames == Int64(facts["validFrames"] as! Int))
        #expect(table.primingFrames == Int32(facts["primingFrames"] as! Int))
        #expect(table.remainderFrames == Int32(facts["remainderFrames"] as! Int))
        #expect(table.totalFrames == file.packetCount * 1024)
        #expect(file.validFrames == table.numberValidFrames)
        #expect(file.maximumPacketSize == facts["maxPacketSize"] as? Int)
        #expect(file.dataByteCount == Int64(facts["dataByteCount"] as! Int))
        #expect(file.magicCookie.map(hexString) == facts["magicCookie"] as? String)
        #expect(file.dataFormat.channelsPerFrame == UInt32(facts["channels"] as! Int))
        #expect(abs(file.estimatedDuration - Double(table.numberValidFrames) / file.dataFormat.sampleRate) < 1e-12)
        #expect(file.packetSizeUpperBound >= file.maximumPacketSize)
    }

    /// Text metadata written by ffmpeg (`-metadata`) comes back under Apple's info keys.
    @Test(arguments: Fixtures.validNames.filter { !(Fixtures.ffprobe($0)?.tags.isEmpty ?? true) })
    func metadataMatchesFFprobeTags(name: String) throws {
        let probe = try #require(Fixtures.ffprobe(name))
        let info = try AudioFile(path: Fixtures.path(name)).infoDictionary
        let keys = ["title": "title", "artist": "artist", "author": "artist", "comment": "comments", "copyright": "copyright"]
        var compared = 0
        for (tag, value) in probe.tags {
            guard let key = keys[tag.lowercased()] else { continue }
            // CAF info keys are stored as the writer spelled them; the others map to Apple's keys.
            #expect(info[key] == value || info[tag] == value, "\(tag)")
            compared += 1
        }
        if name.contains("aiff") || name.contains("aifc") {
            // ffmpeg also mirrors AIFF tags into an ID3 chunk it reads first; NAME/AUTH are what we read.
            #expect(compared > 0 || info.count > 1)
        } else {
            #expect(compared > 0)
        }
        #expect(info["approximate duration in seconds"] != nil)
    }
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
