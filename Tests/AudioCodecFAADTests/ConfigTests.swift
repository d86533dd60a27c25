import Foundation
import ProcessSupport
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFAAD

/// Writes bits most significant first, for building configs as ISO/IEC 14496-3 spells them.
struct Bits {
    private(set) var bytes: [UInt8] = []
    private var count = 0
    mutating func put(_ value: Int, _ width: Int) {
        for i in stride(from: width - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> i) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}

/// An MPEG-4 descriptor with the given length encoding (`lengthBytes` of 1–4, 0x80-continued).
func descriptor(_ tag: UInt8, _ body: [UInt8], lengthBytes: Int = 1) -> [UInt8] {
    var length: [UInt8] = []
    for i in stride(from: lengthBytes - 1, through: 0, by: -1) {
        let seven = UInt8((body.count >> (7 * i)) & 0x7F)
        length.append(i > 0 ? seven | 0x80 : seven)
    }
    return [tag] + length + body
}

/// An ES_Descriptor around `asc` as Apple writes it (4-byte lengths) or with short lengths.
func esDescriptor(
    _ asc: [UInt8], lengthBytes: Int = 4, flags: UInt8 = 0, flagFields: [UInt8] = [], indication: UInt8 = 0x40
) -> [UInt8] {
    let dsi = descriptor(0x05, asc, lengthBytes: lengthBytes)
    let dcd = descriptor(0x04, [indication, 0x15, 0, 0x02, 0xC5, 0, 0x04, 0x0E, 0x93, 0, 0x02, 0x45, 0xAA] + dsi,
                         lengthBytes: lengthBytes)
    let sl = descriptor(0x06, [0x02], lengthBytes: lengthBytes)
    return descriptor(0x03, [0, 0, flags] + flagFields + dcd + sl, lengthBytes: lengthBytes)
}

func atom(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let size = UInt32(8 + body.count)
    return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        + Array(type.utf8) + body
}

/// Expects `body` to throw an ``AudioCodecError`` with `code`.
func expectCodecError(
    _ code: AudioCodecError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as AudioCodecError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch let error as AudioSpecificConfig.ParseError {
        #expect(AudioCodecError(error).code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

let aac44100Stereo: [UInt8] = [0x12, 0x10]  // LC, index 4, 2 channels, GASpecificConfig 000

@Suite("ES_Descriptor magic cookies")
struct MagicCookieTests {
    /// The cookie of the CAF fixtures (Scripts/fixtures/build_caf_aac.py, Apple's layout).
    @Test func appleStyleFourByteLengths() throws {
        let hex = "0380808022000000048080801440150002c500040e93000245aa05808080021190068080800102"
        var cookie: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            cookie.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        #expect(try AACMagicCookie.audioSpecificConfig(from: cookie) == [0x11, 0x90])
        #expect(esDescriptor([0x11, 0x90]) == cookie)
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyLengthForm(lengthBytes: Int) throws {
        #expect(try AACMagicCookie.audioSpecificConfig(from: esDescriptor(aac44100Stereo, lengthBytes: lengthBytes)) == aac44100Stereo)
    }

    @Test func versionAndFlagsPrefix() throws {
        let cookie = [0, 0, 0, 0] + esDescriptor(aac44100Stereo, lengthBytes: 1)
        #expect(try AACMagicCookie.audioSpecificConfig(from: cookie) == aac44100Stereo)
    }

    @Test func wholeEsdsAtom() throws {
        let cookie = atom("esds", [0, 0, 0, 0] + esDescriptor(aac44100Stereo))
        #expect(try AACMagicCookie.audioSpecificConfig(from: cookie) == aac44100Stereo)
    }

    /// QuickTime's sound description extension: frma, mp4a, esds and a terminator, optionally
    /// inside a wave atom.
    @Test func quickTimeWaveAtoms() throws {
        let inner = atom("frma", Array("mp4a".utf8)) + atom("mp4a", [0, 0, 0, 0])
            + atom("esds", [0, 0, 0, 0] + esDescriptor(aac44100Stereo)) + [0, 0, 0, 8, 0, 0, 0, 0]
        #expect(try AACMagicCookie.audioSpecificConfig(from: inner) == aac44100Stereo)
        #expect(try AACMagicCookie.audioSpecificConfig(from: atom("wave", inner)) == aac44100Stereo)
    }

    /// streamDependenceFlag (dependsOn_ES_ID), URL_Flag (length + URL), OCRstreamFlag (OCR_ES_Id).
    @Test func esDescriptorOptionalFields() throws {
        let url = Array("http://x".utf8)
        let all = esDescriptor(aac44100Stereo, flags: 0xE0, flagFields: [0, 7] + [UInt8(url.count)] + url + [0, 9])
        #expect(try AACMagicCookie.audioSpecificConfig(from: all) == aac44100Stereo)
        let dependsOnly = esDescriptor(aac44100Stereo, lengthBytes: 1, flags: 0x80, flagFields: [0, 7])
        #expect(try AACMagicCookie.audioSpecificConfig(from: dependsOnly) == aac44100Stereo)
        let ocrOnly = esDescriptor(aac44100Stereo, lengthBytes: 2, flags: 0x20, flagFields: [0, 9])
        #expect(try AACMagicCookie.audioSpecificConfig(from: ocrOnly) == aac44100Stereo)
    }

    @Test func bareAudioSpecificConfigPassesThrough() throws {
        #expect(try AACMagicCookie.audioSpecificConfig(from: aac44100Stereo) == aac44100Stereo)
        let five: [UInt8] = [0x2B, 0x92, 0x08, 0x00]
        #expect(try AACMagicCookie.audioSpecificConfig(from: five) == five)
    }

    @Test func mpeg2AACIndicationsAreAccepted() throws {
        for indication: UInt8 in [0x66, 0x67, 0x68] {
            #expect(try AACMagicCookie.audioSpecificConfig(from: esDescriptor(aac44100Stereo, indication: indication)) == aac44100Stereo)
        }
    }

    @Test func missingDecoderSpecificInfoIsNil() throws {
        let dcd = descriptor(0x04, [0x40, 0x15] + [UInt8](repeating: 0, count: 11))
        let cookie = descriptor(0x03, [0, 0, 0] + dcd)
        #expect(try AACMagicCookie.audioSpecificConfig(from: cookie) == nil)
        // The decoder then builds the config from the stream description.
        let decoder = try AACDecoder(input: aacFormat(44100, 2), magicCookie: cookie)
        #expect(decoder.audioSpecificConfig.bytes == aac44100Stereo)
    }

    @Test func malformedCookiesThrow() {
        let good = esDescriptor(aac44100Stereo)
        expectCodecError(.badData) { _ = try AACMagicCookie.audioSpecificConfig(from: []) }
        // Cut anywhere inside the descriptors.
        for cut in 1..<good.count - 3 {
            expectCodecError(.badData) { _ = try AACMagicCookie.audioSpecificConfig(from: Array(good.prefix(cut))) }
        }
        // A length longer than the bytes.
        expectCodecError(.badData) { _ = try AACMagicCookie.audioSpecificConfig(from: [0x03, 0x7F, 0, 0, 0]) }
        // A length of five 0x80-continued bytes.
        expectCodecError(.badData) { _ = try AACMagicCookie.audioSpecificConfig(from: [0x03, 0x80, 0x80, 0x80, 0x80, 0x01, 0]) }
        // An ES_Descriptor without a DecoderConfigDescriptor.
        expectCodecError(.badData) {
            _ = try AACMagicCookie.audioSpecificConfig(from: descriptor(0x03, [0, 0, 0] + descriptor(0x06, [2])))
        }
        // A DecoderConfigDescriptor too short for its fixed fields.
        expectCodecError(.badData) {
            _ = try AACMagicCookie.audioSpecificConfig(from: descriptor(0x03, [0, 0, 0] + descriptor(0x04, [0x40, 0x15, 0])))
        }
        // URL length running past the descriptor.
        expectCodecError(.badData) {
            _ = try AACMagicCookie.audioSpecificConfig(from: descriptor(0x03, [0, 0, 0x40, 200, 1, 2]))
        }
        // MP3 (objectTypeIndication 0x6B) is not AAC.
        expectCodecError(.formatNotSupported) {
            _ = try AACMagicCookie.audioSpecificConfig(from: esDescriptor([0x12, 0x10], indication: 0x6B))
        }
        // A decoder made with a malformed cookie throws, never traps.
        expectCodecError(.badData) { _ = try AACDecoder(input: aacFormat(44100, 2), magicCookie: Array(good.prefix(20))) }
    }

    /// Random cookies and random mutations of a valid one: an answer or an error, never a trap.
    @Test func randomCookiesNeverTrap() {
        var rng = SplitMix(seed: 0xC00C1E)
        let good = esDescriptor(aac44100Stereo)
        var outcomes = (parsed: 0, failed: 0)
        for round in 0..<4000 {
            var cookie: [UInt8]
            if round % 2 == 0 {
                cookie = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                if round % 4 == 0, !cookie.isEmpty { cookie[0] = 0x03 }
            } else {
                cookie = good
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    cookie[Int(rng.next() % UInt64(cookie.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            do throws(AudioCodecError) {
                if let asc = try AACMagicCookie.audioSpecificConfig(from: cookie) {
                    do throws(AudioSpecificConfig.ParseError) {
                        _ = try AudioSpecificConfig(bytes: asc)
                    } catch {
                        throw AudioCodecError(error)
                    }
                    _ = try AACDecoder(input: aacFormat(44100, 2), magicCookie: cookie)
                }
                outcomes.parsed += 1
            } catch {
                #expect([.badData, .formatNotSupported].contains(error.code), "\(error)")
                outcomes.failed += 1
            }
        }
        #expect(outcomes.parsed > 0 && outcomes.failed > 0)
    }
}

/// A compressed AAC stream description.
func aacFormat(_ rate: Double, _ channels: UInt32, id: AudioFormatID = .mpeg4AAC, flags: UInt32 = 0) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        sampleRate: rate, formatID: id, formatFlags: AudioFormatFlags(rawValue: flags), bytesPerPacket: 0,
        framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
}

func float32(_ rate: Double, _ channels: UInt32) -> AudioStreamBasicDescription {
    .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 32, isFloat: true)
}

@Suite("AudioSpecificConfig and the output format")
struct AudioSpecificConfigTests {
    /// AudioSpecificConfig: object type (5), sampling index (4), channel configuration (4).
    static func lc(type: Int = 2, index: Int, channels: Int) -> Bits {
        var b = Bits()
        b.put(type, 5)
        b.put(index, 4)
        b.put(channels, 4)
        b.put(0, 3)  // frameLengthFlag, dependsOnCoreCoder, extensionFlag
        return b
    }

    @Test func plainLC() throws {
        let asc = try AudioSpecificConfig(bytes: aac44100Stereo)
        #expect(asc.audioObjectType == 2 && asc.samplingFrequency == 44100 && asc.channelCount == 2)
        #expect(asc.sbr == .unspecified && asc.ps == .unspecified)
        let decoder = try AACDecoder(input: aacFormat(44100, 2), magicCookie: aac44100Stereo)
        #expect(decoder.outputFormat == float32(44100, 2))
        #expect(decoder.maximumFramesPerPacket == 1024 && decoder.sbrMode == .off)
    }

    /// Without a cookie the config comes from the description.
    @Test func configFromStreamDescription() throws {
        #expect(try AACDecoder(input: aacFormat(44100, 2), magicCookie: nil).audioSpecificConfig.bytes == aac44100Stereo)
        #expect(try AACDecoder(input: aacFormat(48000, 1), magicCookie: []).audioSpecificConfig.bytes == [0x11, 0x88])
        let six = try AACDecoder(input: aacFormat(48000, 6), magicCookie: nil)
        #expect(six.audioSpecificConfig.channelConfiguration == 6 && six.outputFormat == float32(48000, 6))
        let eight = try AACDecoder(input: aacFormat(48000, 8), magicCookie: nil)
        #expect(eight.audioSpecificConfig.channelConfiguration == 7 && eight.outputFormat == float32(48000, 8))
        // 'aach' at 44100 Hz: HE-AAC with a 22050 Hz core, the well-known 2B 92 08 00.
        let he = try AACDecoder(input: aacFormat(44100, 2, id: .mpeg4AAC_HE), magicCookie: nil)
        #expect(he.audioSpecificConfig.bytes == [0x2B, 0x92, 0x08, 0x00])
        #expect(he.outputFormat == float32(44100, 2) && he.maximumFramesPerPacket == 2048 && he.sbrMode == .upsampled)
        // 'aacp': HE-AAC v2, a mono core with PS, two channels out.
        let v2 = try AACDecoder(input: aacFormat(48000, 2, id: .mpeg4AAC_HE_V2), magicCookie: nil)
        #expect(v2.audioSpecificConfig.signalledObjectType == 29 && v2.audioSpecificConfig.channelCount == 1)
        #expect(v2.outputFormat == float32(48000, 2) && v2.maximumFramesPerPacket == 2048)
        // Object type in the flags of 'aac ' (kMPEG4Object_AAC_SBR = 5).
        let flagged = try AACDecoder(input: aacFormat(32000, 2, flags: 5), magicCookie: nil)
        #expect(flagged.outputFormat == float32(32000, 2) && flagged.audioSpecificConfig.samplingFrequency == 16000)
        // What cannot be described without a cookie.
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(44000, 2), magicCookie: nil) }
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(44100, 7), magicCookie: nil) }
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(44100, 0), magicCookie: nil) }
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(.nan, 2), magicCookie: nil) }
        expectCodecError(.formatNotSupported) {
            _ = try AACDecoder(input: .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16), magicCookie: nil)
        }
    }

    /// Hierarchical signalling, object type 5: SBR at twice the core rate.
    @Test func explicitHierarchicalSBR() throws {
        var b = Bits()
        b.put(5, 5); b.put(6, 4); b.put(2, 4)  // SBR, core 24000 Hz, stereo
        b.put(3, 4)  // extensionSamplingFrequencyIndex: 48000 Hz
        b.put(2, 5); b.put(0, 3)  // AAC LC, GASpecificConfig
        let asc = try AudioSpecificConfig(bytes: b.bytes)
        #expect(asc.sbr == .present && asc.ps == .unspecified && asc.audioObjectType == 2)
        #expect(asc.samplingFrequency == 24000 && asc.extensionSamplingFrequency == 48000)
        // The description still says the core rate: the cookie wins.
        let decoder = try AACDecoder(input: aacFormat(24000, 2), magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(48000, 2))
        #expect(decoder.maximumFramesPerPacket == 2048 && decoder.sbrMode == .upsampled)
    }

    /// Object type 29: SBR and PS; a mono core decodes to two channels.
    @Test func explicitHierarchicalPS() throws {
        var b = Bits()
        b.put(29, 5); b.put(7, 4); b.put(1, 4)  // PS, core 22050 Hz, mono
        b.put(4, 4)  // 44100 Hz
        b.put(2, 5); b.put(0, 3)
        let asc = try AudioSpecificConfig(bytes: b.bytes)
        #expect(asc.sbr == .present && asc.ps == .present && asc.channelCount == 1)
        let decoder = try AACDecoder(input: aacFormat(22050, 1), magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(44100, 2) && decoder.maximumFramesPerPacket == 2048)
    }

    /// Backward-compatible signalling: sync extension 0x2b7 with SBR, then 0x548 with PS.
    @Test func explicitBackwardCompatibleSBRAndPS() throws {
        var b = Self.lc(index: 8, channels: 1)  // LC, 16000 Hz core, mono
        b.put(0x2B7, 11); b.put(5, 5); b.put(1, 1); b.put(5, 4)  // SBR present, 32000 Hz
        b.put(0x548, 11); b.put(1, 1)  // PS present
        let asc = try AudioSpecificConfig(bytes: b.bytes)
        #expect(asc.sbr == .present && asc.ps == .present && asc.extensionSamplingFrequency == 32000)
        #expect(asc.signalledObjectType == 2)
        let decoder = try AACDecoder(input: aacFormat(16000, 1), magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(32000, 2) && decoder.maximumFramesPerPacket == 2048)

        var sbrOnly = Self.lc(index: 6, channels: 2)  // 24000 Hz stereo core
        sbrOnly.put(0x2B7, 11); sbrOnly.put(5, 5); sbrOnly.put(1, 1); sbrOnly.put(3, 4)  // 48000 Hz
        let stereo = try AACDecoder(input: aacFormat(24000, 2), magicCookie: sbrOnly.bytes)
        #expect(stereo.outputFormat == float32(48000, 2) && stereo.audioSpecificConfig.ps == .unspecified)
    }

    /// A sync extension that says "no SBR" keeps the core rate even when the description hints HE.
    @Test func explicitlyNoSBR() throws {
        var b = Self.lc(index: 7, channels: 2)
        b.put(0x2B7, 11); b.put(5, 5); b.put(0, 1)
        let asc = try AudioSpecificConfig(bytes: b.bytes)
        #expect(asc.sbr == .absent)
        let decoder = try AACDecoder(input: aacFormat(44100, 2, id: .mpeg4AAC_HE), magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(22050, 2) && decoder.sbrMode == .off)
    }

    /// SBR whose output rate is the core rate: faad2's downsampled SBR, 1024 frames.
    @Test func downsampledSBR() throws {
        var b = Bits()
        b.put(5, 5); b.put(3, 4); b.put(2, 4); b.put(3, 4)  // core 48000, SBR 48000
        b.put(2, 5); b.put(0, 3)
        let decoder = try AACDecoder(input: aacFormat(48000, 2), magicCookie: b.bytes)
        #expect(decoder.outputFormat == float32(48000, 2))
        #expect(decoder.maximumFramesPerPacket == 1024 && decoder.sbrMode == .downsampled)
    }

    /// Implicit signalling: a plain LC config at a core rate up to 24 kHz stays at the core rate,
    /// unless the description says HE-AAC (format ID, flags or twice the rate).
    @Test func implicitSBRPolicy() throws {
        let lc22050 = Self.lc(index: 7, channels: 2).bytes
        let plain = try AACDecoder(input: aacFormat(22050, 2), magicCookie: lc22050)
        #expect(plain.outputFormat == float32(22050, 2) && plain.sbrMode == .off && plain.maximumFramesPerPacket == 1024)
        for hinted in [aacFormat(22050, 2, id: .mpeg4AAC_HE), aacFormat(44100, 2), aacFormat(22050, 2, flags: 5)] {
            let decoder = try AACDecoder(input: hinted, magicCookie: lc22050)
            #expect(decoder.outputFormat == float32(44100, 2) && decoder.sbrMode == .upsampled)
            #expect(decoder.maximumFramesPerPacket == 2048)
        }
        // 'aacp' or a description of two channels over a mono core: PS, two channels out.
        let mono = Self.lc(index: 6, channels: 1).bytes
        #expect(try AACDecoder(input: aacFormat(24000, 1), magicCookie: mono).outputFormat == float32(24000, 1))
        #expect(try AACDecoder(input: aacFormat(48000, 2, id: .mpeg4AAC_HE_V2), magicCookie: mono).outputFormat == float32(48000, 2))
        #expect(try AACDecoder(input: aacFormat(48000, 2), magicCookie: mono).outputFormat == float32(48000, 2))
        // A core above 24 kHz hinted as HE-AAC still upsamples where the doubled rate exists...
        let lc48000 = Self.lc(index: 3, channels: 2).bytes
        #expect(try AACDecoder(input: aacFormat(48000, 2, id: .mpeg4AAC_HE), magicCookie: lc48000).outputFormat == float32(96000, 2))
        // ...and runs SBR downsampled where it does not.
        let lc96000 = Self.lc(index: 0, channels: 2).bytes
        let high = try AACDecoder(input: aacFormat(96000, 2, id: .mpeg4AAC_HE), magicCookie: lc96000)
        #expect(high.outputFormat == float32(96000, 2) && high.sbrMode == .downsampled)
    }

    /// Channel configuration 0: the program config element gives the channels.
    @Test func programConfigElement() throws {
        let asc = Self.pce51(comment: [0x41, 0x42, 0x43])
        let parsed = try AudioSpecificConfig(bytes: asc)
        #expect(parsed.channelConfiguration == 0 && parsed.channelCount == 6)
        let decoder = try AACDecoder(input: aacFormat(48000, 6), magicCookie: asc)
        #expect(decoder.outputFormat == float32(48000, 6))
        // With explicit SBR around it (the PCE's byte alignment moves with it).
        var b = Bits()
        b.put(5, 5); b.put(6, 4); b.put(0, 4); b.put(3, 4); b.put(2, 5)
        let shifted = Self.pce51(comment: [], prefix: b)
        let sbr = try AudioSpecificConfig(bytes: shifted)
        #expect(sbr.channelCount == 6 && sbr.sbr == .present)
        #expect(try AACDecoder(input: aacFormat(24000, 6), magicCookie: shifted).outputFormat == float32(48000, 6))
    }

    /// An AudioSpecificConfig with a PCE for 5.1 in the element order of the 5.1 fixtures:
    /// front SCE 0 and CPE 0, back CPE 1, LFE 0.
    static func pce51(comment: [UInt8], prefix: Bits? = nil) -> [UInt8] {
        var b: Bits
        if let prefix {
            b = prefix
        } else {
            b = Bits()
            b.put(2, 5); b.put(3, 4)
        }
        if prefix == nil { b.put(0, 4) }  // channel configuration 0
        b.put(0, 3)  // GASpecificConfig flags
        b.put(0, 4); b.put(1, 2); b.put(3, 4)  // element_instance_tag, object_type (LC), 48000 Hz
        b.put(2, 4); b.put(0, 4); b.put(1, 4); b.put(1, 2)  // 2 front, 0 side, 1 back, 1 LFE
        b.put(0, 3); b.put(0, 4)  // assoc data, cc elements
        b.put(0, 1); b.put(0, 1); b.put(0, 1)  // no mixdowns
        b.put(0, 1); b.put(0, 4)  // front: SCE 0
        b.put(1, 1); b.put(0, 4)  // front: CPE 0
        b.put(1, 1); b.put(1, 4)  // back: CPE 1
        b.put(0, 4)  // LFE 0
        var bytes = b.bytes  // byte_alignment(): the writer pads with zeros
        bytes.append(UInt8(comment.count))
        bytes += comment
        return bytes
    }

    @Test func malformedConfigs() {
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: []) }
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x12]) }
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x00, 0x10]) }  // object type 0
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x2B, 0x92]) }  // SBR cut short
        expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: [0x16, 0x90]) }  // index 13 is reserved
        expectCodecError(.formatNotSupported) { _ = try AudioSpecificConfig(bytes: [0x41, 0x10]) }  // CELP
        expectCodecError(.formatNotSupported) { _ = try AudioSpecificConfig(bytes: [0x12, 0x40]) }  // config 8
        // A PCE cut short.
        let pce = Self.pce51(comment: [1, 2, 3, 4])
        for cut in 2..<pce.count - 1 {
            expectCodecError(.badData) { _ = try AudioSpecificConfig(bytes: Array(pce.prefix(cut))) }
        }
        // An explicit 24-bit sampling rate: a valid config faad2 cannot decode.
        var b = Bits()
        b.put(2, 5); b.put(15, 4); b.put(44000, 24); b.put(2, 4); b.put(0, 3)
        #expect((try? AudioSpecificConfig(bytes: b.bytes))?.samplingFrequency == 44000)
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(44000, 2), magicCookie: b.bytes) }
        // SBR that is neither twice the core rate nor the core rate.
        var odd = Bits()
        odd.put(5, 5); odd.put(6, 4); odd.put(2, 4); odd.put(4, 4); odd.put(2, 5); odd.put(0, 3)
        expectCodecError(.formatNotSupported) { _ = try AACDecoder(input: aacFormat(24000, 2), magicCookie: odd.bytes) }
        // Random configs: parsed or refused, never a trap.
        var rng = SplitMix(seed: 42)
        for _ in 0..<5000 {
            let bytes = (0..<(1 + Int(rng.next() % 12))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            do throws(AudioCodecError) {
                _ = try AACDecoder(input: aacFormat(44100, 2), magicCookie: bytes)
            } catch {
                #expect([.badData, .formatNotSupported].contains(error.code), "\(error)")
            }
        }
    }
}
