import Testing
import ProcessSupport
import AudioCore
import AudioCodecs

/// The encoder seam: the registry, the calling convention's checks, and the linear PCM encoder.
@Suite("Encoders")
struct EncoderTests {
    static let ima4 = AudioStreamBasicDescription(
        sampleRate: 8000, formatID: .appleIMA4, bytesPerPacket: 34, framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: 1,
        bitsPerChannel: 0)
    static let uLaw = AudioStreamBasicDescription(
        sampleRate: 8000, formatID: .uLaw, bytesPerPacket: 1, framesPerPacket: 1, bytesPerFrame: 1, channelsPerFrame: 1,
        bitsPerChannel: 8)

    // MARK: - Registry

    /// AC-3, which nothing encodes (AAC has an encoder once the C library or AudioQueueKit has
    /// registered the package's codecs in this process).
    @Test func unknownFormatIsFmtNamingIt() {
        let ac3 = AudioStreamBasicDescription(
            sampleRate: 48000, formatID: AudioFormatID(rawValue: 0x6163_2D33), bytesPerPacket: 0, framesPerPacket: 1536, bytesPerFrame: 0,
            channelsPerFrame: 2, bitsPerChannel: 0)
        #expect(!AudioEncoders.canEncode(ac3.formatID))
        do {
            _ = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: ac3), to: ac3)
            Issue.record("made an AC-3 encoder")
        } catch {
            #expect(error.code == .formatNotSupported)
            #expect(error.status == 0x666D_743F)  // 'fmt?'
            #expect(error.reason == "no encoder for AC-3 ('ac-3')")
        }
    }

    @Test func builtInEncoders() throws {
        let outputs: [(AudioStreamBasicDescription, any AudioEncoder.Type)] = [
            (int16, PCMEncoder.self), (Self.uLaw, G711Encoder.self), (G711EncodeTests.format(.aLaw), G711Encoder.self),
            (Self.ima4, IMA4Encoder.self),
        ]
        for (output, type) in outputs {
            #expect(AudioEncoders.canEncode(output.formatID))
            let encoder = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: output), to: output)
            #expect(Swift.type(of: encoder) == type)
            #expect(encoder.outputFormat == output)
            #expect(encoder.inputFormat == float32)
        }
    }

    /// A codec target registers its encoder type; the registry makes it by format ID.
    @Test func registeredEncodersAreMade() throws {
        let id = AudioFormatID("tst1")
        #expect(!AudioEncoders.canEncode(id))
        AudioEncoders.register(ByteCountEncoder.self, for: [id])
        #expect(AudioEncoders.canEncode(id))
        var output = Self.uLaw
        output.formatID = id
        let encoder = try AudioEncoders.make(from: float32, to: output)
        #expect(encoder is ByteCountEncoder)
        // A factory passes its own errors through.
        AudioEncoders.register(id) { _, _ throws(AudioCodecError) in throw AudioCodecError(.unsupportedFormat, "refused") }
        expectCodecError(.unsupportedFormat) { try AudioEncoders.make(from: float32, to: output) }
    }

    /// The input every encoder takes: what a sound device captures.
    @Test func inputFormatIsInterleavedNativeFloat32() {
        let input = AudioEncoders.inputFormat(for: IMA4EncodeTests.format(channels: 2, rate: 48000))
        #expect(input == .linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true))
        #expect(input.formatFlags == [.isFloat, .isPacked])
    }

    // MARK: - Calling convention

    static func encoders() throws -> [any AudioEncoder] {
        try [int16, lpcm(bits: 24, bigEndian: true, channels: 2, interleaved: false), Self.uLaw, Self.ima4].map {
            try AudioEncoders.make(from: AudioEncoders.inputFormat(for: $0), to: $0)
        }
    }

    /// Short input, short output or a negative count: Apple's size errors, nothing written, no
    /// state changed (the next call encodes as a fresh encoder would).
    @Test func sizeErrorsWriteNothing() throws {
        let signal = floats(musicLikeSignal(frames: 128, channels: 2, rate: 8000, seed: 5))
        for encoder in try Self.encoders() {
            let channels = Int(encoder.outputFormat.channelsPerFrame)
            let samples = Array(signal.prefix(128 * channels))
            let size = try #require(encoder.outputByteCount(forFrames: 128))
            var out = [UInt8](repeating: 0xEE, count: size)
            samples.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { output in
                    expectCodecError(.invalidInputSize) {
                        try encoder.encode(UnsafeRawBufferPointer(rebasing: input.dropLast(1)), frameCount: 128, into: output, packetDescriptions: nil)
                    }
                    expectCodecError(.invalidInputSize) { try encoder.encode(input, frameCount: -1, into: output, packetDescriptions: nil) }
                    expectCodecError(.invalidInputSize) { try encoder.encode(input, frameCount: .max / 2, into: output, packetDescriptions: nil) }
                    expectCodecError(.invalidOutputSize) {
                        try encoder.encode(input, frameCount: 128, into: UnsafeMutableRawBufferPointer(rebasing: output.dropLast(1)), packetDescriptions: nil)
                    }
                }
            }
            #expect(out.allSatisfy { $0 == 0xEE }, "\(encoder.outputFormat)")
            let fresh = try AudioEncoders.make(from: encoder.inputFormat, to: encoder.outputFormat)
            #expect(try encode(encoder, samples, frames: 128).bytes == encode(fresh, samples, frames: 128).bytes)
        }
    }

    /// No frames: nothing written. Constant-size formats leave packet descriptions alone.
    @Test func emptyCallsAndPacketDescriptions() throws {
        for encoder in try Self.encoders() {
            let result = try [Float]().withUnsafeBytes { input in
                try encoder.encode(input, frameCount: 0, into: UnsafeMutableRawBufferPointer(start: nil, count: 0), packetDescriptions: nil)
            }
            #expect(result == AudioEncodeResult(packetCount: 0, byteCount: 0))
            let channels = Int(encoder.outputFormat.channelsPerFrame)
            let samples = [Float](repeating: 0.25, count: 64 * channels)
            var out = [UInt8](repeating: 0, count: try #require(encoder.outputByteCount(forFrames: 64)))
            let marker = AudioStreamPacketDescription(startOffset: -1, variableFramesInPacket: 7, dataByteSize: 9)
            var descriptions = [AudioStreamPacketDescription](repeating: marker, count: 64)
            _ = try samples.withUnsafeBytes { input in
                try out.withUnsafeMutableBytes { output in
                    try descriptions.withUnsafeMutableBufferPointer {
                        try encoder.encode(input, frameCount: 64, into: output, packetDescriptions: $0)
                    }
                }
            }
            #expect(descriptions.allSatisfy { $0 == marker })
        }
    }

    /// Input and output memory need not be aligned: the same bytes come out from odd addresses.
    @Test func unalignedMemoryGivesTheSamePackets() throws {
        let signal = floats(musicLikeSignal(frames: 200, channels: 2, rate: 8000, seed: 17))
        for encoder in try Self.encoders() {
            let channels = Int(encoder.outputFormat.channelsPerFrame)
            let samples = Array(signal.prefix(200 * channels))
            let (aligned, _) = try encode(encoder, samples, frames: 200)
            encoder.reset()
            let shiftedInput = [0x55] + packFloats(samples)
            var shiftedOutput = [UInt8](repeating: 0, count: aligned.count + 1)
            let result = try shiftedInput.withUnsafeBytes { input in
                try shiftedOutput.withUnsafeMutableBytes { output in
                    try encoder.encode(
                        UnsafeRawBufferPointer(rebasing: input.dropFirst()), frameCount: 200,
                        into: UnsafeMutableRawBufferPointer(rebasing: output.dropFirst()), packetDescriptions: nil)
                }
            }
            #expect(result.byteCount == aligned.count)
            #expect(Array(shiftedOutput.dropFirst()) == aligned, "\(encoder.outputFormat)")
        }
    }

    // MARK: - Linear PCM

    /// ffmpeg's conversions of the same Float32 signal (Scripts/fixtures/make_codec_refs.sh):
    /// two channels, noise beyond full scale and exact ties for 16-bit rounding.
    @Test(arguments: [
        ("s16le", lpcm(bits: 16, channels: 2)), ("s32le", lpcm(bits: 32, channels: 2)),
        ("f64le", lpcm(bits: 64, float: true, channels: 2)),
    ])
    func pcmMatchesFFmpeg(name: String, output: AudioStreamBasicDescription) throws {
        let source = try Fixtures.codecBytes("pcm-noise.f32le")
        let reference = try Fixtures.codecBytes("pcm-noise.f32le.\(name)")
        let frames = source.count / 8
        let encoder = try PCMEncoder(input: floatInput(for: output), output: output)
        let (bytes, result) = try encode(encoder, unpackFloats(source), frames: frames)
        #expect(result == AudioEncodeResult(packetCount: frames, byteCount: reference.count))
        expectEqualArrays(bytes, reference, name)
    }

    /// Big-endian and non-interleaved output against ffmpeg's big-endian encoders run now
    /// (its raw output is interleaved; a non-interleaved result is compared channel by channel).
    @Test(arguments: [("s16be", 16, false), ("s32be", 32, false), ("f32be", 32, true), ("f64be", 64, true)])
    func bigEndianAndNonInterleavedMatchFFmpeg(codec: String, bits: UInt32, float: Bool) throws {
        let scratch = try ScratchDirectory("pcm-\(codec)")
        defer { scratch.remove() }
        let source = try Fixtures.codecBytes("pcm-noise.f32le")
        try scratch.write(source, to: "in.f32le")
        try FFmpeg.run([
            "-f", "f32le", "-ar", "8000", "-ac", "2", "-i", scratch.path("in.f32le"), "-c:a", "pcm_\(codec)", "-f", codec,
            scratch.path("out"),
        ])
        let reference = try scratch.read("out")
        let frames = source.count / 8
        let samples = unpackFloats(source)

        let interleaved = lpcm(bits: bits, float: float, bigEndian: true, channels: 2)
        let (bytes, _) = try encode(PCMEncoder(input: floatInput(for: interleaved), output: interleaved), samples, frames: frames)
        expectEqualArrays(bytes, reference, "\(codec) interleaved")

        let planar = lpcm(bits: bits, float: float, bigEndian: true, channels: 2, interleaved: false)
        let encoder = try PCMEncoder(input: floatInput(for: planar), output: planar)
        let (regions, result) = try encode(encoder, samples, frames: frames)
        #expect(result.packetCount == frames && result.byteCount == reference.count)
        #expect(encoder.maximumPacketSize == Int(bits / 8))
        let word = Int(bits / 8)
        for channel in 0..<2 {
            var expected: [UInt8] = []
            for frame in 0..<frames {
                let start: Int = (2 * frame + channel) * word
                expected += reference[start..<start + word]
            }
            let regionStart: Int = channel * frames * word
            let region = Array(regions[regionStart..<regionStart + frames * word])
            expectEqualArrays(region, expected, "\(codec) channel \(channel) region")
        }
    }

    /// Layouts ffmpeg has no encoder for (24 bits in 4 bytes, 20 bits, unsigned 16-bit, 8-bit)
    /// come out as PCMConverter writes them into a PCMBuffer (its own loops, checked against
    /// ffmpeg in PCMConverterReferenceTests).
    @Test(arguments: [
        lpcm(bits: 24, word: 4, alignedHigh: true, channels: 3), lpcm(bits: 24, word: 4, bigEndian: true, channels: 3),
        lpcm(bits: 20, word: 3, alignedHigh: true, channels: 3, interleaved: false), lpcm(bits: 16, signed: false, channels: 3),
        lpcm(bits: 8, signed: false, channels: 3), lpcm(bits: 8, channels: 3, interleaved: false),
        lpcm(bits: 24, bigEndian: true, channels: 3),
    ])
    func pcmMatchesTheConverter(output: AudioStreamBasicDescription) throws {
        let frames = 500
        let samples = floats(musicLikeSignal(frames: frames, channels: 3, rate: 8000, seed: 13)).enumerated().map {
            $0.offset % 7 == 0 ? $0.element * 1.5 : $0.element  // some beyond full scale
        }
        let (bytes, _) = try encode(PCMEncoder(input: floatInput(for: output), output: output), samples, frames: frames)
        let buffer = try convert(packFloats(samples), frames: frames, from: floatInput(for: output), to: output)
        let expected = (0..<buffer.regionCount).flatMap { validBytes(buffer, region: $0) }
        expectEqualArrays(bytes, expected, "\(output)")
    }

    @Test func pcmOutputFormatIsCompleted() throws {
        var given = lpcm(bits: 24, channels: 2)
        given.framesPerPacket = 0
        given.bytesPerPacket = 0
        let encoder = try PCMEncoder(input: floatInput(for: given), output: given)
        #expect(encoder.outputFormat == lpcm(bits: 24, channels: 2))
        #expect(encoder.framesPerPacket == 1 && encoder.maximumPacketSize == 6 && encoder.magicCookie == nil)
        #expect(encoder.outputByteCount(forFrames: 10) == 60)
        let planarFormat = lpcm(bits: 16, channels: 2, interleaved: false)
        let planar = try PCMEncoder(input: floatInput(for: planarFormat), output: planarFormat)
        #expect(planar.outputByteCount(forFrames: 10) == 40)
    }

    @Test func pcmRejectsWhatItCannotWrite() {
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float32, output: Self.uLaw) }
        var fixed = lpcm(bits: 32)
        fixed.formatFlags.insert(AudioFormatFlags(rawValue: 24 << AudioFormatFlags.sampleFractionShift))
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float32, output: fixed) }
        var twoFrames = int16
        twoFrames.framesPerPacket = 2
        twoFrames.bytesPerPacket = 4
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float32, output: twoFrames) }
        // The input must be interleaved native-endian Float32 at the output's rate and channels.
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: int16, output: int16) }
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: lpcm(bits: 32, float: true, bigEndian: true), output: int16) }
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float64, output: int16) }
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float32, output: lpcm(bits: 16, channels: 2)) }
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: float32, output: lpcm(bits: 16, rate: 44100)) }
        expectCodecError(.formatNotSupported) {
            try PCMEncoder(input: lpcm(bits: 32, float: true, channels: 2, interleaved: false), output: lpcm(bits: 16, channels: 2))
        }
        expectCodecError(.formatNotSupported) { try PCMEncoder(input: lpcm(bits: 32, float: true, rate: 0), output: lpcm(bits: 16, rate: 0)) }
    }
}

/// An encoder for a made-up format, to show the registry making registered types.
final class ByteCountEncoder: AudioEncoder {
    let inputFormat: AudioStreamBasicDescription
    let outputFormat: AudioStreamBasicDescription
    var framesPerPacket: Int { 1 }
    var maximumPacketSize: Int { 1 }

    init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws(AudioCodecError) {
        inputFormat = input
        outputFormat = output
    }

    func encode(
        _ input: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableRawBufferPointer,
        packetDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioCodecError) -> AudioEncodeResult {
        AudioEncodeResult(packetCount: 0, byteCount: 0)
    }

    func reset() {}
}
