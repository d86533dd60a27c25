import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices

/// One file to write: container, format, and the container the file should say it is.
struct WriteCase: Sendable, CustomTestStringConvertible {
    let type: AudioFileType
    let format: AudioStreamBasicDescription
    let expectedType: AudioFileType
    var testDescription: String { "\(type) \(ffmpegCodec(format)) \(format.channelsPerFrame)ch \(Int(format.sampleRate))" }
}

private func pcm(_ rate: Double, _ channels: UInt32, _ bits: UInt32, float: Bool = false, big: Bool = false, signed: Bool = true) -> AudioStreamBasicDescription {
    .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bits, isFloat: float, isBigEndian: big, isSigned: signed)
}

private func g711(_ id: AudioFormatID, _ rate: Double, _ channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        sampleRate: rate, formatID: id, bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels,
        channelsPerFrame: channels, bitsPerChannel: 8)
}

func ima4(_ rate: Double, _ channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        sampleRate: rate, formatID: .appleIMA4, bytesPerPacket: 34 * channels, framesPerPacket: 64, bytesPerFrame: 0,
        channelsPerFrame: channels, bitsPerChannel: 0)
}

@Suite("Writing files, read back by ffprobe and AudioFile")
struct FileWritingTests {
    static let constantSizeCases: [WriteCase] = [
        // CAF: linear PCM in every width and byte order, G.711, IMA4.
        WriteCase(type: .caf, format: pcm(8000, 1, 8), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(44100, 2, 16), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(44100, 2, 16, big: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(48000, 1, 24), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(96000, 2, 24, big: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(22050, 2, 32), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(8000, 1, 32, big: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(44100, 6, 32, float: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(48000, 2, 32, float: true, big: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(11025, 1, 64, float: true), expectedType: .caf),
        WriteCase(type: .caf, format: pcm(22050, 2, 64, float: true, big: true), expectedType: .caf),
        WriteCase(type: .caf, format: g711(.uLaw, 8000, 1), expectedType: .caf),
        WriteCase(type: .caf, format: g711(.aLaw, 11025, 2), expectedType: .caf),
        WriteCase(type: .caf, format: ima4(44100, 2), expectedType: .caf),
        WriteCase(type: .caf, format: ima4(22050, 1), expectedType: .caf),
        // WAVE: 8-bit unsigned, wider signed, float, G.711; more than two channels is extensible.
        WriteCase(type: .wave, format: pcm(8000, 1, 8, signed: false), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(44100, 2, 16), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(48000, 6, 16), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(96000, 2, 24), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(22050, 1, 32), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(44100, 2, 32, float: true), expectedType: .wave),
        WriteCase(type: .wave, format: pcm(8000, 1, 64, float: true), expectedType: .wave),
        WriteCase(type: .wave, format: g711(.uLaw, 8000, 2), expectedType: .wave),
        WriteCase(type: .wave, format: g711(.aLaw, 8000, 1), expectedType: .wave),
        // AIFF for big-endian integer; AIFF-C for the rest, and when asked for.
        WriteCase(type: .aiff, format: pcm(8000, 1, 8), expectedType: .aiff),
        WriteCase(type: .aiff, format: pcm(44100, 2, 16, big: true), expectedType: .aiff),
        WriteCase(type: .aiff, format: pcm(96000, 2, 24, big: true), expectedType: .aiff),
        WriteCase(type: .aiff, format: pcm(48000, 1, 32, big: true), expectedType: .aiff),
        WriteCase(type: .aifc, format: pcm(22050, 2, 16, big: true), expectedType: .aifc),
        WriteCase(type: .aiff, format: pcm(8000, 1, 16), expectedType: .aifc),
        WriteCase(type: .aiff, format: pcm(8000, 1, 8, signed: false), expectedType: .aifc),
        WriteCase(type: .aiff, format: pcm(44100, 2, 32, float: true, big: true), expectedType: .aifc),
        WriteCase(type: .aiff, format: pcm(22050, 1, 64, float: true, big: true), expectedType: .aifc),
        WriteCase(type: .aiff, format: g711(.uLaw, 11025, 2), expectedType: .aifc),
        WriteCase(type: .aiff, format: g711(.aLaw, 8000, 1), expectedType: .aifc),
        WriteCase(type: .aiff, format: ima4(44100, 2), expectedType: .aifc),
        WriteCase(type: .aifc, format: ima4(22050, 1), expectedType: .aifc),
    ]

    /// The audio for a case: real IMA4 packets from the codec fixtures, else 1001 frames of bytes
    /// (an odd count, so 8-bit mono needs a pad byte in RIFF and IFF).
    static func audio(for format: AudioStreamBasicDescription) throws -> [UInt8] {
        if format.formatID == .appleIMA4 {
            let name = format.channelsPerFrame == 1 ? "ima4-1ch-22050.ima4" : "ima4-2ch-44100.ima4"
            let url = Fixtures.root.appendingPathComponent("codecs").appendingPathComponent(name)
            return [UInt8](try Data(contentsOf: url))
        }
        return patternBytes(1001 * Int(format.bytesPerPacket), seed: format.channelsPerFrame &* 7 &+ format.bitsPerChannel)
    }

    @Test(arguments: constantSizeCases)
    func constantSizePackets(_ c: WriteCase) throws {
        let path = temporaryAudioPath("case")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try Self.audio(for: c.format)
        let size = Int(c.format.bytesPerPacket)
        let packets = bytes.count / size
        #expect(packets * size == bytes.count)

        // As the guide's recording callback does: packets at the current packet index, a
        // buffer at a time.
        let writer = try AudioFileWriter(path: path, type: c.type, format: c.format)
        var next: Int64 = 0
        let batch = 300
        while next < Int64(packets) {
            let n = min(batch, packets - Int(next))
            let slice = Array(bytes[(Int(next) * size)..<((Int(next) + n) * size)])
            let written = try writer.writePackets(startingPacket: next, bytes: slice, packetCount: n)
            #expect(written == n)
            next += Int64(written)
        }
        #expect(writer.packetCount == Int64(packets))
        #expect(writer.dataByteCount == Int64(bytes.count))
        #expect(writer.maximumPacketSize == size)
        #expect(writer.fileType == c.expectedType)
        try writer.close()

        // This package's reader: the same packets, format and properties.
        let file = try AudioFile(path: path)
        #expect(file.fileType == c.expectedType)
        #expect(file.dataFormat == writer.dataFormat)
        #expect(file.dataFormat.formatID == c.format.formatID)
        #expect(file.dataFormat.sampleRate == c.format.sampleRate)
        #expect(file.dataFormat.channelsPerFrame == c.format.channelsPerFrame)
        #expect(file.dataFormat.bytesPerPacket == c.format.bytesPerPacket)
        #expect(file.dataFormat.framesPerPacket == c.format.framesPerPacket)
        #expect(file.packetCount == Int64(packets))
        #expect(file.dataByteCount == Int64(bytes.count))
        #expect(file.maximumPacketSize == size)
        #expect(file.dataOffset == writer.dataOffset)
        #expect(file.dataOffset % 4096 == 0, "audio data starts on a page boundary unless asked not to")
        #expect(try file.readPackets(from: 0, count: packets).data == bytes)
        #expect(file.packetTableInfo == nil)

        // ffprobe: codec, rate, channels and length.
        let probe = try ffprobe(path)
        #expect(probe.codec == ffmpegCodec(c.format))
        #expect(probe.sampleRate == c.format.sampleRate)
        #expect(probe.channels == Int(c.format.channelsPerFrame))
        #expect(probe.durationTS == Int64(packets) * Int64(c.format.framesPerPacket))
        if c.format.formatID == .appleIMA4 {
            #expect(probe.readPackets == Int64(packets))
        }
    }

    @Test func pageAlignmentCanBeTurnedOff() throws {
        for type in [AudioFileType.caf, .wave, .aiff] {
            let path = temporaryAudioPath("unaligned")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try AudioFileWriter(path: path, type: type, format: pcm(8000, 1, 16, big: type == .aiff), flags: .dontPageAlignAudioData)
            try writer.writePackets(startingPacket: 0, bytes: patternBytes(200), packetCount: 100)
            try writer.close()
            let file = try AudioFile(path: path)
            #expect(file.dataOffset < 100, "\(type): data at \(file.dataOffset)")
            #expect(file.dataOffset == writer.dataOffset)
            #expect(try file.readPackets(from: 0, count: 100).data == patternBytes(200))
            #expect(try ffprobe(path).durationTS == 100)
        }
    }
}
