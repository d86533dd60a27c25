// aqplay: plays an audio file through an output audio queue the way Apple's "Audio Queue
// Services Programming Guide" (Playing Audio) does, with QA1636's gapless looping, or renders
// it offline to a WAVE file.
#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import ToolSupport

let usage = """
    usage: aqplay [--loops N] [--volume V] [TIME/PITCH] [--channels C,...] [--backend NAME [--device NAME]] FILE
           aqplay [--volume V] [--timeout S] [--channels C,...] [--backend NAME [--device NAME]] - | http://HOST[:PORT]/PATH
           aqplay [--loops N] [--volume V] [TIME/PITCH] [--channels C,...] --offline OUT.wav FILE
           aqplay [--volume V] [--timeout S] [--channels C,...] --offline OUT.wav - | http://HOST[:PORT]/PATH
           aqplay --list-devices
      Plays FILE (CAF, AIFF/AIFC, WAVE/RF64, ADTS, MPEG-4, MP3; linear PCM, AAC, ALAC, MPEG
      audio, IMA4, G.711) through an output audio queue: three buffers refilled by the output
      callback, priming and remainder frames trimmed.
      -                  plays standard input, and a URL an HTTP stream (plain HTTP/1.1; ICY
                         stream titles shown), through Audio File Stream Services: the queue is
                         made when the stream is ready to produce packets. A stream that stalls
                         pauses, reported as an underrun, until the buffers refill; one cut short
                         plays what arrived, then fails. Streams play once (no --loops).
      --timeout S        seconds a stream may send nothing before it counts as dropped
                         (default: 30 for HTTP, none for standard input)
      --loops N          play N times in all, gaplessly (default 1; 0: until interrupted)
      --volume V         gain from 0 (silence) to 1 (unity, the default)
      --rate R           play at R times the speed, 0.5 to 2, through the queue's time/pitch
                         unit; on a terminal + and - change it by 0.1 while playing
      --pitch CENTS      shift the pitch by -2400 to 2400 cents (spectral only)
      --algorithm A      spectral (the default: music), timedomain (speech) or varispeed
                         (pitch follows the rate); any of these three enables time/pitch
      --offline OUT.wav  render as fast as possible into a 32-bit float WAVE file instead of
                         playing through a device
      --channels C,...   the device channels (from 1) the file's channels play on, one per
                         channel in order (kAudioQueueProperty_ChannelAssignments): 3,4 plays
                         a stereo file on channels 3 and 4, 2 a mono one on the right; the
                         device's other channels get silence. Offline, the file written has
                         as many channels as the highest named
      --backend NAME     the output backend (default: $AUDIOQUEUE_BACKEND, else the first sound
                         backend that works, else a WAVE file in $TMPDIR)
      --device NAME      a device of that backend (default: the backend's default device)
      --list-devices     list the backends and their output devices
    """

var options = Options()
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--loops":
        guard let value = arguments.next(), let n = Int(value), n >= 0 else {
            usageError("--loops needs a count of plays, 0 or more")
        }
        options.plays = n
    case "--volume":
        guard let value = arguments.next(), let v = Float(value), v >= 0, v <= 1 else {
            usageError("--volume needs a gain from 0 to 1")
        }
        options.volume = v
    case "--rate":
        guard let value = arguments.next(), let r = Float(value), r >= 0.5, r <= 2 else {
            usageError("--rate needs a rate from 0.5 to 2")
        }
        options.rate = r
    case "--pitch":
        guard let value = arguments.next(), let c = Float(value), c >= -2400, c <= 2400 else {
            usageError("--pitch needs cents from -2400 to 2400")
        }
        options.pitch = c
    case "--algorithm":
        guard let value = arguments.next(), let a = timePitchAlgorithm(named: value) else {
            usageError("--algorithm needs spectral, timedomain or varispeed")
        }
        options.algorithm = a
    case "--timeout":
        guard let value = arguments.next(), let t = Double(value), t > 0, t <= 86400 else {
            usageError("--timeout needs a number of seconds")
        }
        options.timeout = t
    case "--offline":
        guard let value = arguments.next(), !value.isEmpty else { usageError("--offline needs an output file") }
        options.offlinePath = value
    case "--backend":
        guard let value = arguments.next(), !value.isEmpty, !value.contains(":") else {
            usageError("--backend needs a backend name (see --list-devices)")
        }
        options.backend = value
    case "--device":
        guard let value = arguments.next(), !value.isEmpty else { usageError("--device needs a device name") }
        options.device = value
    case "--channels":
        guard let value = arguments.next(), let list = parseChannelList(value) else {
            usageError("--channels needs device channel numbers from 1 to 64, separated by commas, none twice")
        }
        options.channels = list
    case "--list-devices":
        options.listDevices = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") && argument.count > 1 { usageError("unknown option \(argument)") }
        guard options.path == nil else { usageError("one file at a time") }
        options.path = argument
    }
}

AudioQueueKit.registerAll()

if options.listDevices {
    listDevices(.output)
    exit(0)
}
guard let path = options.path else { usageError(nil) }
if options.device != nil && options.backend == nil {
    usageError("--device needs --backend")
}
if !isStream(path) && options.timeout != nil {
    usageError("--timeout is for streams (- or a URL)")
}
if isStream(path) && options.timePitch {
    usageError("--rate, --pitch and --algorithm need a file")
}
if isStream(path) && options.plays != 1 {
    usageError("--loops needs a file; a stream plays once")
}
if options.offlinePath != nil {
    if options.plays == 0 { usageError("--loops 0 with --offline would render forever") }
    if options.backend != nil { usageError("--offline renders without a device; drop --backend and --device") }
}

do {
    exit(try isStream(path) ? runStream(source: path, options: options) : run(path: path, options: options))
} catch let error as CommandError {
    fail(error.message)
} catch let error as AudioQueueError {
    fail("\(path): \(error.reason) (\(error.status))")
} catch let error as ByteStreamError {
    fail("\(path == "-" ? "standard input" : path): \(error.message)")
} catch let error as AudioFileError where error.reason.hasPrefix(path) {
    fail("\(error)")  // already names the file
} catch {
    fail("\(path): \(error)")
}
