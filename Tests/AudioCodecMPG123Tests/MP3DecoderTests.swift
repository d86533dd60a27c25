import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecMPG123

@Suite("MP3Decoder against ffmpeg")
struct FixtureDecodeTests {
    @Test func theFixturesAreThere() {
        #expect(MP3Fixtures.names.count == 6, "\(MP3Fixtures.names)")
    }

    /// Every frame through the decoder, compared with ffmpeg's float decode: packets × N frames,
    /// no lag (both count from the first frame, with the synthesis filter bank's 529 frames of
    /// delay in the output), and at least 60 dB on every channel.
    @Test(arguments: MP3Fixtures.names)
    func matchesFFmpeg(_ name: String) throws {
        let stream = try MP3Stream(try MP3Fixtures.bytes(name))
        let reference = try MP3Fixtures.reference(name)
        let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
        let channels = Int(decoder.outputFormat.channelsPerFrame)
        #expect(decoder.maximumFramesPerPacket == stream.header.framesPerPacket)
        #expect(decoder.outputFormat == .linearPCM(
            sampleRate: Double(stream.header.sampleRate), channels: UInt32(channels), bitsPerChannel: 32, isFloat: true))
        let decoded = decodeAll(decoder, stream.packets)
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(decoded.framesPerPacket.allSatisfy { $0 == stream.header.framesPerPacket })
        #expect(decoded.samples.count == stream.packets.count * stream.header.framesPerPacket * channels)
        #expect(reference.count == decoded.samples.count, "ffmpeg decoded \(reference.count / channels) frames")

        let lag = crossCorrelationLag(reference: reference, test: decoded.samples, channels: channels, range: 2304)
        var dbs: [Double] = []
        for c in 0..<channels {
            dbs.append(snr(reference: reference, test: decoded.samples, channels: channels, channel: c, lag: lag))
        }
        print("\(name): \(stream.packets.count) packets, lag \(lag) frames, SNR \(dbs.map { String(format: "%.1f", $0) }) dB"
            + (stream.infoFrame != nil ? ", Info frame and \(stream.id3Bytes)-byte ID3v2 tag skipped" : ""))
        #expect(lag == 0)
        for (c, db) in dbs.enumerated() { #expect(db >= 60, "channel \(c): \(db) dB") }
    }

    /// The fixtures cover what they say: MPEG-1, MPEG-2 and MPEG-2.5, mono, stereo and joint
    /// stereo, Layers II and III, an ID3v2 tag and an Info frame.
    @Test func fixturesCoverTheVariants() throws {
        var seen: Set<String> = []
        for name in MP3Fixtures.names {
            let bytes = try MP3Fixtures.bytes(name)
            let s = try MP3Stream(bytes)
            seen.insert("v\(s.header.version) L\(s.header.layer) \(s.header.mono ? "mono" : "stereo")")
            if s.infoFrame != nil { seen.insert("info") }
            if s.id3Bytes > 0 { seen.insert("id3") }
            // Channel mode 01: joint stereo.
            if s.packets.contains(where: { $0[3] >> 6 == 1 }) { seen.insert("joint") }
        }
        for v in ["v1 L3 stereo", "v2 L3 mono", "v25 L3 stereo", "v1 L2 stereo", "info", "id3", "joint"] {
            #expect(seen.contains(v), "\(v) in \(seen)")
        }
    }

    /// An Info frame given as a packet decodes as the silent frame it is and keeps its place.
    @Test func infoFrameDecodesAsSilence() throws {
        let stream = try MP3Stream(try MP3Fixtures.bytes("tagged-44100-128k.mp3"))
        let info = try #require(stream.infoFrame)
        let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
        let decoded = decodeAll(decoder, [info] + stream.packets)
        #expect(decoded.errors.isEmpty)
        #expect(decoded.framesPerPacket.allSatisfy { $0 == 1152 })
        #expect(decoded.samples[0..<(1152 * 2)].allSatisfy { $0 == 0 })
        // The audio follows one frame later, as decoded without the Info frame.
        let reference = try MP3Fixtures.reference("tagged-44100-128k.mp3")
        let lag = crossCorrelationLag(reference: reference, test: decoded.samples, channels: 2, range: 2304)
        #expect(lag == 1152)
        #expect(snr(reference: reference, test: decoded.samples, channels: 2, channel: 0, lag: lag) >= 60)
    }
}

@Suite("MP3Decoder behaviour")
struct BehaviourTests {
    let name = "stereo-44100-128k.mp3"

    @Test func registersForTheMPEGFormatIDs() throws {
        MP3Decoder.register()
        for id in [AudioFormatID.mpegLayer3, .mpegLayer2, .mpegLayer1] { #expect(AudioDecoders.canDecode(id)) }
        let stream = try MP3Stream(try MP3Fixtures.bytes(name))
        let decoder = try AudioDecoders.make(for: stream.format, magicCookie: nil)
        #expect(decoder is MP3Decoder)
        #expect(decoder.maximumFramesPerPacket == 1152)
    }

    @Test func framesPerPacketByLayerAndVersion() throws {
        func n(_ id: AudioFormatID, _ rate: Double) throws -> Int {
            try MP3Decoder(input: format(id, rate, 2), magicCookie: nil).maximumFramesPerPacket
        }
        #expect(try n(.mpegLayer3, 44100) == 1152)
        #expect(try n(.mpegLayer3, 32000) == 1152)
        #expect(try n(.mpegLayer3, 24000) == 576)
        #expect(try n(.mpegLayer3, 8000) == 576)
        #expect(try n(.mpegLayer2, 22050) == 1152)
        #expect(try n(.mpegLayer1, 48000) == 384)
    }

    @Test func refusesWhatMPEGAudioIsNot() {
        for f in [format(.mpegLayer3, 44000, 2), format(.mpegLayer3, 44100, 3), format(.mpegLayer3, 44100, 0),
                  format(.mpeg4AAC, 44100, 2), format(.mpegLayer3, .nan, 2)] {
            #expect(throws: AudioCodecError.self) { try MP3Decoder(input: f, magicCookie: nil) }
        }
    }

    @Test func refusesAnUnfitBuffer() throws {
        let stream = try MP3Stream(try MP3Fixtures.bytes(name))
        let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
        let wrong = PCMBuffer(format: .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true), frameCapacity: 4096)!
        #expect(decodeOne(decoder, stream.packets[0], into: wrong)?.code == .invalidOutputSize)
        let small = PCMBuffer(format: decoder.outputFormat, frameCapacity: 1151)!
        #expect(decodeOne(decoder, stream.packets[0], into: small)?.code == .invalidOutputSize)
        #expect(small.frameLength == 0)
        let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: 3000)!
        #expect(decodeOne(decoder, stream.packets[0], into: buffer) == nil)
        #expect(decodeOne(decoder, stream.packets[1], into: buffer) == nil)
        #expect(buffer.frameLength == 2304)
    }

    /// reset() makes the next packets decode exactly as a new decoder decodes them.
    @Test func resetDecodesLikeANewDecoder() throws {
        let stream = try MP3Stream(try MP3Fixtures.bytes(name))
        let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
        _ = decodeAll(decoder, Array(stream.packets[0..<5]))
        decoder.reset()
        let afterReset = decodeAll(decoder, Array(stream.packets[7...]))
        let fresh = decodeAll(try MP3Decoder(input: stream.format, magicCookie: nil), Array(stream.packets[7...]))
        #expect(afterReset.errors.isEmpty)
        let same = afterReset.samples == fresh.samples
        #expect(same)
        #expect(afterReset.samples.count == (stream.packets.count - 7) * 1152 * 2)
    }

    /// A packet that is not a frame of the stream appends silence of a packet's length, throws
    /// badData and leaves the decoder as it was (ffmpeg drops such a packet): the next packets
    /// decode as if it had not been there.
    @Test func badPacketIsConcealedBySilence() throws {
        let stream = try MP3Stream(try MP3Fixtures.bytes("mono-22050-48k.mp3"))
        let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
        _ = decodeAll(decoder, Array(stream.packets[0..<4]))
        let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: 576)!
        let bad: [[UInt8]] = [
            [], [0xFF], Array(repeating: 0x55, count: 200), Array(stream.packets[4].prefix(40)),
            // Another layer, another rate.
            [0xFF, 0xFB, 0x90, 0x64] + Array(repeating: 0, count: 500),
            [0xFF, 0xF5] + Array(stream.packets[4].dropFirst(2)),
        ]
        for packet in bad {
            buffer.frameLength = 0
            let error = decodeOne(decoder, packet, into: buffer)
            #expect(error?.code == .badData, "\(packet.prefix(4))")
            #expect(buffer.frameLength == 576)
            #expect((0..<576).allSatisfy { buffer.region(0).load(fromByteOffset: 4 * $0, as: Float.self) == 0 })
        }
        let after = decodeAll(decoder, Array(stream.packets[5...]))
        let without = decodeAll(try MP3Decoder(input: stream.format, magicCookie: nil), Array(stream.packets[0..<4] + stream.packets[5...]))
        #expect(after.errors.isEmpty)
        let same = after.samples == Array(without.samples.suffix(after.samples.count))
        #expect(same)
    }

    /// Random bytes and mutated frames never trap; every call appends exactly one packet's frames.
    @Test func garbageNeverTraps() throws {
        var rng = SplitMix(state: 0x6D70_3364_6563)
        var failures = 0
        var calls = 0
        for name in MP3Fixtures.names {
            let stream = try MP3Stream(try MP3Fixtures.bytes(name))
            let decoder = try MP3Decoder(input: stream.format, magicCookie: nil)
            let n = decoder.maximumFramesPerPacket
            let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: n)!
            for i in 0..<600 {
                var packet: [UInt8]
                switch i % 4 {
                case 0:  // random bytes
                    packet = (0..<Int.random(in: 0...1500, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                case 1:  // a valid header, random body
                    packet = Array(stream.packets[i % stream.packets.count].prefix(4))
                        + (0..<Int.random(in: 0...1500, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                default:  // a frame with a few bytes changed, or truncated
                    packet = stream.packets[i % stream.packets.count]
                    for _ in 0..<Int.random(in: 1...8, using: &rng) {
                        let at = i % 8 == 2 ? Int.random(in: 0..<min(8, packet.count), using: &rng) : Int.random(in: 0..<packet.count, using: &rng)
                        packet[at] = UInt8.random(in: 0...255, using: &rng)
                    }
                    if i % 16 == 3 { packet = Array(packet.prefix(Int.random(in: 0..<packet.count, using: &rng))) }
                }
                buffer.frameLength = 0
                if let error = decodeOne(decoder, packet, into: buffer) {
                    #expect(error.code == .badData)
                    failures += 1
                }
                calls += 1
                #expect(buffer.frameLength == n)
                if buffer.frameLength != n { return }
                // Every sample is a number.
                let region = buffer.region(0)
                let samples = n * Int(decoder.outputFormat.channelsPerFrame)
                #expect((0..<samples).allSatisfy { region.load(fromByteOffset: 4 * $0, as: Float.self).isFinite })
            }
            // Still decodes after all that.
            decoder.reset()
            let decoded = decodeAll(decoder, Array(stream.packets.prefix(4)))
            #expect(decoded.errors.isEmpty)
        }
        print("garbage: \(calls) packets, \(failures) concealed")
        #expect(calls == 600 * MP3Fixtures.names.count)
    }
}

func format(_ id: AudioFormatID, _ rate: Double, _ channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        sampleRate: rate, formatID: id, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
        channelsPerFrame: channels, bitsPerChannel: 0)
}
