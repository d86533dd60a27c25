import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import AudioCodecFLAC
import AudioCodecOpus
import AudioCodecVorbis
import AudioCodecAVCodec
import ExtendedAudioFileServices

/// One fuzz input: every container parser and the tag parsers (Vorbis comment, FLAC picture)
/// on the raw bytes, then detection through AudioFile (its info, pictures and chapters too),
/// reads of the packets it finds, and decoding (PCM, G.711, IMA4, AAC over faad2, FLAC over libFLAC, Opus over libopus, Vorbis over libvorbis,
/// AC-3 and E-AC-3 over libavcodec) to Float32;
/// then AudioFileStream in several chunkings, cross-checked against AudioFile (StreamFuzz.swift);
/// then the tag writers over tags made from the input (TagWritingFuzz.swift).
/// Any outcome but a typed error or success is a finding
/// (libFuzzer reports crashes, timeouts and runaway allocations).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    for format in AudioFileFormats.all {
        if let parsed = try? format.init(reading: source) {
            _ = parsed.dataFormat.description
            _ = parsed.channelLayout?.name
        }
    }
    var found: AudioFileInfo?
    for ext in [nil, "wav", "aiff", "caf", "aac", "m4a", "ac3"] as [String?] {
        guard let file = try? AudioFile(source: source, fileExtension: ext) else { continue }
        exercise(file)
        if found == nil { found = file.info }
    }
    // The tag parsers on the raw bytes: a Vorbis comment (with its base64 pictures) and a FLAC
    // PICTURE block body.
    _ = VorbisComment(parsing: bytes)?.appleInfo
    _ = VorbisComment(parsing: bytes)?.pictures
    _ = AudioFilePicture(flacPictureBlock: bytes)
    fuzzVorbisHeaders(bytes)
    // The AC-3 configuration boxes and a syncframe header on the raw bytes.
    _ = (try? AC3Configuration(cookie: bytes, enhanced: false))?.channelLayout
    _ = (try? AC3Configuration(cookie: bytes, enhanced: true))?.channelLayout
    _ = AC3FrameHeader(bytes, 0)?.bitRate
    fuzzStream(bytes)
    fuzzTagWriting(bytes, found: found)
    return 0
}

private func exercise(_ file: AudioFile) {
    _ = file.dataFormat.description
    _ = file.infoDictionary
    _ = file.bitRate
    _ = file.estimatedDuration
    _ = file.packetSizeUpperBound
    _ = file.chapters
    _ = file.info
    _ = file.pictures
    _ = file.repairs.map(\.description)
    _ = file.trackCount
    let count = file.packetCount
    for start in [0, count / 2, max(0, count - 3), count] {
        _ = try? file.readPackets(from: start, count: 4, maxBytes: 1 << 16)
    }
    _ = try? file.readBytes(at: 0, count: 64)
    decode(file)
}

private let registerDecoders: Void = {
    AACDecoder.register()
    FLACDecoder.register()
    OpusDecoder.register()
    // Files decode with libavcodec's Vorbis decoder, as AudioCodecKit registers it where
    // libavcodec loads; libvorbis's gets the headers fuzzer's packets.
    if AVCodecVorbisDecoder.isAvailable { AVCodecVorbisDecoder.register() } else { VorbisDecoder.register() }
    AC3Decoder.register()
}()

/// The bytes as Vorbis headers: a magic cookie (both forms), and a setup header's modes; a
/// cookie that parses makes decoders (libvorbis and libavcodec read the headers) that decode
/// the bytes as a packet.
private func fuzzVorbisHeaders(_ bytes: [UInt8]) {
    _ = try? VorbisIdentification(packet: bytes)
    guard let headers = try? VorbisHeaders(cookie: bytes) else { return }
    var durations = VorbisPacketDurations(headers)
    for byte in bytes.prefix(16) { _ = durations.frames(first: byte) }
    let format = AudioStreamBasicDescription(
        sampleRate: Double(headers.info.sampleRate), formatID: .vorbis, formatFlags: [], bytesPerPacket: 0, framesPerPacket: 0,
        bytesPerFrame: 0, channelsPerFrame: UInt32(headers.info.channelCount), bitsPerChannel: 0)
    let decoders: [(any AudioDecoder)?] = [
        try? VorbisDecoder(input: format, magicCookie: bytes), try? AVCodecVorbisDecoder(input: format, magicCookie: bytes),
    ]
    for case let decoder? in decoders {
        guard let buffer = PCMBuffer(format: decoder.outputFormat, frameCapacity: 4096) else { continue }
        for _ in 0..<2 {
            buffer.frameLength = 0
            _ = try? bytes.withUnsafeBytes { try decoder.decode(packet: $0, frames: nil, into: buffer) }
        }
    }
}

/// Decodes up to 8192 frames and seeks once, as afconvert and a player would.
private func decode(_ file: AudioFile) {
    _ = registerDecoders
    guard let reader = try? ExtAudioFile(file: file) else { return }
    let f = reader.decodedFormat
    let client = AudioStreamBasicDescription.linearPCM(sampleRate: f.sampleRate, channels: f.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
    guard client.channelsPerFrame <= 64, (try? reader.setClientDataFormat(client)) != nil,
          let buffer = PCMBuffer(format: client, frameCapacity: 4096) else { return }
    for _ in 0..<2 {
        buffer.frameLength = 0
        _ = try? reader.read(into: buffer, frameCount: 4096)
    }
    _ = try? reader.seek(toFrame: reader.fileLengthFrames / 2)
    buffer.frameLength = 0
    _ = try? reader.read(into: buffer, frameCount: 4096)
}

/// libFuzzer's driver, present when linking with -sanitize=fuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The package manager links an executable target's entry point under this name; hand control
/// to libFuzzer's driver with the fuzz function.
@_cdecl("AudioFileFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
