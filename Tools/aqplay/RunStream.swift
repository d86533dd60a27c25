#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import Dispatch
import Synchronization
import ToolSupport

/// True when `source` names a stream rather than a file: `-` (standard input) or a URL.
func isStream(_ source: String) -> Bool {
    source == "-" || HTTPURL.looksLikeURL(source)
}

/// Plays (or renders offline) standard input or an HTTP stream through Audio File Stream
/// Services; returns the exit status. A stream that ends early still plays what arrived,
/// then fails with the reason.
func runStream(source: String, options: Options) throws -> Int32 {
    let name = source == "-" ? "standard input" : source
    let showStatus = isatty(STDERR_FILENO) != 0
    let live = options.offlinePath == nil
    let stream: any ByteStream
    var typeHint: AudioFileType?
    let title = Mutex<String?>(nil)
    if source == "-" {
        stream = FileDescriptorStream(timeout: options.timeout)
    } else {
        let http: HTTPStream
        do {
            var httpOptions = HTTPStream.Options()
            httpOptions.readTimeout = options.timeout ?? httpOptions.readTimeout
            http = try HTTPStream(url: source, options: httpOptions)
        } catch {
            throw CommandError(message: "\(name): \(error.message)")
        }
        if let refusal = notAudio(contentType: http.header("content-type")) {
            throw CommandError(message: "\(name): \(refusal)")
        }
        typeHint = fileType(contentType: http.header("content-type"), path: http.url.target)
        if let station = http.header("icy-name").map({ printable($0) }), !station.isEmpty { print("station: \(station)") }
        // Titles go on the status line when there is one, else on lines of their own.
        let printsTitles = !(showStatus && live)
        http.onTitle = { received in
            let text = printable(received)
            title.withLock { $0 = text }
            if printsTitles {
                print("stream title: \(text)")
                fflush(nil)
            }
        }
        stream = http
    }

    let player = StreamPlayer(options: options, name: name)
    player.metersLevels = showStatus && live
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    interrupt.setEventHandler {
        player.cancel()
        stream.cancel()
        player.events.signal()
    }
    interrupt.resume()
    defer { interrupt.cancel() }

    if !live {
        // Offline: the parser runs here, rendering whenever it waits for a buffer; then the
        // rest is rendered until a render comes back short.
        player.feed(stream, typeHint: typeHint)
        if player.interrupted.load(ordering: .relaxed) { return 130 }
        guard let queue = player.queueIfCreated, let output = player.offline else {
            throw player.failure ?? CommandError(message: "\(name): no audio")
        }
        while try output.render() == output.framesPerRender {
            if player.interrupted.load(ordering: .relaxed) { return 130 }
        }
        let badPackets = try queue.badPacketCount
        try queue.dispose(immediate: true)
        try output.finish()
        if let failure = player.failure { throw failure }
        if badPackets > 0 {
            printError("aqplay: \(name): \(badPackets) packet(s) could not be decoded and were rendered as silence")
            return 1
        }
        return 0
    }

    // Playing: the parser runs on a thread of its own; this one shows the status line and
    // watches for underruns until the queue has played everything.
    let hint = typeHint
    DispatchQueue(label: "aqplay.stream").async { player.feed(stream, typeHint: hint) }
    var status = StatusLine(enabled: showStatus)
    var timeline: AudioQueueTimeline?
    var announced = false
    var deviceFailed = false
    var underruns = 0
    var wasRebuffering = false
    while true {
        _ = player.events.wait(timeout: .now() + .milliseconds(showStatus ? 100 : 250))
        if player.interrupted.load(ordering: .relaxed) { break }
        let finished = player.feedingFinished
        guard let queue = player.queueIfCreated else {
            if finished { break }
            if showStatus { status.show("waiting for the stream's audio format…") }
            continue
        }
        guard player.hasStarted else {
            if finished { break }
            if showStatus { status.show("buffering…") }
            continue
        }
        if !announced {
            announced = true
            status.end()
            announceOutput(queue.currentDeviceInfo, chosen: options.backend != nil || environment("AUDIOQUEUE_BACKEND") != nil)
            timeline = try? queue.makeTimeline()
        }
        if queue.state == .stopped {
            // Stopped before the feeding finished: the device failed — unless the feeding was
            // finishing as the queue played out (it signals as it ends).
            if !finished { _ = player.events.wait(timeout: .now() + .milliseconds(500)) }
            deviceFailed = !player.feedingFinished
            break
        }
        let seconds = ((try? queue.currentTime().timeStamp.sampleTime) ?? 0) / queue.renderFormat.sampleRate
        // An underrun while the stream is still arriving: the queue pauses until its buffers
        // are full again. Underruns seen while it pauses or resumes belong to the same one.
        let rebuffering = player.isRebuffering
        let discontinuity = timeline.flatMap { try? queue.currentTime(timeline: $0).discontinuity } ?? false
        if discontinuity && !rebuffering && !wasRebuffering && !finished && player.pauseToRebuffer() {
            underruns += 1
            status.end()
            printError("aqplay: \(name): underrun at \(clock(seconds)): the stream stalled; buffering")
        }
        wasRebuffering = rebuffering
        if rebuffering {
            status.show("\(clock(seconds))  buffering…")
            continue
        }
        var text = clock(seconds)
        if let duration = player.duration { text += " / \(clock(duration))" }
        if let current = title.withLock({ $0 }) { text += "  \(current)" }
        if let levels = try? queue.currentLevelMeterDB(), !levels.isEmpty { text += "  " + meterBars(levels) }
        status.show(text)
    }
    let interrupted = player.interrupted.load(ordering: .relaxed)
    let queue = player.queueIfCreated
    if interrupted || deviceFailed {
        player.cancel()
        stream.cancel()
        try? queue?.stop(immediate: true)
    }
    status.end()
    let deviceError = queue?.converterError ?? 0
    let badPackets = try queue?.badPacketCount ?? 0
    try? queue?.dispose(immediate: true)

    if interrupted { return 130 }
    if deviceFailed {
        throw CommandError(message: "\(name): playback stopped before the end; the output device failed (\(deviceError))")
    }
    if let failure = player.failure { throw failure }
    if underruns > 0 {
        printError("aqplay: \(name): the stream stalled \(underruns) time(s); playback paused until it caught up")
    }
    if badPackets > 0 {
        printError("aqplay: \(name): \(badPackets) packet(s) could not be decoded and were played as silence")
        return 1
    }
    return 0
}

/// Why a response of this `Content-Type` is not an audio stream (a web page, or a playlist of
/// streams, as internet radio directories link to); nil when it may be.
func notAudio(contentType: String?) -> String? {
    guard let mime = contentType?.split(separator: ";").first?.filter({ $0 != " " && $0 != "\t" }).lowercased() else { return nil }
    switch mime {
    case "audio/x-mpegurl", "audio/mpegurl", "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/x-scpls":
        return "the server sent a playlist (\(mime)), not audio; play one of the URLs it lists"
    case "text/html", "application/xhtml+xml":
        return "the server sent a web page (\(mime)), not audio"
    default:
        return nil
    }
}

/// The container a stream's `Content-Type` (else its path's extension) names, as a hint for
/// streams whose bytes do not say (MPEG audio and ADTS after junk).
func fileType(contentType: String?, path: String) -> AudioFileType? {
    let mime = contentType?.split(separator: ";").first.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
    switch mime {
    case "audio/mpeg", "audio/mp3", "audio/x-mpeg", "audio/mpeg3": return .mp3
    case "audio/aac", "audio/aacp", "audio/x-aac", "audio/adts": return .adts
    case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": return .wave
    case "audio/x-caf": return .caf
    case "audio/aiff", "audio/x-aiff": return .aiff
    case "audio/mp4", "audio/x-m4a": return .m4a
    case "audio/flac", "audio/x-flac": return .flac
    case "audio/ogg", "audio/opus", "audio/vorbis", "application/ogg": return .ogg
    case "audio/ac3", "audio/x-ac3", "audio/eac3", "audio/x-eac3", "audio/vnd.dolby.dd-raw": return .ac3
    default: break
    }
    var file = path
    if let query = file.firstIndex(of: "?") { file = String(file[..<query]) }
    guard let dot = file.lastIndex(of: "."), !file[dot...].contains("/") else { return nil }
    switch file[file.index(after: dot)...].lowercased() {
    case "mp3": return .mp3
    case "aac", "adts": return .adts
    case "wav": return .wave
    case "caf": return .caf
    case "aif", "aiff", "aifc": return .aiff
    case "m4a", "mp4": return .m4a
    case "flac": return .flac
    case "opus", "ogg", "oga": return .ogg
    case "ac3", "ec3", "eac3": return .ac3
    default: return nil
    }
}
