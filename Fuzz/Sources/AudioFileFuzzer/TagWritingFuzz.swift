import AudioCore
import AudioFileServices

/// The tag writers over one fuzz input: an info dictionary and pictures made from the input's
/// bytes (NUL-separated keys and values, its bytes as pictures) and from the tags a reader found
/// in it, written to every container in memory. The writers must not trap, and the CAF, WAVE and
/// AIFF files they make must open again with their tags.
func fuzzTagWriting(_ bytes: [UInt8], found: AudioFileInfo?) {
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(32).map { String(decoding: $0, as: UTF8.self) }
    var pairs: [(key: String, value: String)] = []
    var i = 0
    while i + 1 < parts.count {
        pairs.append((parts[i], parts[i + 1]))
        i += 2
    }
    let info = AudioFileInfo(pairs + (found?.entries.map { ($0.key.rawValue, $0.value) } ?? []))
    let mime = ["image/png", "image/jpeg", "", String(decoding: bytes.prefix(12), as: UTF8.self)][Int(bytes.first ?? 0) % 4]
    let pictures = [AudioFilePicture(type: .init(rawValue: UInt32(bytes.last ?? 3)), mimeType: mime, description: parts.first ?? "", data: bytes)]
    _ = VorbisComment(parsing: VorbisComment(vendor: parts.last ?? "", fields: VorbisComment.fields(info: info, pictures: pictures)).body)?.appleInfo

    let pcm = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16)
    let aiff = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isBigEndian: true)
    let aac = AudioStreamBasicDescription(
        sampleRate: 44100, formatID: .mpeg4AAC, bytesPerPacket: 0, framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)
    let flac = FLACDataFormat.description(sampleRate: 44100, channels: 1, bitDepth: 16, framesPerPacket: 4096)
    let cases: [(AudioFileType, AudioStreamBasicDescription)] = [(.caf, pcm), (.wave, pcm), (.aiff, aiff), (.m4a, aac), (.adts, aac), (.flac, flac)]
    for (type, format) in cases {
        let sink = MemorySink()
        guard let writer = try? AudioFileWriter(sink: sink, type: type, format: format) else { continue }
        let setInfo = (try? writer.setInfo(info)) != nil
        if type != .caf { _ = try? writer.setPictures(pictures) }
        if format.isPCM {
            _ = try? [UInt8](repeating: 0, count: 64).withUnsafeBytes { try writer.writePackets($0, count: 32) }
        }
        _ = try? writer.setInfo(AudioFileInfo([("title", parts.last ?? "")]))
        _ = try? writer.close()
        guard format.isPCM else { continue }
        guard let file = try? AudioFile(source: MemoryByteSource(sink.bytes)) else {
            fatalError("a \(type) file written with tags does not open again")
        }
        _ = file.info
        _ = file.pictures
        if setInfo && file.packetCount != 32 { fatalError("a \(type) file written with tags lost its audio") }
    }
}

/// Storage in memory for the writers.
private final class MemorySink: AudioByteSink, @unchecked Sendable {
    var bytes: [UInt8] = []
    var name: String { "memory" }
    func write(_ data: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        let start = Int(offset), end = start + data.count
        if bytes.count < end { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
        bytes.replaceSubrange(start..<end, with: data)
    }
    func setSize(_ size: Int64) throws(AudioFileError) {
        if Int(size) < bytes.count { bytes.removeLast(bytes.count - Int(size)) } else { bytes += [UInt8](repeating: 0, count: Int(size) - bytes.count) }
    }
    func close() {}
}
