import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// Variable-size packets with their descriptions, magic cookies, packet tables and channel layouts.
@Suite("Writing AAC, cookies, packet tables and layouts")
struct WriterMetadataTests {
    /// AAC packets copied from CAF and ADTS fixtures into a new CAF: the packets, the cookie and the
    /// priming and remainder frames come back unchanged, and ffmpeg demuxes the same packets as from
    /// the fixture.
    @Test(arguments: ["caf-aac-2ch-48000.caf", "caf-aac-1ch-44100.caf", "caf-aac-6ch-48000.caf", "adts-aac-2ch-44100.aac"])
    func aacIntoCAF(name: String) throws {
        let source = try AudioFile(path: Fixtures.path(name))
        let facts = try #require(Fixtures.facts(name))
        let packets = try facts["packets"] as? Int ?? Int(#require(Fixtures.ffprobe(name)?.readPackets))
        // ADTS gives the AudioSpecificConfig; a CAF 'kuki' for AAC holds it in an MPEG-4 ES descriptor.
        let cookie = source.fileType == .adts ? esds(try #require(source.magicCookie)) : try #require(source.magicCookie)
        let path = temporaryAudioPath("aac.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let writer = try AudioFileWriter(path: path, type: .caf, format: source.dataFormat)
        try writer.setMagicCookie(cookie)
        if let layout = source.channelLayout { try writer.setChannelLayout(layout) }
        // A few packets per call, descriptions relative to each buffer, as a recording callback gets them.
        var next: Int64 = 0
        while next < Int64(packets) {
            let batch = try source.readPackets(from: next, count: 5)
            let written = try writer.writePackets(
                startingPacket: next, bytes: batch.data, descriptions: batch.descriptions, packetCount: batch.packetCount)
            #expect(written == batch.packetCount)
            next += Int64(written)
        }
        #expect(writer.packetCount == Int64(packets))
        #expect(writer.totalFrames == Int64(packets) * 1024)
        if let priming = facts["primingFrames"] as? Int, let remainder = facts["remainderFrames"] as? Int,
           let valid = facts["validFrames"] as? Int {
            try writer.setPacketTableInfo(AudioFilePacketTableInfo(
                numberValidFrames: Int64(valid), primingFrames: Int32(priming), remainderFrames: Int32(remainder)))
        }
        let info = try #require(writer.packetTableInfo)
        try writer.close()

        let file = try AudioFile(path: path)
        #expect(file.fileType == .caf)
        #expect(file.dataFormat == source.dataFormat)
        #expect(file.packetCount == Int64(packets))
        let original = try readAllPackets(source), copy = try readAllPackets(file)
        #expect(copy.data == original.data)
        #expect(copy.descriptions == original.descriptions)
        #expect(file.magicCookie == cookie)
        #expect(file.packetTableInfo == info)
        if let valid = facts["validFrames"] as? Int {
            #expect(file.packetTableInfo?.numberValidFrames == Int64(valid))
            #expect(file.packetTableInfo?.primingFrames == Int32(facts["primingFrames"] as! Int))
            #expect(file.packetTableInfo?.remainderFrames == Int32(facts["remainderFrames"] as! Int))
        } else {
            #expect(info == AudioFilePacketTableInfo(numberValidFrames: Int64(packets) * 1024, primingFrames: 0, remainderFrames: 0))
        }
        #expect(file.channelLayout == source.channelLayout)
        #expect(file.maximumPacketSize == (facts["maxPacketSize"] as? Int ?? source.maximumPacketSize))

        let probe = try ffprobe(path)
        #expect(probe.codec == "aac")
        #expect(probe.sampleRate == source.dataFormat.sampleRate)
        #expect(probe.channels == Int(source.dataFormat.channelsPerFrame))
        #expect(probe.durationTS == Int64(packets) * 1024)
        #expect(probe.readPackets == Int64(packets))
        let reference = try Fixtures.framecrc(name)
        let ours = try ffmpegPackets(path)
        #expect(ours.map(\.size) == reference.map(\.size))
        #expect(ours.map(\.adler) == reference.map(\.adler))
    }

    /// Descriptions that do not lie back to back in the buffer are gathered into one run.
    @Test func scatteredDescriptions() throws {
        let source = try AudioFile(path: Fixtures.path("caf-aac-2ch-48000.caf"))
        let original = try readAllPackets(source)
        let sourceDescriptions = try #require(original.descriptions)
        var buffer: [UInt8] = []
        var descriptions: [AudioStreamPacketDescription] = []
        for d in sourceDescriptions.reversed() {  // packets in reverse order, with gaps between them
            buffer += [0xEE, 0xEE, 0xEE]
            descriptions.insert(AudioStreamPacketDescription(startOffset: Int64(buffer.count), dataByteSize: d.dataByteSize), at: 0)
            let start = Int(d.startOffset)
            buffer += original.data[start..<(start + Int(d.dataByteSize))]
        }
        let path = temporaryAudioPath("scattered.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: source.dataFormat)
        try writer.setMagicCookie(try #require(source.magicCookie))
        #expect(try writer.writePackets(startingPacket: 0, bytes: buffer, descriptions: descriptions, packetCount: descriptions.count) == descriptions.count)
        try writer.close()
        let copy = try readAllPackets(try AudioFile(path: path))
        #expect(copy.data == original.data)
        #expect(copy.descriptions == original.descriptions)
        #expect(try ffmpegPackets(path).map(\.adler) == (try Fixtures.framecrc("caf-aac-2ch-48000.caf")).map(\.adler))
    }

    /// Packets whose durations vary carry their frames in `mVariableFramesInPacket`; the `pakt`
    /// table records sizes and frames.
    @Test func variableFramesPerPacket() throws {
        let format = AudioStreamBasicDescription(
            sampleRate: 16000, formatID: AudioFormatID("test"), bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
            channelsPerFrame: 1, bitsPerChannel: 0)
        let sizes: [UInt32] = [10, 300, 1, 129, 16384, 7]
        let frames: [UInt32] = [160, 320, 1, 128, 2, 100_000]
        var offset: Int64 = 0
        let descriptions = zip(sizes, frames).map { size, frames in
            defer { offset += Int64(size) }
            return AudioStreamPacketDescription(startOffset: offset, variableFramesInPacket: frames, dataByteSize: size)
        }
        let bytes = patternBytes(Int(offset), seed: 9)
        let path = temporaryAudioPath("vfr.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: format)
        try writer.writePackets(startingPacket: 0, bytes: bytes, descriptions: descriptions, packetCount: 6)
        #expect(writer.totalFrames == Int64(frames.reduce(0) { $0 + Int($1) }))
        #expect(writer.maximumPacketSize == 16384)
        try writer.close()
        let file = try AudioFile(path: path)
        let read = try readAllPackets(file)
        #expect(read.data == bytes)
        #expect(read.descriptions == descriptions)
        #expect(file.totalFrames == writer.totalFrames)
        #expect(file.packetTableInfo?.numberValidFrames == writer.totalFrames)
    }

    /// The guide sets the cookie before recording and again after: a cookie of the same size is
    /// rewritten in place, one of another size goes after the data, and the header's old one
    /// becomes a `free` chunk.
    @Test func cookieSetAgainAfterTheData() throws {
        let source = try AudioFile(path: Fixtures.path("caf-aac-1ch-44100.caf"))
        let cookie = try #require(source.magicCookie)
        let packets = try readAllPackets(source)
        for placeholder in [[UInt8](repeating: 0, count: cookie.count), [1, 2, 3], []] {
            let path = temporaryAudioPath("cookie.caf")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try AudioFileWriter(path: path, type: .caf, format: source.dataFormat)
            try writer.setMagicCookie(placeholder)
            try writer.writePackets(startingPacket: 0, bytes: packets.data, descriptions: packets.descriptions, packetCount: Int(source.packetCount))
            try writer.setMagicCookie(cookie)
            #expect(writer.magicCookie == cookie)
            try writer.close()
            let file = try AudioFile(path: path)
            #expect(file.magicCookie == cookie)
            #expect(try readAllPackets(file).data == packets.data)
            let probe = try ffprobe(path)
            #expect(probe.codec == "aac")
            #expect(probe.channels == 1)
            #expect(try ffmpegPackets(path).map(\.adler) == (try Fixtures.framecrc("caf-aac-1ch-44100.caf")).map(\.adler))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let kuki = bytes.ranges(of: Data("kuki".utf8))
            #expect(kuki.count == 1)
            if placeholder.count != cookie.count, let at = kuki.first {
                #expect(at.lowerBound > Int(file.dataOffset), "a cookie of another size follows the data")
            }
        }
    }

    /// IMA4's last packet is padded: the remainder goes in a `pakt` chunk of constant-size data.
    @Test func ima4RemainderInCAF() throws {
        let bytes = try FileWritingTests.audio(for: ima4(44100, 2))
        let packets = bytes.count / 68
        let path = temporaryAudioPath("ima4.caf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .caf, format: ima4(44100, 2))
        try writer.writePackets(startingPacket: 0, bytes: bytes, packetCount: packets)
        #expect(writer.packetTableInfo == nil)
        expectError(.parameter) {
            try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: Int64(packets * 64), primingFrames: 0, remainderFrames: 37))
        }
        expectError(.parameter) {
            try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: Int64(packets * 64) + 37, primingFrames: -37, remainderFrames: 0))
        }
        expectError(.parameter) {
            try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: .max, primingFrames: .max, remainderFrames: 1))
        }
        let info = AudioFilePacketTableInfo(numberValidFrames: Int64(packets * 64 - 37), primingFrames: 0, remainderFrames: 37)
        try writer.setPacketTableInfo(info)
        #expect(writer.packetTableInfo == info)
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.packetTableInfo == info)
        #expect(file.validFrames == Int64(packets * 64 - 37))
        #expect(try file.readPackets(from: 0, count: packets).data == bytes)
        let probe = try ffprobe(path)
        #expect(probe.codec == "adpcm_ima_qt")
        #expect(probe.readPackets == Int64(packets))
        #expect(try ffmpegPackets(path).count == packets)
    }

    /// ffmpeg's layout names for the layouts of its own fixtures, written into CAF and AIFF.
    @Test(arguments: ["caf-pcm_s16le-6ch-48000.caf", "caf-pcm_f32be-2ch-48000.caf", "aiff-pcm_s16be-6ch-22050.aiff", "caf-pcm_f32le-1ch-44100.caf"])
    func layoutsInCAFAndAIFF(name: String) throws {
        let source = try AudioFile(path: Fixtures.path(name))
        let layout = try #require(source.channelLayout)
        let expected = try #require(Fixtures.ffprobe(name)?.channelLayout)
        let channels = source.dataFormat.channelsPerFrame
        for type in [AudioFileType.caf, .aiff] {
            let path = temporaryAudioPath("layout")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: channels, bitsPerChannel: 16, isBigEndian: true)
            let writer = try AudioFileWriter(path: path, type: type, format: format)
            try writer.setChannelLayout(layout)
            try writer.writePackets(startingPacket: 0, bytes: patternBytes(100 * Int(format.bytesPerPacket)), packetCount: 100)
            #expect(writer.channelLayout == layout)
            try writer.close()
            #expect(try AudioFile(path: path).channelLayout == layout)
            #expect(try ffprobe(path).channelLayout == expected, "\(type)")
        }
    }

    /// A layout set after the data has started: in place where the chunk keeps its size, after
    /// the data otherwise.
    @Test func layoutChangedAfterTheData() throws {
        let stereo = AudioChannelLayout(tag: .stereo)
        let described = AudioChannelLayout(tag: .useChannelDescriptions, descriptions: [.init(label: .left), .init(label: .right)])
        for type in [AudioFileType.caf, .aiff] {
            for (first, second) in [(stereo, AudioChannelLayout(tag: .matrixStereo)), (stereo, described), (described, stereo)] {
                let path = temporaryAudioPath("relayout")
                defer { try? FileManager.default.removeItem(atPath: path) }
                let format = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16, isBigEndian: true)
                let writer = try AudioFileWriter(path: path, type: type, format: format, channelLayout: first)
                try writer.writePackets(startingPacket: 0, bytes: patternBytes(400), packetCount: 100)
                try writer.setChannelLayout(second)
                try writer.writePackets(startingPacket: 100, bytes: patternBytes(401), packetCount: 100)
                try writer.close()
                let file = try AudioFile(path: path)
                #expect(file.channelLayout == second, "\(type) \(first) → \(second)")
                #expect(try file.readPackets(from: 0, count: 200).data == patternBytes(400) + patternBytes(401).prefix(400))
                // ffmpeg demuxes exactly the data chunk; its duration estimate for CAF PCM counts
                // the bytes of chunks after the data too, so its frame count is the reference.
                let probe = try ffprobe(path)
                #expect(probe.stream["nb_frames"] as? String == "200", "\(type)")
                #expect(try ffmpegPackets(path).reduce(0) { $0 + $1.size } == 800)
            }
        }
    }

    /// WAVE records a layout as its speaker mask: labels in WAVE's order become the mask, others
    /// are refused.
    @Test func waveSpeakerMask() throws {
        let labels: [AudioChannelLabel] = [.left, .right, .center, .lfeScreen, .leftSurround, .rightSurround]
        let layout = AudioChannelLayout(tag: .useChannelDescriptions, descriptions: labels.map { .init(label: $0) })
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 6, bitsPerChannel: 16)
        let path = temporaryAudioPath("mask.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFileWriter(path: path, type: .wave, format: format, channelLayout: layout)
        #expect(writer.channelLayout == AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: 0x3F)))
        try writer.writePackets(startingPacket: 0, bytes: patternBytes(1200), packetCount: 100)
        // C L R … is not WAVE's order; 5.1 with side speakers is (ffmpeg's "5.1(side)", 0x60F).
        expectError(.parameter) { try writer.setChannelLayout(AudioChannelLayout(tag: .mpeg_5_1_D)) }
        try writer.setChannelLayout(AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: 0x60F)))
        try writer.close()
        let file = try AudioFile(path: path)
        #expect(file.channelLayout == AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: 0x60F)))
        #expect(try ffprobe(path).channelLayout == "5.1(side)")

        let stereoPath = temporaryAudioPath("stereo.wav")
        defer { try? FileManager.default.removeItem(atPath: stereoPath) }
        let stereo = try AudioFileWriter(path: stereoPath, type: .wave, format: .linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16))
        try stereo.writePackets(startingPacket: 0, bytes: patternBytes(40), packetCount: 10)
        // A plain 16-bit stereo header has no mask to change once audio follows it.
        expectError(.operationNotSupported) { try stereo.setChannelLayout(AudioChannelLayout(tag: .stereo)) }
        try stereo.close()
        let masked = temporaryAudioPath("masked.wav")
        defer { try? FileManager.default.removeItem(atPath: masked) }
        let before = try AudioFileWriter(path: masked, type: .wave, format: .linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16))
        try before.setChannelLayout(AudioChannelLayout(tag: .stereo))
        try before.writePackets(startingPacket: 0, bytes: patternBytes(40), packetCount: 10)
        try before.close()
        #expect(try AudioFile(path: masked).channelLayout == AudioChannelLayout(bitmap: [.left, .right]))
        #expect(try ffprobe(masked).channelLayout == "stereo")
    }

    /// Properties WAVE and AIFF do not have.
    @Test func propertiesTheContainerLacks() throws {
        for type in [AudioFileType.wave, .aiff] {
            let path = temporaryAudioPath("lacks")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try AudioFileWriter(path: path, type: type, format: .linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isBigEndian: type == .aiff))
            expectError(.invalidChunk) { try writer.setMagicCookie([1, 2, 3]) }
            expectError(.unsupportedProperty) {
                try writer.setPacketTableInfo(AudioFilePacketTableInfo(numberValidFrames: 0, primingFrames: 0, remainderFrames: 0))
            }
            expectError(.parameter) { try writer.setChannelLayout(AudioChannelLayout(tag: .stereo)) }
            #expect(writer.packetTableInfo == nil)
            #expect(writer.magicCookie == nil)
            try writer.close()
        }
    }
}

/// An MPEG-4 ES descriptor (ISO/IEC 14496-1, 7.2.6.5) around an AudioSpecificConfig, as CAF and
/// MP4 files carry AAC's configuration: ES_Descriptor (tag 3) holding a DecoderConfigDescriptor
/// (tag 4: object type 0x40 audio, stream type 5) with the DecoderSpecificInfo (tag 5), then an
/// SLConfigDescriptor (tag 6, predefined 2). Lengths in the four-byte form.
func esds(_ audioSpecificConfig: [UInt8]) -> [UInt8] {
    func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        [tag, 0x80, 0x80, 0x80, UInt8(body.count)] + body
    }
    let specific = descriptor(5, audioSpecificConfig)
    let decoderConfig = descriptor(4, [0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + specific)
    return descriptor(3, [0, 0, 0] + decoderConfig + descriptor(6, [2]))
}
