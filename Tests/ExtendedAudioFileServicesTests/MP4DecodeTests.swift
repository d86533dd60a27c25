import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import ExtendedAudioFileServices

/// AAC in M4A decoded through faad2 against ffmpeg's decode (Tests/Fixtures/mp4/NAME.f32), which
/// skips the priming frames the edit list or iTunSMPB gives and keeps the rest.
@Suite("MPEG-4 AAC decoding")
struct MP4DecodeTests {
    static let dir = Fixtures.root.appendingPathComponent("mp4")
    static let names = ["aac-2ch-44100.m4a", "aac-1ch-8000.m4a", "built-itunsmpb-2ch-44100.m4a", "built-elst-1ch-48000.m4a"]

    static func reference(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name + ".f32"))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The first packets through AACDecoder configured by the file's magic cookie (the
    /// ES_Descriptor): after the priming frames, ffmpeg's samples within 60 dB.
    @Test(arguments: names)
    func aacDecoderAcceptsTheCookie(name: String) throws {
        let file = try AudioFile(path: Self.dir.appendingPathComponent(name).path)
        let cookie = try #require(file.magicCookie)
        #expect(cookie.first == 0x03, "an ES_Descriptor")
        let decoder = try AACDecoder(input: file.dataFormat, magicCookie: cookie)
        let channels = Int(file.dataFormat.channelsPerFrame)
        #expect(Int(decoder.outputFormat.channelsPerFrame) == channels)
        #expect(decoder.outputFormat.sampleRate == file.dataFormat.sampleRate)
        let packets = 8
        let buffer = try #require(PCMBuffer(format: decoder.outputFormat, frameCapacity: packets * 1024))
        let read = try file.readPackets(from: 0, count: packets)
        var offset = 0
        for description in try #require(read.descriptions) {
            let size = Int(description.dataByteSize)
            _ = try read.data.withUnsafeBytes { raw in
                try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + size)]), frames: nil, into: buffer)
            }
            offset += size
        }
        #expect(buffer.frameLength == packets * 1024)
        let decoded = Array(UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: buffer.frameLength * channels))
        let priming = Int(try #require(file.packetTableInfo).primingFrames)
        let ours = decoded[(priming * channels)...]
        let ffmpeg = try Self.reference(name)
        for channel in 0..<channels {
            let db = snr(ffmpeg[...], ours, channel: channel, channels: channels)
            #expect(db >= 60, "channel \(channel): \(db) dB")
        }
    }

    /// SBR and PS signalled in the ES_Descriptor: the decoder takes the file's description and
    /// cookie and decodes at the SBR rate, 2048 frames per packet, the channels the file reports.
    @Test(arguments: ["built-sbr-signalled-1ch-22050.m4a", "built-ps-signalled-1ch-22050.m4a"])
    func heAACCookies(name: String) throws {
        let file = try AudioFile(path: Self.dir.appendingPathComponent(name).path)
        let decoder = try AACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        #expect(decoder.outputFormat.sampleRate == 44100 && file.dataFormat.sampleRate == 44100)
        #expect(decoder.outputFormat.channelsPerFrame == file.dataFormat.channelsPerFrame)
        #expect(decoder.maximumFramesPerPacket == 2048 && file.dataFormat.framesPerPacket == 2048)
    }

    /// ExtAudioFile: exactly the valid frames, trimmed as the packet table says, within 60 dB of
    /// ffmpeg's decode of the same frames.
    @Test(arguments: names)
    func extAudioFileTrimsAndMatches(name: String) throws {
        AACDecoder.register()
        let reader = try ExtAudioFile(path: Self.dir.appendingPathComponent(name).path)
        let format = reader.clientDataFormat
        let channels = Int(format.channelsPerFrame)
        #expect(format.isFloat && format.bitsPerChannel == 32)
        let buffer = try #require(PCMBuffer(format: format, frameCapacity: 1 << 16))
        while try reader.read(into: buffer, frameCount: buffer.framesFree) > 0 {}
        #expect(Int64(buffer.frameLength) == reader.file.validFrames)
        let ours = Array(UnsafeBufferPointer(start: buffer.region().baseAddress!.assumingMemoryBound(to: Float.self), count: buffer.frameLength * channels))
        let ffmpeg = try Self.reference(name)
        #expect(ffmpeg.count >= ours.count, "ffmpeg keeps the remainder")
        for channel in 0..<channels {
            let db = snr(ffmpeg[...], ours[...], channel: channel, channels: channels)
            #expect(db >= 60, "channel \(channel): \(db) dB")
        }
    }
}
