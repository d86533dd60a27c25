// aqrecord: records from an input device into an audio file through an input audio queue the
// way Apple's "Audio Queue Services Programming Guide" (Recording Audio) does.
#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import Dispatch
import ToolSupport

let usage = """
    usage: aqrecord [-f caff|AIFF|AIFC|WAVE|m4af|adts|flac|Opus] [-d FORMAT[@RATE][/FLAGS]] [-c CHANNELS] [--duration SECONDS]
                    [--backend NAME [--device NAME]] OUT
           aqrecord --list-devices
      Records from the input device into OUT through an input audio queue: three buffers of
      half a second, each written to the file by the input callback and enqueued again.
      -f TYPE            file type (default: from OUT's extension, else AIFF)
      -d FORMAT[@RATE]   data format: LEI16, BEI16, LEI24, BEI24, LEI32, BEI32, LEF32, BEF32,
                         LEF64, BEF64, UI8, I8, ima4, ulaw, alaw, aac, flac or opus, and the
                         sample rate (default: BEI16@44100, LEI16 for WAVE, aac for m4af and
                         adts, flac for flac: 16-bit; flac/3 records 24-bit FLAC; opus@48000
                         for Opus (.opus), which other rates are resampled to)
      -c CHANNELS        channels (default 2)
      --duration S       stop after S seconds (default: until Ctrl-C)
      --backend NAME     the input backend (default: $AUDIOQUEUE_BACKEND, else the first sound
                         backend that works)
      --device NAME      a device of that backend, e.g. a PulseAudio source (sink.monitor)
      --list-devices     list the backends and their input devices
    Ctrl-C stops recording: everything recorded so far is written, and the file is closed.
    """

func fail(_ message: String) -> Never {
    printError("aqrecord: \(message)")
    exit(1)
}

func usageError(_ message: String?) -> Never {
    if let message { printError("aqrecord: \(message)") }
    printError(usage)
    exit(2)
}

var fileType: AudioFileType?
var specifier: DataFormatSpecifier?
var channels: UInt32 = 2
var duration: Double?
var backend: String?
var device: String?
var list = false
var path: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "-f", "--file":
        guard let value = arguments.next() else { usageError("-f needs a file type") }
        guard let type = FileTypeName.type(value) else { usageError("unknown file type '\(value)'") }
        fileType = type
    case "-d", "--data":
        guard let value = arguments.next(), let s = DataFormatSpecifier(value) else { usageError("-d needs a data format") }
        specifier = s
    case "-c", "--channels":
        guard let value = arguments.next(), let n = UInt32(value), n >= 1, n <= 64 else { usageError("-c needs 1 to 64 channels") }
        channels = n
    case "--duration":
        guard let value = arguments.next(), let s = Double(value), s > 0, s.isFinite else { usageError("--duration needs seconds") }
        duration = s
    case "--backend":
        guard let value = arguments.next(), !value.isEmpty, !value.contains(":") else {
            usageError("--backend needs a backend name (see --list-devices)")
        }
        backend = value
    case "--device":
        guard let value = arguments.next(), !value.isEmpty else { usageError("--device needs a device name") }
        device = value
    case "--list-devices":
        list = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") && argument.count > 1 { usageError("unknown option \(argument)") }
        guard path == nil else { usageError("one output file") }
        path = argument
    }
}

AudioQueueKit.registerAll()

if list {
    listDevices(.input)
    exit(0)
}
guard let path else { usageError(nil) }
if device != nil && backend == nil { usageError("--device needs --backend") }
if fileType == nil {
    fileType = FileTypeName.type(forPath: path) ?? .aiff
}
let type = fileType ?? .aiff
// The chapter's format (section 2.8): 44.1 kHz, stereo, 16-bit big-endian integers; WAVE holds
// little-endian ones.
let mpeg4 = FileTypeName.holdsAAC(type)
let chosen = specifier ?? DataFormatSpecifier(
    mpeg4 ? "aac" : type == AudioFileType("flac") ? "flac" : type == .ogg ? "opus" : type == .wave ? "LEI16" : "BEI16")!
// Opus is coded at 48 kHz: recorded at that rate unless @RATE asks for another (resampled to it).
let opus = chosen.format(sampleRate: 44100, channels: channels).formatID == .opus
let format = chosen.format(sampleRate: opus ? 48000 : 44100, channels: channels)

do {
    exit(try record(to: path, type: type, format: format, duration: duration, device: backend.map { b in device.map { "\(b):\($0)" } ?? b }))
} catch let error as AudioQueueError {
    fail("\(backend ?? "the input device"): \(error.reason) (\(error.status))")
} catch let error as AudioFileError {
    fail("\(path): \(error.reason) (\(error.code.rawValue))")
} catch {
    fail("\(error)")
}
