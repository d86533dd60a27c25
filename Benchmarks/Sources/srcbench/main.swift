// srcbench: resamples a 16-bit PCM WAVE file with AudioConverterServices' SampleRateConverter
// (libsoxr) and writes a 16-bit PCM WAVE file, 4096 frames per call: the whole-process
// counterpart of `sox in.wav -r RATE out.wav` for Benchmarks/src.
//
// usage: srcbench [-q QUALITY] RATE IN.wav OUT.wav   (QUALITY: Apple's value, default 0x60 High)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioConverterServices

func fail(_ text: String) -> Never {
    var line = "srcbench: " + text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var quality = SampleRateConverterQuality.high
if arguments.first == "-q", arguments.count > 1 {
    let text = arguments[1]
    guard let raw = text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text) else { fail("bad quality \(text)") }
    quality = SampleRateConverterQuality(rawValue: raw)
    arguments.removeFirst(2)
}
guard arguments.count == 3, let outputRate = Double(arguments[0]) else { fail("usage: srcbench [-q QUALITY] RATE IN.wav OUT.wav") }
guard let input = fopen(arguments[1], "rb") else { fail("cannot open \(arguments[1])") }
guard let output = fopen(arguments[2], "wb") else { fail("cannot create \(arguments[2])") }

@MainActor func readBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard fread(&bytes, 1, count, input) == count else { fail("short file") }
    return bytes
}
func le32(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }

// RIFF header, then chunks up to "data"; "fmt " must say 16-bit PCM.
guard String(decoding: readBytes(12)[0..<4], as: UTF8.self) == "RIFF" else { fail("not RIFF") }
var channels = 0, inputRate = 0, dataBytes = 0
while true {
    let header = readBytes(8)
    let id = String(decoding: header[0..<4], as: UTF8.self), size = le32(header, 4)
    if id == "data" { dataBytes = size; break }
    let body = readBytes(size + size % 2)
    if id == "fmt " {
        guard le16(body, 0) == 1 || le16(body, 0) == 0xFFFE, le16(body, 14) == 16 else { fail("not 16-bit PCM") }
        channels = le16(body, 2)
        inputRate = le32(body, 4)
    }
}
guard channels > 0 else { fail("no fmt chunk") }

let converter: SampleRateConverter
do {
    converter = try SampleRateConverter(inputRate: Double(inputRate), outputRate: outputRate, channels: channels, quality: quality)
} catch {
    fail("\(error.reason)")
}

func put32(_ b: inout [UInt8], _ v: Int) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
func put16(_ b: inout [UInt8], _ v: Int) { for i in 0..<2 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
@MainActor func waveHeader(frames: Int) -> [UInt8] {
    var h: [UInt8] = Array("RIFF".utf8)
    put32(&h, 36 + frames * channels * 2)
    h += Array("WAVEfmt ".utf8)
    put32(&h, 16); put16(&h, 1); put16(&h, channels); put32(&h, Int(outputRate))
    put32(&h, Int(outputRate) * channels * 2); put16(&h, channels * 2); put16(&h, 16)
    h += Array("data".utf8)
    put32(&h, frames * channels * 2)
    return h
}
_ = waveHeader(frames: 0).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, output) }

let chunk = 4096
let totalFrames = dataBytes / (2 * channels)
var pcm = [Int16](repeating: 0, count: chunk * channels)
var floats = [Float](repeating: 0, count: chunk * channels)
let room = converter.maximumOutputFrames(forInputFrames: chunk) + 4096
var resampled = [Float](repeating: 0, count: room * channels)
var packed = [Int16](repeating: 0, count: room * channels)
var written = 0

@MainActor func emit(_ frames: Int) {
    let n = frames * channels
    resampled.withUnsafeBufferPointer { source in
        packed.withUnsafeMutableBufferPointer { target in
            for i in 0..<n {
                let v = (source[i] * 32768).rounded()
                target[i] = Int16(max(-32768, min(32767, v)))
            }
        }
    }
    _ = packed.withUnsafeBytes { fwrite($0.baseAddress, 1, n * 2, output) }
    written += frames
}

var remaining = totalFrames
while remaining > 0 {
    let frames = min(chunk, remaining)
    guard fread(&pcm, 2 * channels, frames, input) == frames else { fail("short data") }
    pcm.withUnsafeBufferPointer { source in
        floats.withUnsafeMutableBufferPointer { target in
            for i in 0..<(frames * channels) { target[i] = Float(Int16(littleEndian: source[i])) * (1.0 / 32768) }
        }
    }
    var offset = 0
    while offset < frames {
        let capacity = converter.maximumOutputFrames(forInputFrames: frames - offset)
        let (taken, made) = floats.withUnsafeBufferPointer { source in
            resampled.withUnsafeMutableBufferPointer {
                converter.process(source.baseAddress! + offset * channels, frames: frames - offset, into: $0.baseAddress!, capacity: min(capacity, room))
            }
        }
        emit(made)
        offset += taken
    }
    remaining -= frames
}
while true {
    let made = resampled.withUnsafeMutableBufferPointer { converter.finish(into: $0.baseAddress!, capacity: room) }
    if made == 0 { break }
    emit(made)
}
fseek(output, 0, SEEK_SET)
_ = waveHeader(frames: written).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, output) }
fclose(output)
fclose(input)
