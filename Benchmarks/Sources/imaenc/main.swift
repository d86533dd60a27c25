// imaenc: encodes a linear PCM file to Apple IMA4 with the package's encoder, the whole-process
// counterpart of `ffmpeg -i FILE -c:a adpcm_ima_qt -f null -`. Reads 4096 frames per call with
// AudioFile, converts them to Float32 (what a sound device captures) with PCMConverter, encodes
// them with IMA4Encoder, and writes the packets back to back to OUT when -o is given (else
// nowhere). Prints the counts to standard error with -v.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCodecs
import AudioCore
import AudioFileServices

/// Writes `text` to standard error.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

var verbose = false
var outPath: String?
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-v": verbose = true
    case "-o": outPath = arguments.popFirst()
    default: paths.append(argument)
    }
}
guard paths.count == 1, let path = paths.first else {
    printError("usage: imaenc [-v] [-o OUT] FILE")
    exit(2)
}

/// Frames per read and per encode call: 64 packets.
let framesPerCall = 4096

do {
    let file = try AudioFile(path: path)
    let source = file.dataFormat
    guard source.isPCM, source.bytesPerPacket > 0 else {
        printError("imaenc: \(path) is not linear PCM")
        exit(1)
    }
    let output = AudioStreamBasicDescription(
        sampleRate: source.sampleRate, formatID: .appleIMA4, bytesPerPacket: 0, framesPerPacket: 0, bytesPerFrame: 0,
        channelsPerFrame: source.channelsPerFrame, bitsPerChannel: 0)
    let input = AudioEncoders.inputFormat(for: output)
    let converter = try PCMConverter(from: source, to: input)
    let encoder = try AudioEncoders.make(from: input, to: output)
    let channels = Int(source.channelsPerFrame)

    let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: framesPerCall * Int(source.bytesPerPacket), alignment: 64)
    defer { pcm.deallocate() }
    let floats = UnsafeMutableRawBufferPointer.allocate(byteCount: framesPerCall * channels * 4, alignment: 64)
    defer { floats.deallocate() }
    let packets = UnsafeMutableRawBufferPointer.allocate(byteCount: encoder.outputByteCount(forFrames: framesPerCall) ?? 0, alignment: 64)
    defer { packets.deallocate() }
    let descriptor = outPath.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? -1
    if let outPath, descriptor < 0 {
        printError("imaenc: cannot create \(outPath)")
        exit(1)
    }
    defer { if descriptor >= 0 { close(descriptor) } }

    var start: Int64 = 0
    var packetCount = 0
    var byteCount = 0
    while start < file.packetCount {
        let (_, frames) = try file.readPackets(from: start, count: framesPerCall, into: pcm, descriptions: nil)
        if frames == 0 { break }
        start += Int64(frames)
        try converter.convert(UnsafeRawBufferPointer(pcm), frameCount: frames, into: floats)
        let result = try encoder.encode(UnsafeRawBufferPointer(floats), frameCount: frames, into: packets, packetDescriptions: nil)
        packetCount += result.packetCount
        byteCount += result.byteCount
        if descriptor >= 0 {
            var written = 0
            while written < result.byteCount {
                let n = write(descriptor, packets.baseAddress! + written, result.byteCount - written)
                if n <= 0 {
                    printError("imaenc: write failed")
                    exit(1)
                }
                written += n
            }
        }
    }
    if verbose { printError("\(path): \(start) frames, \(packetCount) packets, \(byteCount) bytes") }
} catch {
    printError("imaenc: \(path): \(error)")
    exit(1)
}
