// afconvert: decodes any supported file and writes it in any format the package encodes (linear
// PCM, IMA4, G.711, AAC, FLAC, Opus, …) in WAVE, CAF, AIFF, MPEG-4, ADTS, FLAC or Ogg, resampled and remapped to the
// channels asked for, with Apple's afconvert flags.
#if canImport(Glibc)
import Glibc
#endif
import AudioCore
import AudioFileServices
import AudioCodecs
import AudioConverterServices
import AudioCodecKit
import ExtendedAudioFileServices
import ToolSupport

let usage = """
    usage: afconvert [-f TYPE] [-d FORMAT[@RATE][/FLAGS][#FRAMES]] [-c CHANNELS] [-b BITRATE] [-q QUALITY] [-r QUALITY] [-v] [--threads N] [--no-tags] IN OUT
      -f   output file type: WAVE, caff, AIFF, AIFC, m4af, mp4f, adts, flac, Opus (Ogg Opus; also ogg)
           (default: from OUT's extension)
      -d   output data format: LEI16 LEI24 LEI32 LEF32 LEF64 (L/B = little/big-endian, I/F =
           integer/float, then bits), UI8, I8, ima4, ulaw, alaw, aac, flac, opus (alac names a
           format read, not written), optionally @RATE to resample, /FLAGS format flags and #FRAMES
           frames per packet (default: the source's format where it is linear PCM, else LEI16;
           AAC for m4af, mp4f and adts; FLAC for flac; Opus for Opus). Opus is 48 kHz (other
           rates are resampled to it), 960 frames (20 ms) a packet unless #FRAMES says otherwise. FLAC keeps the source's bit depth
           (16 for float or compressed sources); flac/1, /2, /3, /4 ask for 16, 20, 24, 32 bits
      -c   output channel count (default: the source's); mono is copied to every channel,
           more channels are mapped as AudioConverter maps them
      -b   encoder bit rate in bits per second (AAC: default 128000 for stereo at 44.1 kHz;
           Opus: variable, default 96000 for stereo, 64000 for mono, 6000-256000 per channel)
      -q   encoder quality, 0-127 (kAudioConverterCodecQuality; FLAC: 0 → level 0, 32 → 2,
           64 → 4, 96 → 5 (libFLAC's default, used when -q is not given), 127 → 8; Opus:
           complexity 0 → 0, 32 → 3, 64 → 7, 96 and 127 → 10, the default)
      -r, --src-quality  sample-rate converter quality, 0-127 (kAudioConverterQuality_*: 127 max,
           96 high (default), 64 medium, 32 low, 0 min)
      -v   verbose
      --no-tags  leave out the source's tags and pictures (by default its info dictionary and
           album artwork are copied: WAVE (id3 chunk), AIFF (ID3 chunk) and ADTS as ID3v2,
           MPEG-4 as iTunes items, FLAC as Vorbis comments and PICTURE blocks, CAF as an info
           chunk, which holds no pictures)
      --threads N  decode a compressed file on up to N threads (default: the number of
           processors; 1 decodes on one); the output is the same whatever N
    AIFF output is big-endian; little-endian or float data in AIFF is written as AIFF-C.
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = "afconvert: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var fileType: AudioFileType?
var dataFormatName: String?
var channelCount: UInt32?
var bitRate: Int?
var codecQuality: Int?
var srcQuality = SampleRateConverterQuality.high
var verbose = false
var copyTags = true
var threads = ExtAudioFile.processorCount
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
@MainActor func number(_ option: String, _ range: ClosedRange<Int>) -> Int {
    guard let value = arguments.next(), let n = Int(value), range.contains(n) else {
        fail("\(option) needs a number in \(range.lowerBound)...\(range.upperBound)\n\(usage)", status: 2)
    }
    return n
}
while let argument = arguments.next() {
    switch argument {
    case "-f", "--file":
        guard let value = arguments.next() else { fail("-f needs a file type\n\(usage)", status: 2) }
        guard let type = FileTypeName.type(value) else { fail("unknown file type '\(value)'\n\(usage)", status: 2) }
        fileType = type
    case "-d", "--data":
        guard let value = arguments.next() else { fail("-d needs a data format\n\(usage)", status: 2) }
        dataFormatName = value
    case "-c", "--channels": channelCount = UInt32(number(argument, 1...64))
    case "-b", "--bitrate": bitRate = number(argument, 1...10_000_000)
    case "-q", "--quality": codecQuality = number(argument, 0...127)
    case "-r", "--src-quality": srcQuality = SampleRateConverterQuality(rawValue: UInt32(number(argument, 0...127)))
    case "-v", "--verbose": verbose = true
    case "--no-tags": copyTags = false
    case "--threads": threads = number(argument, 1...1024)
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
    guard let type = FileTypeName.type(forPath: outputPath) else {
        fail("cannot tell the output file type from '\(outputPath)'; use -f WAVE|caff|AIFF|m4af|adts", status: 2)
    }
    fileType = type
}
let isMPEG4 = FileTypeName.holdsAAC(fileType!)

// The codecs alone, not AudioQueueKit: a file conversion plays nothing, and linking the audio
// backends and queues loaded the sound server and device libraries (PulseAudio, ALSA, PipeWire)
// and the time/pitch unit's at every start.
AudioCodecKit.registerAll()

let reader: ExtAudioFile
do {
    reader = try ExtAudioFile(path: inputPath)
} catch {
    fail("\(inputPath): \(error) ")
}

let source = reader.decodedFormat

/// The bit depth FLAC keeps of `source`: its own for integer samples of 4 to 32 bits, else 16.
func flacDepth(of source: AudioStreamBasicDescription) -> Int {
    let bits = Int(source.bitsPerChannel)
    return source.isPCM && !source.isFloat && (4...32).contains(bits) ? bits : 16
}
let channels = channelCount ?? source.channelsPerFrame
var output: AudioStreamBasicDescription
if let name = dataFormatName ?? (isMPEG4 ? "aac" : fileType == .flac ? "flac" : fileType == .ogg ? "opus" : nil) {
    guard let specifier = DataFormatSpecifier(name) else { fail("unknown data format '\(name)'\n\(usage)", status: 2) }
    output = specifier.format(sampleRate: source.sampleRate, channels: channels)
    if output.formatID == .flac && output.formatFlags.rawValue == 0 && output.bitsPerChannel == 0 {
        // As Apple's afconvert: FLAC of the source's bit depth (integer PCM), else 16 bits.
        output = FLACDataFormat.description(sampleRate: output.sampleRate, channels: channels, bitDepth: flacDepth(of: source))
        if let frames = specifier.framesPerPacket { output.framesPerPacket = frames }
    }
} else if reader.fileDataFormat.isPCM {
    // The source's own samples, packed: 20-bit or 24-in-32 become whole bytes (exactly).
    let bits = (source.bitsPerChannel + 7) / 8 * 8
    output = .linearPCM(
        sampleRate: source.sampleRate, channels: channels, bitsPerChannel: bits,
        isFloat: source.isFloat, isBigEndian: source.isBigEndian, isSigned: source.isSignedInteger || bits > 8)
} else {
    output = .linearPCM(sampleRate: source.sampleRate, channels: channels, bitsPerChannel: 16)
}
if output.isPCM {
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
} else if !AudioEncoders.canEncode(output.formatID) {
    fail("no encoder for \(output.formatID.messageName): this build encodes \(AudioEncoders.formatIDs.map(\.messageName).joined(separator: ", "))", status: 2)
}
// An encoder completes the file's description (frames per packet, flags, and for Opus the
// rate: 48 kHz, which the source is resampled to).
var fileFormat = output
if !output.isPCM {
    do {
        fileFormat = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: output), to: output).outputFormat
    } catch {
        fail("cannot encode \(output): \(error)", status: 2)
    }
    output.sampleRate = fileFormat.sampleRate
}
let reshaped = output.sampleRate != source.sampleRate || output.channelsPerFrame != source.channelsPerFrame
// Encoded output is fed Float32 at its rate and channel count; linear PCM is read in its own
// format, and so is integer PCM for FLAC of its depth: 32-bit samples, which Float32 would
// round, and narrower ones, which FLAC's encoder reads with no trip through Float32.
let flacOutputDepth = output.formatID == .flac ? FLACDataFormat.bitDepth(of: output) : nil
let wholeWords = !reshaped && source.isPCM && !source.isFloat && flacOutputDepth.map {
    [8, 16, 24, 32].contains($0) && Int(source.bitsPerChannel) == $0
} == true
let client = output.isPCM ? output : .linearPCM(
    sampleRate: output.sampleRate, channels: output.channelsPerFrame,
    bitsPerChannel: wholeWords ? UInt32(flacOutputDepth ?? 32) : 32, isFloat: !wholeWords, isSigned: true)
do {
    try reader.setClientDataFormat(client, quality: srcQuality)
} catch {
    fail("cannot convert \(source) to \(client): \(error)")
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

var layout = output.channelsPerFrame == source.channelsPerFrame ? reader.channelLayout : nil
if isMPEG4 { layout = nil }  // AAC's channel configurations say the order
var reorder: [Int]?
if fileType == .wave, let wave = waveOrder(layout, channels: Int(output.channelsPerFrame)) {
    layout = AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: wave.mask))
    if wave.order != Array(0..<wave.order.count) { reorder = wave.order }
} else if fileType == .wave {
    layout = nil  // WAVE records only speaker masks, one speaker per channel
}
/// Puts the channels of `frames` interleaved frames of `T`-sized samples at `data` in `order`
/// (channel k of each frame becomes the frame's channel `order[k]`), in place.
func permute<T: FixedWidthInteger>(_ data: UnsafeMutableRawPointer, frames: Int, order: [Int], as: T.Type) {
    let channels = order.count
    let samples = data.assumingMemoryBound(to: T.self)
    withUnsafeTemporaryAllocation(of: T.self, capacity: channels) { frame in
        order.withUnsafeBufferPointer { order in
            for f in 0..<frames {
                let base = samples + f * channels
                for k in 0..<channels { frame[k] = base[order[k]] }
                for k in 0..<channels { base[k] = frame[k] }
            }
        }
    }
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
    writer = try AudioFileWriter(path: temporaryPath, type: fileType!, format: fileFormat, flags: .eraseFile, channelLayout: layout)
} catch {
    fail("\(outputPath): \(error)")
}
func failWriting(_ message: String) -> Never {
    unlink(temporaryPath)
    fail(message)
}
if copyTags {
    // The source's tags, less the entries that describe its audio rather than the recording
    // (the destination's own duration, bit rate and layout differ), before the first packet so
    // that FLAC and ADTS put them ahead of the audio. CAF holds no pictures.
    let describing: Set<AudioFileInfo.Key> = [.approximateDurationInSeconds, .nominalBitRate, .channelLayout]
    let info = AudioFileInfo(reader.file.info.entries.filter { !describing.contains($0.key) }.map { ($0.key.rawValue, $0.value) })
    do {
        try writer.setInfo(info)
        let pictures = reader.file.pictures
        if !pictures.isEmpty && writer.fileType != .caf { try writer.setPictures(pictures) }
    } catch {
        failWriting("\(outputPath): cannot copy the tags (--no-tags leaves them out): \(error)")
    }
}
/// The encoder's side: Float32 frames in, packets, cookie and packet table out.
var encoding: ExtAudioFileWriter?
if !output.isPCM {
    do {
        let ext = try ExtAudioFileWriter(wrapping: writer)
        try ext.setClientDataFormat(client)
        if let bitRate { try ext.converter?.setEncodeBitRate(bitRate) }
        if let codecQuality { ext.converter?.codecQuality = codecQuality }
        encoding = ext
    } catch {
        failWriting("cannot encode \(output): \(error)")
    }
}
if verbose {
    print("Input file: \(inputPath), \(reader.fileLengthFrames) frames")
    print("Formats:\n  \(reader.fileDataFormat)\n  -> \(fileFormat)")
    if reshaped { print("Resampled or remapped: \(source.sampleRate) Hz, \(source.channelsPerFrame) ch -> \(output.sampleRate) Hz, \(output.channelsPerFrame) ch") }
    if let rate = encoding?.converter?.encodeBitRate, rate > 0 { print("Bit rate: \(rate) bit/s") }
}

let total = reader.clientLengthFrames
let showProgress = isatty(2) != 0 && Double(total) / client.sampleRate > 10
var scratch = [UInt8](repeating: 0, count: Int(client.bytesPerFrame))
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
            let frameBytes = Int(client.bytesPerFrame)
            let sampleBytes = frameBytes / reorder.count
            let data = buffer.region()
            switch sampleBytes {
            case 2: permute(data.baseAddress!, frames: n, order: reorder, as: UInt16.self)
            case 4: permute(data.baseAddress!, frames: n, order: reorder, as: UInt32.self)
            case 8: permute(data.baseAddress!, frames: n, order: reorder, as: UInt64.self)
            default:
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
        }
        do {
            if let encoding {
                try encoding.write(buffer)
            } else {
                try writer.writePackets(UnsafeRawBufferPointer(buffer.region()), count: n)
            }
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
    try encoding?.close()
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
