#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import Dispatch
import ToolSupport

/// What the command line asked for.
struct Options {
    var plays = 1
    var volume: Float = 1
    var offlinePath: String?
    var backend: String?
    var device: String?
    var listDevices = false
    /// The device channels (from 1) the file's channels play on (`--channels`).
    var channels: [Int]?
    /// Seconds a stream may send nothing before it counts as dropped (nil: 30 for HTTP, no
    /// limit for standard input).
    var timeout: Double?
    var path: String?
    /// Time/pitch: the rate, the pitch in cents, the algorithm (any of them enables the unit).
    var rate: Float?
    var pitch: Float?
    var algorithm: TimePitchAlgorithm?
    var timePitch: Bool { rate != nil || pitch != nil || algorithm != nil }
}

/// A failure already worded for the user (after `aqplay: `).
struct CommandError: Error {
    let message: String
}

/// Plays (or renders) `path` as `options` say; returns the exit status.
func run(path: String, options: Options) throws -> Int32 {
    // Open the file and read its format (Listings 3-9 and 3-10).
    let file = try AudioFile(path: path)
    let player = Player(file: file, plays: options.plays)

    // Create the queue (Listing 3-11); its callbacks run on a serial queue of its own.
    let queue = try AudioQueue(format: file.dataFormat, callbackQueue: nil, device: nil) { queue, buffer in
        player.handleOutputBuffer(queue, buffer)
    }
    defer { try? queue.dispose(immediate: true) }

    // The magic cookie (Listing 3-14) and the channel layout.
    if let cookie = file.magicCookie, !cookie.isEmpty {
        try queue.setMagicCookie(cookie)
    }
    let render = queue.renderFormat
    if let layout = file.channelLayout, layout.numberOfChannels == Int(render.channelsPerFrame) {
        try? queue.setChannelLayout(layout)
    }

    // Where the audio goes: a file rendered offline, a chosen device, or the default output.
    let offlineFormat = try chooseOutput(queue, options: options, name: path)
    try enableTimePitch(queue, options: options)

    let showStatus = isatty(STDERR_FILENO) != 0
    if showStatus && offlineFormat == nil {
        try queue.setLevelMeteringEnabled(true)
    }

    // The main thread waits on this: the isRunning listener signals it when the queue has
    // stopped, and so do Ctrl-C and a failed read.
    let stopped = player.wake
    try queue.addPropertyListener(.isRunning) { queue, _ in
        if !queue.isRunning { stopped.signal() }
    }
    // The output device failing (the sound server going away, the sink removed) stops the
    // queue; the converter-error listener hears it before the buffers come back, so the
    // callback stops refilling and the device's reason is what aqplay reports.
    try queue.addPropertyListener(.converterError) { queue, _ in
        guard queue.deviceFailure != nil else { return }
        player.finish()
        stopped.signal()
    }
    // The queue follows the default output to another device (the default changed, or the
    // device it played on went away): say where the sound goes now.
    try queue.addPropertyListener(.currentDevice) { queue, _ in
        guard let info = queue.currentDeviceInfo else { return }
        print("now playing through \(info.uid)")
        fflush(nil)
    }
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    interrupt.setEventHandler {
        player.interrupted.store(true, ordering: .relaxed)
        stopped.signal()
    }
    interrupt.resume()
    defer { interrupt.cancel() }

    // Allocate the buffers and prime them by calling the callback (Listing 3-15).
    for _ in 0..<numberOfBuffers {
        let buffer = try queue.allocateBuffer(
            byteCapacity: player.bufferByteSize,
            packetDescriptionCapacity: player.usesPacketDescriptions ? player.numPacketsToRead : 0)
        player.handleOutputBuffer(queue, buffer)
    }
    if let failure = player.failure { throw failure }

    // The gain (Listing 3-16).
    try queue.setParameter(.volume, options.volume)

    if let offlinePath = options.offlinePath, let offlineFormat {
        return try renderOffline(queue, player, format: offlineFormat, to: offlinePath, inputPath: path, showProgress: showStatus)
    }

    guard file.packetCount > 0 else {
        // Nothing was enqueued, so nothing would ever stop the queue.
        print("nothing to play: \(path) holds no audio")
        return 0
    }

    // Start, and wait while the callbacks play the file (Listing 3-17). When the primed
    // buffers already hold the whole file, the stop the callback asked for takes effect now.
    try queue.start()
    announceOutput(queue.currentDeviceInfo, chosen: options.backend != nil || environment("AUDIOQUEUE_BACKEND") != nil)

    var status = StatusLine(enabled: showStatus)
    let duration = file.estimatedDuration
    var interrupted = false
    // + and - change the rate while playing, from a terminal.
    let keys = options.timePitch ? RateKeys(queue: queue) : nil
    defer { keys?.restore() }
    while true {
        keys?.poll()
        // The status line is redrawn and the rate keys read ten times a second; without them
        // the main thread sleeps until the end, Ctrl-C or a failed read signals it (a wake-up
        // a second would be one more context switch a second while playing).
        let polling = showStatus || keys != nil
        let signalled = stopped.wait(timeout: polling ? .now() + .milliseconds(100) : .distantFuture) == .success
        if player.interrupted.load(ordering: .relaxed) {
            interrupted = true
            break
        }
        if signalled || player.failure != nil || (player.isDone && queue.state == .stopped) { break }
        if showStatus { status.show(liveText(queue, rate: render.sampleRate, duration: duration, plays: options.plays)) }
    }
    if interrupted || player.failure != nil {
        player.finish()
        try? queue.stop(immediate: true)
    }
    status.end()
    let deviceError = queue.converterError
    let deviceFailure = queue.deviceFailure
    let badPackets = try queue.badPacketCount
    if try queue.isTimePitchEnabled, let rate = try? queue.parameter(.playRate) {
        // Whether the time/pitch unit kept up: underruns are gaps in what was heard.
        print("played at rate \(rate): \(queue.underrunCount) underrun(s)")
    }
    try queue.dispose(immediate: true)

    if interrupted { return 130 }
    // The device's failure first: what the callback met afterwards follows from it.
    if let deviceFailure {
        throw CommandError(message: "\(path): playback stopped: \(deviceFailure.reason) (\(deviceError))")
    }
    if let failure = player.failure { throw failure }
    if !player.isDone {
        throw CommandError(message: "\(path): playback stopped before the end; the output device failed (\(deviceError))")
    }
    if badPackets > 0 {
        printError("aqplay: \(path): \(badPackets) packet(s) could not be decoded and were played as silence")
        return 1
    }
    return 0
}

/// Renders the primed, started queue into a 32-bit float WAVE file, a capture buffer at a
/// time (`AudioQueueOfflineRender`, as Apple's aqofflinerender sample does), until a render
/// comes back short: the end of the stream.
private func renderOffline(
    _ queue: AudioQueue, _ player: Player, format: AudioStreamBasicDescription, to outputPath: String,
    inputPath: String, showProgress: Bool
) throws -> Int32 {
    try queue.start()
    let output = try OfflineOutput(queue, format: format, path: outputPath)

    var status = StatusLine(enabled: showProgress)
    let total = player.file.estimatedDuration * Double(player.plays)
    var lastShown: UInt64 = 0
    while true {
        if player.interrupted.load(ordering: .relaxed) {
            status.end()
            return 130
        }
        let frames = try output.render()
        if let failure = player.failure { throw failure }
        if frames < output.framesPerRender { break }
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastShown >= 100_000_000 {
            lastShown = now
            status.show("rendering \(clock(output.seconds)) / \(clock(total))")
        }
    }
    status.end()
    let badPackets = try queue.badPacketCount
    try queue.dispose(immediate: true)
    try output.finish()
    if badPackets > 0 {
        printError("aqplay: \(inputPath): \(badPackets) packet(s) could not be decoded and were rendered as silence")
        return 1
    }
    return 0
}

/// Says on stdout where the audio is going, and how the device differs from what was asked
/// for (its note), from the queue's current device.
func announceOutput(_ info: AudioDeviceInfo?, chosen: Bool) {
    guard let info else {
        print("playing through the default output")
        return
    }
    if info.backend == "file" {
        print("playing to WAVE file \(info.name)" + (chosen ? "" : " (no sound server or sound card found)"))
    } else {
        print("playing through \(info.uid)" + (info.note.map { " (\($0))" } ?? ""))
    }
    fflush(nil)
}

/// The status line while playing: position / duration (within the current play when
/// looping) and a level meter per channel.
private func liveText(_ queue: AudioQueue, rate: Double, duration: Double, plays: Int) -> String {
    let frames = (try? queue.currentTime().timeStamp.sampleTime) ?? 0
    let seconds = frames / rate
    var position = min(seconds, duration)
    var text = ""
    if plays != 1 && duration > 0 {
        let finished = Int(seconds / duration)
        let play: Int
        if plays > 0 && finished >= plays {
            position = duration
            play = plays
        } else {
            position = seconds - Double(finished) * duration
            play = finished + 1
        }
        text = plays == 0 ? "  loop \(play)" : "  loop \(play)/\(plays)"
    }
    text = "\(clock(position)) / \(clock(duration))" + text
    if (try? queue.isTimePitchEnabled) == true, let rate = try? queue.parameter(.playRate) {
        let tenths = Int((rate * 10).rounded())
        text += "  rate \(tenths / 10).\(tenths % 10)×"
    }
    if let levels = try? queue.currentLevelMeterDB(), !levels.isEmpty {
        text += "  " + meterBars(levels)
    }
    return text
}

/// Reports an error and exits with status 1.
func fail(_ message: String) -> Never {
    printError("aqplay: \(message)")
    exit(1)
}

/// Reports a usage error (and the usage) and exits with status 2.
func usageError(_ message: String?) -> Never {
    if let message { printError("aqplay: \(message)") }
    printError(usage)
    exit(2)
}
