// tpbench: plays a 16-bit PCM WAVE file through one of AudioTimePitch's processors at a rate
// (and pitch) and writes a 16-bit PCM WAVE file, 1024 frames per write as an audio queue would:
// the whole-process counterpart of `rubberband -T RATE in.wav out.wav` for Benchmarks/timepitch.
//
// usage: tpbench ALGORITHM RATE [CENTS] IN.wav OUT.wav   (ALGORITHM: spec, tido, vspd)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioTimePitch

func fail(_ text: String) -> Never {
    var line = "tpbench: " + text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4 || arguments.count == 5 else { fail("usage: tpbench ALGORITHM RATE [CENTS] IN.wav OUT.wav") }
let code = Array(arguments[0].utf8)
guard code.count == 4 else { fail("ALGORITHM is a four-character code") }
let algorithm = TimePitchAlgorithm(rawValue: code.reduce(0) { $0 << 8 | UInt32($1) })
guard let rate = Double(arguments[1]) else { fail("bad rate") }
let cents = arguments.count == 5 ? Double(arguments[2]) ?? 0 : 0
let inPath = arguments[arguments.count - 2], outPath = arguments[arguments.count - 1]
guard let input = fopen(inPath, "rb") else { fail("cannot open \(inPath)") }
guard let output = fopen(outPath, "wb") else { fail("cannot create \(outPath)") }

@MainActor func readBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard fread(&bytes, 1, count, input) == count else { fail("short file") }
    return bytes
}
func le32(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }

guard String(decoding: readBytes(12)[0..<4], as: UTF8.self) == "RIFF" else { fail("not RIFF") }
var channels = 0, sampleRate = 0, dataBytes = 0
while true {
    let header = readBytes(8)
    let id = String(decoding: header[0..<4], as: UTF8.self), size = le32(header, 4)
    if id == "data" { dataBytes = size; break }
    let body = readBytes(size + size % 2)
    if id == "fmt " {
        guard le16(body, 0) == 1 || le16(body, 0) == 0xFFFE, le16(body, 14) == 16 else { fail("not 16-bit PCM") }
        channels = le16(body, 2)
        sampleRate = le32(body, 4)
    }
}
guard channels > 0 else { fail("no fmt chunk") }
guard let processor = TimePitch.make(algorithm, sampleRate: Double(sampleRate), channels: channels) else {
    fail("no processor for \(algorithm) at \(sampleRate) Hz, \(channels) channels")
}
processor.rate = rate
processor.pitchCents = cents

func put32(_ b: inout [UInt8], _ v: Int) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
func put16(_ b: inout [UInt8], _ v: Int) { for i in 0..<2 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
@MainActor func waveHeader(frames: Int) -> [UInt8] {
    var h: [UInt8] = Array("RIFF".utf8)
    put32(&h, 36 + frames * channels * 2)
    h += Array("WAVEfmt ".utf8)
    put32(&h, 16); put16(&h, 1); put16(&h, channels); put32(&h, sampleRate)
    put32(&h, sampleRate * channels * 2); put16(&h, channels * 2); put16(&h, 16)
    h += Array("data".utf8)
    put32(&h, frames * channels * 2)
    return h
}
_ = waveHeader(frames: 0).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, output) }

let chunk = 1024
let totalFrames = dataBytes / (2 * channels)
var pcm = [Int16](repeating: 0, count: TimePitch.maximumBlockFrames * channels)
var floats = [Float](repeating: 0, count: TimePitch.maximumBlockFrames * channels)
var written = 0

@MainActor func drain() {
    while processor.availableFrames > 0 {
        let n = floats.withUnsafeMutableBufferPointer { processor.read(into: $0.baseAddress!, frames: TimePitch.maximumBlockFrames) }
        if n == 0 { break }
        for i in 0..<(n * channels) { pcm[i] = Int16(max(-32768, min(32767, (floats[i] * 32768).rounded()))) }
        _ = pcm.withUnsafeBytes { fwrite($0.baseAddress, 2, n * channels, output) }
        written += n
    }
}

var done = 0
while done < totalFrames {
    let n = min(chunk, totalFrames - done)
    _ = pcm.withUnsafeMutableBytes { fread($0.baseAddress, 2, n * channels, input) }
    for i in 0..<(n * channels) { floats[i] = Float(Int16(littleEndian: pcm[i])) / 32768 }
    floats.withUnsafeBufferPointer { processor.write($0.baseAddress!, frames: n) }
    drain()
    done += n
}
processor.finish()
drain()
fseek(output, 0, SEEK_SET)
_ = waveHeader(frames: written).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, output) }
fclose(output)
