// afconvert: decodes any supported file and writes linear PCM in WAVE, CAF or AIFF, with
// Apple's afconvert flags.
#if canImport(Glibc)
import Glibc
#endif
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioCodecFAAD
import AudioCodecMPG123
import ExtendedAudioFileServices
import ToolSupport

let usage = """
    usage: afconvert [-f WAVE|caff|AIFF] [-d LEI16|LEI24|LEI32|LEF32|LEF64|BEI16|BEI24|BEI32|BEF32|BEF64] [-v] [--threads N] IN OUT
      -f   output file type (default: from OUT's extension)
      -d   output data format: L/B = little/big-endian, I/F = integer/float, then bits
           (default: the source's format where it is linear PCM, else LEI16)
      -v   verbose
      --threads N  decode a compressed file on up to N threads (default: the number of
           processors; 1 decodes on one); the output is the same whatever N
    Output rate and channel count are the source's. AIFF output is big-endian; little-endian or
    float data in AIFF is written as AIFF-C.
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = "afconvert: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var fileType: AudioFileType?
var dataFormatName: String?
var verbose = false
var threads = ExtAudioFile.processorCount
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "-f", "--file":
        guard let value = arguments.next() else { fail("-f needs a file type\n\(usage)", status: 2) }
        switch value.lowercased() {
        case "wave", "wav": fileType = .wave
        case "caff", "caf": fileType = .caf
        case "aiff", "aif", "aifc": fileType = .aiff
        default: fail("unknown file type '\(value)'\n\(usage)", status: 2)
        }
    case "-d", "--data":
        guard let value = arguments.next() else { fail("-d needs a data format\n\(usage)", status: 2) }
        dataFormatName = value
    case "-v", "--verbose": verbose = true
    case "--threads":
        guard let value = arguments.next(), let n = Int(value), n >= 1 else { fail("--threads needs a count of at least 1\n\(usage)", status: 2) }
        threads = n
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") && argument.count > 1 { fail("unknown option \(argument)\n\(usage)", status: 2) }
        paths.append(argument)
    }
}
guard paths.count == 2 else { fail(usage, status: 2) }
let (inputPath, outputPath) = (paths[0], paths[1])

if fileType == nil {
    let ext = outputPath.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "wav", "wave": fileType = .wave
    case "caf": fileType = .caf
    case "aif", "aiff", "aifc": fileType = .aiff
    default: fail("cannot tell the output file type from '\(outputPath)'; use -f WAVE|caff|AIFF", status: 2)
    }
}

AACDecoder.register()
MP3Decoder.register()

let reader: ExtAudioFile
do {
    reader = try ExtAudioFile(path: inputPath)
} catch {
    fail("\(inputPath): \(error) ")
}

let source = reader.decodedFormat
var output: AudioStreamBasicDescription
if let name = dataFormatName {
    guard let specifier = DataFormatSpecifier(name), case .pcm = specifier.kind, specifier.sampleRate == nil else {
        fail("unknown data format '\(name)'\n\(usage)", status: 2)
    }
    output = specifier.format(sampleRate: source.sampleRate, channels: source.channelsPerFrame)
} else if reader.fileDataFormat.isPCM {
    // The source's own samples, packed: 20-bit or 24-in-32 become whole bytes (exactly).
    let bits = (source.bitsPerChannel + 7) / 8 * 8
    output = .linearPCM(
        sampleRate: source.sampleRate, channels: source.channelsPerFrame, bitsPerChannel: bits,
        isFloat: source.isFloat, isBigEndian: source.isBigEndian, isSigned: source.isSignedInteger || bits > 8)
} else {
    output = .linearPCM(sampleRate: source.sampleRate, channels: source.channelsPerFrame, bitsPerChannel: 16)
}
// The containers' own byte orders: WAVE is little-endian, AIFF is big-endian (AIFF-C holds the rest).
if fileType == .wave && output.isBigEndian {
    output.formatFlags.remove(.isBigEndian)
} else if fileType == .aiff && !output.isBigEndian && output.bitsPerChannel > 8 {
    output.formatFlags.insert(.isBigEndian)
}
if output.bitsPerChannel == 8 && !output.isFloat {
    // 8-bit WAVE is unsigned; CAF and AIFF hold signed samples.
    if fileType == .wave { output.formatFlags.remove(.isSignedInteger) } else { output.formatFlags.insert(.isSignedInteger) }
}

do {
    try reader.setClientDataFormat(output)
} catch {
    fail("cannot convert \(source) to \(output): \(error)")
}

/// For WAVE output: the order that puts the source's channels into WAVE's speaker order
/// (dwChannelMask bit order, which is Core Audio's channel label order) and the mask, when the
/// source names every channel with a label WAVE has.
func waveOrder(_ layout: AudioChannelLayout?, channels: Int) -> (order: [Int], mask: UInt32)? {
    guard let labels = layout?.labels, labels.count == channels else { return nil }
    var bits: [(bit: Int, index: Int)] = []
    for (index, label) in labels.enumerated() {
        guard (1...18).contains(label.rawValue) else { return nil }
        bits.append((Int(label.rawValue) - 1, index))
    }
    guard Set(bits.map(\.bit)).count == channels else { return nil }
    let sorted = bits.sorted { $0.bit < $1.bit }
    return (sorted.map(\.index), sorted.reduce(UInt32(0)) { $0 | 1 << UInt32($1.bit) })
}

var layout = reader.channelLayout
var reorder: [Int]?
if fileType == .wave, let wave = waveOrder(layout, channels: Int(output.channelsPerFrame)) {
    layout = AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: wave.mask))
    if wave.order != Array(0..<wave.order.count) { reorder = wave.order }
} else if fileType == .wave {
    layout = nil  // WAVE records only speaker masks, one speaker per channel
}
/// The file's device and inode, to refuse converting a file onto itself.
func identity(_ path: String) -> (UInt64, UInt64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino))
}
if let a = identity(inputPath), let b = identity(outputPath), a == b {
    fail("\(outputPath) is the input file; choose another output path", status: 2)
}

// Written under a temporary name and renamed when complete, so a failed conversion leaves no
// partial file and leaves an existing file at that path untouched.
let temporaryPath = outputPath + ".afconvert-\(getpid()).tmp"
let writer: AudioFileWriter
do {
    writer = try AudioFileWriter(path: temporaryPath, type: fileType!, format: output, flags: .eraseFile, channelLayout: layout)
} catch {
    fail("\(outputPath): \(error)")
}
func failWriting(_ message: String) -> Never {
    unlink(temporaryPath)
    fail(message)
}
if verbose {
    print("Input file: \(inputPath), \(reader.fileLengthFrames) frames")
    print("Formats:\n  \(reader.fileDataFormat)\n  -> \(output)")
}

let total = reader.fileLengthFrames
let showProgress = isatty(2) != 0 && Double(total) / source.sampleRate > 10
var scratch = [UInt8](repeating: 0, count: Int(output.bytesPerFrame))
var done: Int64 = 0
var lastPercent = -1
var writeError: (any Error)?
// The whole file in order, decoded in pieces on up to `threads` threads; each buffer (about 1
// MiB) is written in WAVE's channel order where it differs.
do {
    try reader.readAll(maximumThreads: threads) { buffer in
        let n = buffer.frameLength
        if let reorder {
            // Channel k of each output frame is channel reorder[k] of the decoded frame.
            let frameBytes = Int(output.bytesPerFrame)
            let sampleBytes = frameBytes / reorder.count
            let data = buffer.region()
            scratch.withUnsafeMutableBytes { frame in
                for f in 0..<n {
                    let base = data.baseAddress! + f * frameBytes
                    for (k, from) in reorder.enumerated() {
                        (frame.baseAddress! + k * sampleBytes).copyMemory(from: base + from * sampleBytes, byteCount: sampleBytes)
                    }
                    base.copyMemory(from: frame.baseAddress!, byteCount: frameBytes)
                }
            }
        }
        do {
            try writer.writePackets(UnsafeRawBufferPointer(buffer.region()), count: n)
        } catch {
            writeError = error
            return false
        }
        done += Int64(n)
        if showProgress {
            let percent = Int(done * 100 / max(total, 1))
            if percent != lastPercent {
                var line = "\rafconvert: \(percent)%"
                line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
                lastPercent = percent
            }
        }
        return true
    }
} catch {
    failWriting("\(inputPath): \(error)")
}
if let writeError { failWriting("\(outputPath): \(writeError)") }
do {
    try writer.close()
} catch {
    failWriting("\(outputPath): \(error)")
}
guard rename(temporaryPath, outputPath) == 0 else {
    failWriting("\(outputPath): \(String(cString: strerror(errno)))")
}
if showProgress {
    var line = "\r\u{1B}[K"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
if reader.badPackets > 0 {
    fail("\(inputPath): \(reader.badPackets) packet(s) could not be decoded and were replaced by silence", status: 1)
}
if verbose { print("Wrote \(done) frames to \(outputPath)") }
