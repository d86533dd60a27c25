import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFAAD
import AudioFileServices
import AudioTestSupport

@Suite("AACDecoder behaviour")
struct DecodeBehaviourTests {
    let stereo = "nopns-adts-aac-2ch-22050.aac"
    let caf = "nopns-caf-aac-2ch-48000.caf"

    @Test func registersForTheAACFormatIDs() throws {
        AACDecoder.register()
        for id in [AudioFormatID.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2] {
            #expect(AudioDecoders.canDecode(id))
        }
        let decoder = try AudioDecoders.make(for: aacFormat(44100, 2), magicCookie: aac44100Stereo)
        #expect(decoder is AACDecoder)
        #expect(decoder.outputFormat == float32(44100, 2))
    }

    @Test func refusesAnUnfitBuffer() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let wrongFormat = PCMBuffer(format: float32(44100, 2), frameCapacity: 4096)!
        #expect(decodeOne(decoder, input.packets[0], into: wrongFormat)?.code == .invalidOutputSize)
        #expect(wrongFormat.frameLength == 0)
        let small = PCMBuffer(format: decoder.outputFormat, frameCapacity: 1023)!
        #expect(decodeOne(decoder, input.packets[0], into: small)?.code == .invalidOutputSize)
        #expect(small.frameLength == 0)
        // Frames append after what the buffer holds.
        let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: 3000)!
        #expect(decodeOne(decoder, input.packets[0], into: buffer) == nil)
        #expect(decodeOne(decoder, input.packets[1], into: buffer) == nil)
        #expect(buffer.frameLength == 2048)
        #expect(decodeOne(decoder, input.packets[2], into: buffer)?.code == .invalidOutputSize)
        #expect(buffer.frameLength == 2048)
    }

    /// reset() makes the next packet decode exactly as a new decoder would decode it.
    @Test func resetDecodesLikeANewDecoder() throws {
        let input = try Packets(path: AACFixtures.path(caf))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        _ = decodeAll(decoder, Array(input.packets[0..<5]))
        decoder.reset()
        let afterReset = decodeAll(decoder, Array(input.packets[7...]))
        let fresh = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), Array(input.packets[7...]))
        #expect(afterReset.errors.isEmpty)
        #expect(afterReset.framesPerPacket.allSatisfy { $0 == 1024 })
        #expect(afterReset.samples == fresh.samples)
        // From the second packet after the seek on, the decode is the stream's own.
        let reference = try AACFixtures.reference(caf)
        let tail = Array(reference[(8 * 1024 * 2)...])
        let decodedTail = Array(afterReset.samples[(1024 * 2)...])
        for c in 0..<2 {
            let db = snr(reference: tail, refChannels: 2, refChannel: c, test: decodedTail, testChannels: 2, testChannel: c)
            #expect(db >= 100, "channel \(c) after reset: \(db) dB")
        }
    }

    /// Random bytes, all zeros, all ones: each packet appends exactly its frames and either
    /// decodes or throws badData; nothing traps.
    @Test(arguments: ["nopns-adts-aac-1ch-8000.aac", "nopns-adts-aac-2ch-22050.aac", "nopns-adts-aac-6ch-48000.aac",
                      "nopns-caf-aac-2ch-48000.caf"])
    func garbagePacketsNeverTrap(name: String) throws {
        let input = try Packets(path: AACFixtures.path(name))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let frames = decoder.maximumFramesPerPacket
        var rng = SplitMix(seed: UInt64(name.utf8.count))
        var packets: [[UInt8]] = [[0], [0xFF], [UInt8](repeating: 0, count: 300), [UInt8](repeating: 0xFF, count: 3000),
                                  Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 200)]
        for _ in 0..<400 {
            let size = 1 + Int(rng.next() % 1500)
            packets.append((0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let decoded = decodeAll(decoder, packets)
        #expect(decoded.framesPerPacket.allSatisfy { $0 == frames })
        #expect(decoded.errors.values.allSatisfy { $0.code == .badData })
        #expect(decoded.errors.count > packets.count / 2, "most random packets are refused")
        #expect(decoded.samples.allSatisfy { $0.isFinite })
        // The stream still decodes afterwards: the second packet after the garbage is exact.
        decoder.reset()
        let good = decodeAll(decoder, Array(input.packets.prefix(3)))
        #expect(good.errors.isEmpty && good.framesPerPacket.allSatisfy { $0 == frames })
    }

    /// An empty packet is badData and silence of a packet's length.
    @Test func emptyPacketIsConcealed() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: 1024)!
        buffer.region(0).initializeMemory(as: UInt8.self, repeating: 0x7F)
        #expect(decodeOne(decoder, [], into: buffer)?.code == .badData)
        #expect(buffer.frameLength == 1024)
        let region = buffer.region(0)
        #expect((0..<2048).allSatisfy { region.load(fromByteOffset: 4 * $0, as: Float.self) == 0 })
    }

    /// Every packet cut short at several lengths: no trap, frames kept, badData or a decode.
    @Test func truncatedPackets() throws {
        for name in [stereo, "nopns-adts-aac-6ch-48000.aac"] {
            let input = try Packets(path: AACFixtures.path(name))
            let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
            var cut: [[UInt8]] = []
            for packet in input.packets {
                for length in [1, 2, 5, packet.count / 3, packet.count / 2, packet.count - 1] where length > 0 {
                    cut.append(Array(packet.prefix(length)))
                }
            }
            let decoded = decodeAll(decoder, cut)
            #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
            #expect(decoded.errors.values.allSatisfy { $0.code == .badData })
            #expect(!decoded.errors.isEmpty)
        }
    }

    /// One packet of a valid stream overwritten by garbage: that packet is badData and silence;
    /// the stream goes on, and from the second packet after it the decode matches ffmpeg's
    /// decode of the intact stream again.
    @Test(arguments: ["nopns-adts-aac-2ch-96000.aac", "nopns-caf-aac-2ch-48000.caf", "nopns-adts-aac-6ch-48000.aac"])
    func oneCorruptPacketMidStream(name: String) throws {
        let input = try Packets(path: AACFixtures.path(name))
        let channels = Int(input.format.channelsPerFrame)
        let bad = 3
        var packets = input.packets
        var rng = SplitMix(seed: 7)
        packets[bad] = (0..<packets[bad].count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let decoded = decodeAll(decoder, packets)
        #expect(Array(decoded.errors.keys) == [bad], "\(decoded.errors)")
        #expect(decoded.errors[bad]?.code == .badData)
        #expect(decoded.errors[bad]?.reason.hasPrefix("faad2") == true, "\(String(describing: decoded.errors[bad]))")
        #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
        #expect(decoded.frameCount == packets.count * 1024)
        let silence = decoded.samples[(bad * 1024 * channels)..<((bad + 1) * 1024 * channels)]
        #expect(silence.allSatisfy { $0 == 0 })

        let reference = try AACFixtures.reference(name)
        let map = AACFixtures.ffmpegToAAC(channels: channels)
        for c in 0..<channels {
            let before = snr(reference: reference, refChannels: channels, refChannel: c,
                             test: decoded.samples, testChannels: channels, testChannel: map[c], frames: bad * 1024)
            let after = snr(reference: reference, refChannels: channels, refChannel: c,
                            test: decoded.samples, testChannels: channels, testChannel: map[c], from: (bad + 2) * 1024)
            #expect(before >= 100 && after >= 60, "\(name) channel \(c): \(before) dB before, \(after) dB after")
        }
    }

    /// A packet of several raw data blocks (an ADTS frame with more than one) whose frame count
    /// says so decodes them all.
    @Test func packetOfSeveralRawDataBlocks() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let one = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), Array(input.packets[0..<4]))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let joined = decodeAll(decoder, [input.packets[0] + input.packets[1], input.packets[2] + input.packets[3]],
                               frames: [2048, 2048])
        #expect(joined.errors.isEmpty)
        #expect(joined.framesPerPacket == [2048, 2048])
        #expect(joined.samples == one.samples)
        // A frame count claiming more blocks than the packet holds: the rest is concealed.
        let short = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), [input.packets[0]], frames: [3072])
        #expect(short.framesPerPacket == [3072] && short.errors[0]?.code == .badData)
    }

    /// Explicit SBR signalling over an LC stream (no SBR data): faad2 runs its SBR filter bank
    /// and every packet gives 2048 frames at twice the rate, as the output format said.
    @Test func upsampledSBRDecodesAtTheAnnouncedRate() throws {
        let input = try Packets(path: AACFixtures.path(stereo))
        let core = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), input.packets)
        var b = Bits()
        b.put(5, 5); b.put(7, 4); b.put(2, 4); b.put(4, 4); b.put(2, 5); b.put(0, 3)  // 22050 → 44100
        for (format, cookie) in [(input.format, b.bytes), (aacFormat(44100, 2, id: .mpeg4AAC_HE), input.cookie)] {
            let decoder = try AACDecoder(input: format, magicCookie: cookie)
            #expect(decoder.outputFormat == float32(44100, 2) && decoder.maximumFramesPerPacket == 2048)
            let decoded = decodeAll(decoder, input.packets)
            #expect(decoded.errors.isEmpty, "\(decoded.errors)")
            #expect(decoded.framesPerPacket.allSatisfy { $0 == 2048 })
            // The same tones, at the same level.
            let ratio = rms(decoded.samples) / rms(core.samples)
            #expect(abs(20 * log10(ratio)) < 1, "level changes by \(20 * log10(ratio)) dB")
        }
    }

    /// Downsampled SBR: 1024 frames at the core rate.
    @Test func downsampledSBRDecodesAtTheCoreRate() throws {
        let input = try Packets(path: AACFixtures.path("nopns-adts-aac-2ch-96000.aac"))
        var b = Bits()
        b.put(5, 5); b.put(0, 4); b.put(2, 4); b.put(0, 4); b.put(2, 5); b.put(0, 3)
        let decoder = try AACDecoder(input: input.format, magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(96000, 2) && decoder.sbrMode == .downsampled)
        let decoded = decodeAll(decoder, input.packets)
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
    }

    /// A mono core described as two channels ('aacp' or 2 channels): faad2's two channels.
    @Test func monoCoreAsStereo() throws {
        let input = try Packets(path: AACFixtures.path("nopns-adts-aac-1ch-44100.aac"))
        let mono = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), input.packets)
        let decoder = try AACDecoder(input: aacFormat(44100, 2), magicCookie: input.cookie)
        #expect(decoder.outputFormat == float32(44100, 2))
        let stereo = decodeAll(decoder, input.packets)
        #expect(stereo.errors.isEmpty)
        #expect(stereo.frameCount == mono.frameCount)
        var identical = true
        for f in 0..<mono.frameCount where stereo.samples[2 * f] != mono.samples[f] || stereo.samples[2 * f + 1] != mono.samples[f] {
            identical = false
        }
        #expect(identical, "both channels carry the mono core")
    }

    /// 5.1 described by a program config element decodes as with channel configuration 6.
    @Test func programConfigElementStream() throws {
        let input = try Packets(path: AACFixtures.path("nopns-adts-aac-6ch-48000.aac"))
        let byConfiguration = decodeAll(try AACDecoder(input: input.format, magicCookie: input.cookie), input.packets)
        let decoder = try AACDecoder(input: input.format, magicCookie: AudioSpecificConfigTests.pce51(comment: [1, 2]))
        let byPCE = decodeAll(decoder, input.packets)
        #expect(byPCE.errors.isEmpty, "\(byPCE.errors)")
        #expect(byPCE.samples == byConfiguration.samples)
    }
}

func rms(_ samples: [Float]) -> Double {
    (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
}


/// `packet` (a raw data block ending in ID_END and zero padding) with a fill element carrying
/// SBR extension data put before its ID_END: extension type EXT_SBR_DATA (13) and
/// bs_header_flag 0 (ISO/IEC 14496-3, 4.4.2.7 and 4.5.2.8), which is how SBR shows itself in a
/// stream that does not signal it.
func withSBRFillElement(_ packet: [UInt8]) -> [UInt8]? {
    var bits: [Int] = []
    for byte in packet { for i in (0..<8).reversed() { bits.append(Int(byte >> UInt8(i)) & 1) } }
    guard let last = bits.lastIndex(of: 1), last >= 2, bits[(last - 2)...last] == [1, 1, 1] else { return nil }
    var out = Array(bits[..<(last - 2)])
    func put(_ value: Int, _ width: Int) { for i in (0..<width).reversed() { out.append((value >> i) & 1) } }
    put(6, 3)  // ID_FIL
    put(2, 4)  // count: 2 bytes
    put(13, 4); put(0, 1); put(0, 11)  // EXT_SBR_DATA, no header, padding to 2 bytes
    put(7, 3)  // ID_END
    while out.count % 8 != 0 { out.append(0) }
    return stride(from: 0, to: out.count, by: 8).map { i in out[i..<(i + 8)].reduce(0) { UInt8($0) << 1 | UInt8($1) } }
}

@Suite("SBR the stream does not signal")
struct ImplicitSBRTests {
    /// SBR data from the first packet (implicit signalling): the decoder switches to downsampled
    /// SBR before decoding anything, so the output keeps the core rate, 1024 frames a packet and
    /// one timing throughout (faad2's SBR filter bank delays it by 481 frames).
    @Test(arguments: ["nopns-adts-aac-2ch-22050.aac", "nopns-adts-aac-1ch-8000.aac", "nopns-adts-aac-2ch-96000.aac"])
    func implicitSBRFromTheFirstPacket(name: String) throws {
        let input = try Packets(path: AACFixtures.path(name))
        let channels = Int(input.format.channelsPerFrame)
        let packets = try input.packets.map { try #require(withSBRFillElement($0)) }
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        #expect(decoder.sbrMode == .off)
        let decoded = decodeAll(decoder, packets)
        #expect(decoder.sbrMode == .downsampled)
        #expect(decoder.outputFormat == float32(input.format.sampleRate, UInt32(channels)))
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
        let reference = try AACFixtures.reference(name)
        let lag = bestAlignment(reference: reference, test: decoded.samples, channels: channels,
                                map: Array(0..<channels), range: 600)
        #expect(lag == 481)
        for c in 0..<channels {
            let db = snr(reference: reference, refChannels: channels, refChannel: c,
                         test: decoded.samples, testChannels: channels, testChannel: c, lag: lag)
            #expect(db >= 40, "channel \(c): \(db) dB")
        }
    }

    /// SBR data appearing in one packet later on is an error in faad2 ("First SBR frame is not
    /// the same as first AAC frame"): that packet is badData and silence, the mode and timing
    /// stay, and the stream goes on.
    @Test(arguments: ["nopns-adts-aac-2ch-22050.aac", "nopns-adts-aac-1ch-8000.aac", "nopns-adts-aac-2ch-96000.aac"])
    func sbrAppearingMidStream(name: String) throws {
        let input = try Packets(path: AACFixtures.path(name))
        let channels = Int(input.format.channelsPerFrame)
        var packets = input.packets
        let bad = 1
        packets[bad] = try #require(withSBRFillElement(packets[bad]))
        let decoder = try AACDecoder(input: input.format, magicCookie: input.cookie)
        let decoded = decodeAll(decoder, packets)
        #expect(decoder.sbrMode == .off)
        #expect(Array(decoded.errors.keys) == [bad])
        #expect(decoded.errors[bad]?.code == .badData)
        #expect(decoded.errors[bad]?.reason.contains("First SBR frame") == true, "\(String(describing: decoded.errors[bad]))")
        #expect(decoded.framesPerPacket.allSatisfy { $0 == 1024 })
        let reference = try AACFixtures.reference(name)
        for c in 0..<channels {
            let after = snr(reference: reference, refChannels: channels, refChannel: c,
                            test: decoded.samples, testChannels: channels, testChannel: c, from: (bad + 2) * 1024)
            #expect(after >= 60, "channel \(c): \(after) dB after the packet")
        }
    }
}
