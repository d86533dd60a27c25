import Testing
import AudioCore
import AudioCodecs

/// Builds ALAC frames bit by bit from the format description, independently of the decoder:
/// escape (uncompressed) elements, and compressed elements with prediction order 0 whose
/// residuals are coded with the adaptive Rice scheme as an encoder codes them.
struct ALACFrameWriter {
    var bytes: [UInt8] = []
    var bitCount = 0

    mutating func put(_ value: UInt64, _ count: Int) {
        for i in stride(from: count - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if value >> UInt64(i) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount % 8) }
            bitCount += 1
        }
    }

    mutating func putSigned(_ value: Int32, _ count: Int) {
        put(UInt64(UInt32(bitPattern: value)) & (count == 64 ? .max : (1 << UInt64(count)) - 1), count)
    }

    /// Element tag, instance 0, reserved bits, header nibble and the partial count.
    mutating func elementHeader(tag: UInt64, partial: Int?, shiftBytes: Int, escape: Bool) {
        put(tag, 3)
        put(0, 4)
        put(0, 12)
        put(partial == nil ? 0 : 1, 1)
        put(UInt64(shiftBytes), 2)
        put(escape ? 1 : 0, 1)
        if let partial { put(UInt64(partial), 32) }
    }

    /// An escape element: the samples verbatim, interleaved, `bitDepth` bits each.
    mutating func escapeElement(_ channels: [[Int32]], bitDepth: Int, partial: Int?) {
        elementHeader(tag: channels.count == 2 ? 1 : 0, partial: partial, shiftBytes: 0, escape: true)
        for i in 0..<channels[0].count {
            for c in channels { putSigned(c[i], bitDepth) }
        }
    }

    /// A compressed element, order 0, no mixing; the low `shiftBytes` bytes uncompressed.
    mutating func compressedElement(_ channels: [[Int32]], bitDepth: Int, shiftBytes: Int, partial: Int?, config: ALACSpecificConfig) {
        elementHeader(tag: channels.count == 2 ? 1 : 0, partial: partial, shiftBytes: shiftBytes, escape: false)
        put(0, 8)  // mix bits
        put(0, 8)  // mix weight
        for _ in channels {
            put(0x00, 8)  // mode 0, shift 0
            put(4 << 5, 8)  // history factor 4, order 0
        }
        let shift = shiftBytes * 8
        if shift > 0 {
            for i in 0..<channels[0].count {
                for c in channels { put(UInt64(UInt32(bitPattern: c[i])) & ((1 << UInt64(shift)) - 1), shift) }
            }
        }
        let chanBits = bitDepth - shift + channels.count - 1
        for c in channels {
            rice(c.map { $0 >> Int32(shift) }, config: config, escapeBits: chanBits)
        }
    }

    mutating func golomb(_ n: UInt32, k: Int, m: UInt32, escapeBits: Int) {
        let p = n / m
        if p >= 9 {
            put(0x1FF, 9)
            put(UInt64(n), escapeBits)
            return
        }
        put((1 << UInt64(p)) - 1, Int(p))
        put(0, 1)
        let r = n % m
        if r == 0 { put(0, k - 1) } else { put(UInt64(r + 1), k) }
    }

    /// The adaptive Rice coding of `values` (the decoder's model run forwards).
    mutating func rice(_ values: [Int32], config: ALACSpecificConfig, escapeBits: Int) {
        var mb = UInt32(config.mb)
        let pb = UInt32(config.pb) * 4 / 4
        let kb = Int(config.kb)
        let wb: UInt32 = (1 << UInt32(kb)) - 1
        var zmode: UInt32 = 0
        var c = 0
        while c < values.count {
            let m = mb >> 9
            let k = min(31 - (m + 3).leadingZeroBitCount, kb)
            let v = values[c]
            let x = v < 0 ? UInt32(bitPattern: -2 * v - 1) : UInt32(2 * v)
            let n = x - zmode
            golomb(n, k: k, m: (1 << UInt32(k)) - 1, escapeBits: escapeBits)
            c += 1
            mb = pb &* x &+ mb &- ((pb &* mb) >> 9)
            if n > 0xFFFF { mb = 0xFFFF }
            zmode = 0
            if mb < 128 && c < values.count {
                var run = 0
                while c + run < values.count && values[c + run] == 0 && run < 65535 { run += 1 }
                let kz = mb.leadingZeroBitCount - 24 + Int((mb + 16) >> 6)
                golomb(UInt32(run), k: kz, m: ((1 << UInt32(kz)) - 1) & wb, escapeBits: 16)
                c += run
                zmode = run >= 65535 ? 0 : 1
                mb = 0
            }
        }
    }

    mutating func end() {
        put(7, 3)
    }
}

@Suite("ALAC decoder")
struct ALACTests {
    static func format(channels: UInt32, flags: UInt32 = 0, rate: Double = 44100) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            sampleRate: rate, formatID: .appleLossless, formatFlags: AudioFormatFlags(rawValue: flags), bytesPerPacket: 0,
            framesPerPacket: 4096, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    static func config(depth: UInt8, channels: UInt8, frameLength: UInt32 = 4096) -> ALACSpecificConfig {
        ALACSpecificConfig(frameLength: frameLength, bitDepth: depth, numChannels: channels, sampleRate: 44100)
    }

    /// Decodes `packet` with a decoder for `config`; the samples as Int32 (16-bit widened).
    static func decode(_ packet: [UInt8], config: ALACSpecificConfig) throws -> [Int32] {
        let decoder = try ALACDecoder(input: format(channels: UInt32(config.numChannels)), magicCookie: config.bytes)
        let buffer = try makeBuffer(decoder.outputFormat, decoder.maximumFramesPerPacket)
        _ = try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
        let bytes = validBytes(buffer)
        return config.bitDepth == 16 ? unpack(bytes, as: Int16.self).map(Int32.init) : unpack(bytes, as: Int32.self)
    }

    /// Pseudo-random samples of `bits` bits with runs of zeros and small values.
    static func signal(_ count: Int, bits: Int, seed: UInt64) -> [Int32] {
        var state = seed
        return (0..<count).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Int64(bitPattern: state) >> Int64(64 - bits)
            switch (i / 50) % 4 {
            case 0: return Int32(r)
            case 1: return 0
            case 2: return Int32(r >> Int64(bits - 4))
            default: return Int32(r >> 3)
            }
        }
    }

    static func interleave(_ channels: [[Int32]]) -> [Int32] {
        (0..<channels[0].count).flatMap { i in channels.map { $0[i] } }
    }

    @Test(arguments: [16, 20, 24, 32], [1, 2])
    func escapeFramesAtEveryDepth(depth: Int, channels: Int) throws {
        let count = 300
        let samples = (0..<channels).map { Self.signal(count, bits: depth, seed: UInt64(depth * 10 + $0)) }
        var w = ALACFrameWriter()
        w.escapeElement(samples, bitDepth: depth, partial: count)
        w.end()
        let decoded = try Self.decode(w.bytes, config: Self.config(depth: UInt8(depth), channels: UInt8(channels)))
        let expected = Self.interleave(samples).map { depth == 16 ? $0 : $0 << Int32(32 - depth) }
        #expect(decoded == expected)
    }

    @Test(arguments: [(16, 0), (20, 0), (24, 1), (24, 0), (32, 2), (32, 1)], [1, 2])
    func compressedFramesAtEveryDepth(format: (depth: Int, shiftBytes: Int), channels: Int) throws {
        let (depth, shiftBytes) = format
        // 32-bit stereo needs at least one shifted byte (33-bit channels otherwise).
        let config = Self.config(depth: UInt8(depth), channels: UInt8(channels))
        let samples = (0..<channels).map { Self.signal(4096, bits: depth, seed: UInt64(depth * 7 + $0)) }
        var w = ALACFrameWriter()
        w.compressedElement(samples, bitDepth: depth, shiftBytes: shiftBytes, partial: nil, config: config)
        w.end()
        let decoded = try Self.decode(w.bytes, config: config)
        let expected = Self.interleave(samples).map { depth == 16 ? $0 : $0 << Int32(32 - depth) }
        #expect(decoded.count == expected.count)
        #expect(decoded == expected)
    }

    @Test func partialCompressedFrame() throws {
        let config = Self.config(depth: 16, channels: 1)
        let samples = [Self.signal(1000, bits: 16, seed: 3)]
        var w = ALACFrameWriter()
        w.compressedElement(samples, bitDepth: 16, shiftBytes: 0, partial: 1000, config: config)
        w.end()
        #expect(try Self.decode(w.bytes, config: config) == samples[0])
    }

    @Test func skipsDataStreamAndFillElements() throws {
        let config = Self.config(depth: 16, channels: 2)
        let samples = [Self.signal(64, bits: 16, seed: 5), Self.signal(64, bits: 16, seed: 6)]
        var w = ALACFrameWriter()
        // DSE: tag, instance, byte-align flag, count 3, aligned, 3 bytes.
        w.put(4, 3); w.put(0, 4); w.put(1, 1); w.put(3, 8)
        while w.bitCount % 8 != 0 { w.put(0, 1) }
        w.put(0xABCDEF, 24)
        // FIL: count 15 + 2 - 1 = 16 bytes.
        w.put(6, 3); w.put(15, 4); w.put(2, 8); w.put(0, 16 * 8)
        w.escapeElement(samples, bitDepth: 16, partial: 64)
        w.end()
        #expect(try Self.decode(w.bytes, config: config) == Self.interleave(samples))
    }

    @Test func multichannelElementsInALACOrder() throws {
        // 6 channels: SCE CPE CPE SCE; the output keeps element order (C L R Ls Rs LFE).
        let config = Self.config(depth: 24, channels: 6)
        let ch = (0..<6).map { Self.signal(100, bits: 24, seed: UInt64(40 + $0)) }
        var w = ALACFrameWriter()
        w.escapeElement([ch[0]], bitDepth: 24, partial: 100)
        w.compressedElement([ch[1], ch[2]], bitDepth: 24, shiftBytes: 1, partial: 100, config: config)
        w.escapeElement([ch[3], ch[4]], bitDepth: 24, partial: 100)
        w.put(3, 3)  // LFE element, coded as an SCE
        var lfe = ALACFrameWriter()
        lfe.escapeElement([ch[5]], bitDepth: 24, partial: 100)
        for bit in 3..<lfe.bitCount { w.put(UInt64(lfe.bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1), 1) }
        w.end()
        #expect(try Self.decode(w.bytes, config: config) == Self.interleave(ch).map { $0 << 8 })
        let decoder = try ALACDecoder(input: Self.format(channels: 6), magicCookie: config.bytes)
        #expect(decoder.outputChannelLayout == AudioChannelLayout(tag: .mpeg_5_1_D))
        #expect(try ALACDecoder(input: Self.format(channels: 2), magicCookie: nil).outputChannelLayout == nil)
    }

    /// Frames that break a rule: silence for the frame length (or the container's count) and badData.
    @Test func badFramesAreConcealed() throws {
        let config = Self.config(depth: 16, channels: 2, frameLength: 512)
        let samples = [Self.signal(100, bits: 16, seed: 1), Self.signal(100, bits: 16, seed: 2)]
        var cases: [(String, [UInt8])] = []
        var w = ALACFrameWriter()
        w.escapeElement([samples[0]], bitDepth: 16, partial: 100)  // one channel, then END
        w.end()
        cases.append(("too few channels", w.bytes))
        w = ALACFrameWriter()
        w.escapeElement(samples, bitDepth: 16, partial: 100)
        w.escapeElement([samples[0]], bitDepth: 16, partial: 100)
        cases.append(("too many channels", Array(w.bytes)))  // decodes two, then stops: fine
        w = ALACFrameWriter()
        w.put(2, 3)  // CCE
        w.put(0, 32)
        cases.append(("CCE", w.bytes))
        w = ALACFrameWriter()
        w.elementHeader(tag: 1, partial: 600, shiftBytes: 0, escape: true)
        w.put(0, 64)
        cases.append(("partial count beyond the frame length", w.bytes))
        w = ALACFrameWriter()
        w.elementHeader(tag: 1, partial: 0, shiftBytes: 0, escape: true)
        cases.append(("partial count 0", w.bytes))
        w = ALACFrameWriter()
        w.elementHeader(tag: 1, partial: nil, shiftBytes: 3, escape: false)
        w.put(0, 64)
        cases.append(("3 shifted bytes", w.bytes))
        w = ALACFrameWriter()
        w.escapeElement(samples, bitDepth: 16, partial: 100)
        cases.append(("truncated", Array(w.bytes.prefix(200))))
        w = ALACFrameWriter()
        w.put(1, 3); w.put(0, 4); w.put(1, 12)
        cases.append(("reserved bits", w.bytes + [0, 0, 0]))

        let decoder = try ALACDecoder(input: Self.format(channels: 2), magicCookie: config.bytes)
        let buffer = try makeBuffer(decoder.outputFormat, 512)
        for (name, packet) in cases {
            buffer.region(0).initializeMemory(as: UInt8.self, repeating: 0x5A)
            buffer.frameLength = 0
            if name == "too many channels" {
                let n = try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
                #expect(n == 100, "\(name)")
                continue
            }
            expectCodecError(.badData) { try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
            #expect(buffer.frameLength == 512, "\(name)")
            #expect(validBytes(buffer).allSatisfy { $0 == 0 }, "\(name)")
            buffer.frameLength = 0
            expectCodecError(.badData) { try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: 37, into: buffer) } }
            #expect(buffer.frameLength == 37, "\(name)")
        }
        buffer.frameLength = 0
        expectCodecError(.badData) { try [UInt8]().withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) } }
        #expect(buffer.frameLength == 512)
        // No room for a whole frame, or a buffer of another format: nothing appended.
        let small = try makeBuffer(decoder.outputFormat, 511)
        expectCodecError(.invalidOutputSize) { try cases[0].1.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: small) } }
        #expect(small.frameLength == 0)
        let wrong = try makeBuffer(lpcm(bits: 32, channels: 2, rate: 44100), 512)
        expectCodecError(.formatNotSupported) { try cases[0].1.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: wrong) } }
    }

    @Test func randomPacketsNeverCrash() throws {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        var decoded = 0, concealed = 0
        for (depth, channels) in [(16, 1), (16, 2), (20, 2), (24, 2), (32, 1), (32, 2), (24, 6), (16, 8)] {
            let config = Self.config(depth: UInt8(depth), channels: UInt8(channels), frameLength: 4096)
            let decoder = try ALACDecoder(input: Self.format(channels: UInt32(channels)), magicCookie: config.bytes)
            let buffer = try makeBuffer(decoder.outputFormat, 4096)
            for round in 0..<500 {
                var packet = (0..<Int(next() % 3000)).map { _ in UInt8(truncatingIfNeeded: next()) }
                // Half of them start with a plausible element header (SCE/CPE, reserved bits clear).
                if round % 2 == 0, packet.count > 3 {
                    packet[0] = UInt8(channels == 1 ? 0x00 : 0x20) | packet[0] & 0x1E
                    packet[1] = 0
                    packet[2] &= 0x1F
                }
                buffer.frameLength = 0
                do {
                    let n = try packet.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
                    #expect(n >= 1 && n <= 4096 && buffer.frameLength == n)
                    decoded += 1
                } catch let error as AudioCodecError {
                    #expect(error.code == .badData)
                    #expect(buffer.frameLength == 4096)
                    concealed += 1
                }
            }
        }
        #expect(concealed > 1000)
    }

    // MARK: - Magic cookies

    static let bare = config(depth: 24, channels: 2).bytes

    static func atom(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    @Test func readsEveryCookieForm() throws {
        let expected = Self.config(depth: 24, channels: 2)
        let alacAtom = Self.atom("alac", [0, 0, 0, 0] + Self.bare)
        #expect(alacAtom.count == 36)
        let frma = Self.atom("frma", Array("alac".utf8))
        let chan = Self.atom("chan", [0, 0x65, 0, 2] + [UInt8](repeating: 0, count: 8))
        let terminator: [UInt8] = [0, 0, 0, 8, 0, 0, 0, 0]
        for cookie in [Self.bare, alacAtom, frma + alacAtom, frma + alacAtom + chan + terminator, alacAtom + chan, Self.bare + chan] {
            #expect(try ALACSpecificConfig(magicCookie: cookie) == expected)
            let decoder = try ALACDecoder(input: Self.format(channels: 2), magicCookie: cookie)
            #expect(decoder.config == expected)
            #expect(decoder.outputFormat == .linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32))
            #expect(decoder.maximumFramesPerPacket == 4096)
        }
        // The bytes in order: frame length 4096, version 0, depth 24, 40, 10, 14, 2 channels, …
        #expect(Self.bare == [0, 0, 0x10, 0, 0, 24, 40, 10, 14, 2, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xAC, 0x44])
    }

    @Test func refusesInvalidCookies() throws {
        var cases: [[UInt8]] = [Array(Self.bare.prefix(23)), Self.atom("alac", [0, 0, 0, 0] + Self.bare.prefix(20)), [0, 0, 0, 12]]
        for (index, value) in [(4, 1), (5, 8), (5, 33), (9, 0), (9, 9), (8, 0)] as [(Int, UInt8)] {
            var c = Self.bare
            c[index] = value
            cases.append(c)
        }
        var zeroLength = Self.bare
        zeroLength[2] = 0
        cases.append(zeroLength)
        var huge = Self.bare
        huge[0] = 0x7F
        cases.append(huge)
        for cookie in cases {
            expectCodecError(.formatNotSupported) { try ALACSpecificConfig(magicCookie: cookie) }
            expectCodecError(.formatNotSupported) { try ALACDecoder(input: Self.format(channels: 0), magicCookie: cookie) }
        }
        // A cookie that disagrees with the stream's channel count; another format ID.
        expectCodecError(.formatNotSupported) { try ALACDecoder(input: Self.format(channels: 1), magicCookie: Self.bare) }
        expectCodecError(.formatNotSupported) { try ALACDecoder(input: IMA4Tests.format(channels: 2), magicCookie: Self.bare) }
    }

    @Test func withoutCookieTheFormatFlagsGiveTheDepth() throws {
        for (flags, depth, bits) in [(0, 16, 16), (1, 16, 16), (2, 20, 32), (3, 24, 32), (4, 32, 32)] as [(UInt32, UInt8, UInt32)] {
            let decoder = try ALACDecoder(input: Self.format(channels: 2, flags: flags, rate: 48000), magicCookie: nil)
            #expect(decoder.config.bitDepth == depth)
            #expect(decoder.outputFormat == .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: bits))
        }
        expectCodecError(.formatNotSupported) { try ALACDecoder(input: Self.format(channels: 2, flags: 5), magicCookie: nil) }
        expectCodecError(.formatNotSupported) { try ALACDecoder(input: Self.format(channels: 9), magicCookie: nil) }
        #expect(AudioDecoders.canDecode(.appleLossless))
        #expect(try AudioDecoders.make(for: Self.format(channels: 1), magicCookie: nil) is ALACDecoder)
    }
}
