public import AudioCore
public import AudioDevices
#if canImport(Glibc)
import Glibc
#endif
import AudioFileServices
import Locking
import Synchronization

/// An output device that writes what would have played to a 32-bit float WAVE file: the
/// fallback when there is no sound server and no sound card, and a way to capture playback.
///
/// The file is created when the device is made; its header is brought up to date every time
/// playback stops, and it is closed by ``close()``. By default it consumes audio at the sample
/// rate, like real hardware, so a program's timing is the same as when it plays aloud.
///
/// It never loses audio: having no clock to miss, it waits for audio its source has on the
/// way but not yet ready (an audio queue decoding late on a busy machine, a program still
/// refilling a buffer in its callback) instead of writing silence in its place, and then goes
/// on at the sample rate from where it is, without hurrying. The file holds exactly what the
/// queue rendered, whatever the load. Silence goes into the file only where the program
/// leaves a gap of its own: nothing enqueued and no callback outstanding. A queue playing
/// through it counts its time in the frames written, so a wait is no discontinuity.
public final class WAVFileDevice: AudioOutputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription
    /// The file being written.
    public let path: String
    private let loop: PacedIOLoop
    /// How the loop consumes audio.
    var loopPacing: AudioDevicePacing { loop.pacing }
    private let lock = Guarded(())
    private var writer: AudioFileWriter?

    /// Creates (or truncates) `path` for interleaved Float32 at `sampleRate` with `channels`.
    /// `note` becomes the device's `AudioDeviceInfo.note` (why it was chosen, say).
    public init(
        path: String, sampleRate: Double, channels: Int, pacing: AudioDevicePacing = .realTime, periodFrames: Int = 1024,
        note: String? = nil
    ) throws(AudioDeviceError) {
        guard sampleRate >= 1, sampleRate.isFinite, channels > 0, channels <= 64 else {
            throw AudioDeviceError(.formatNotSupported, "a WAVE file device cannot hold \(channels) channels at \(sampleRate) Hz")
        }
        let format = AudioStreamBasicDescription.deviceFloat(sampleRate: sampleRate, channels: channels)
        do {
            writer = try AudioFileWriter(path: path, type: .wave, format: format, flags: .eraseFile)
        } catch {
            throw AudioDeviceError(.openFailed, "cannot create \(path): \(error)")
        }
        self.format = format
        self.path = path
        info = AudioDeviceInfo(backend: "file", name: path, description: "32-bit float WAVE file \(path)", note: note)
        loop = PacedIOLoop(format: format, pacing: pacing, periodFrames: periodFrames)
    }

    deinit { close() }

    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        let ok = lock.withLock { _ in writer != nil }
        guard ok else { throw AudioDeviceError(.invalidState, "\(path) is closed") }
        try loop.start(device: self, source: source, consume: { [self] samples throws(AudioDeviceError) in
            try lock.withLock { _ throws(AudioDeviceError) in
                guard let w = writer else { throw AudioDeviceError(.invalidState, "\(path) is closed") }
                do {
                    try w.writePackets(UnsafeRawBufferPointer(samples), count: samples.count / Int(format.channelsPerFrame))
                } catch {
                    throw AudioDeviceError(.ioFailed, "writing \(path): \(error)")
                }
            }
        }, finish: { [self] in updateHeader() })
    }

    public func stop(drain: Bool) {
        loop.stop()
        updateHeader()
    }

    /// Ends a wait for audio the source had on the way.
    public func sourceHasAudio() { loop.sourceHasAudio() }

    /// How many times the device has found its source not ready and waited for it (each look
    /// counts: the count goes on rising while a wait lasts).
    package var waitCount: Int { loop.waitCount }

    private func updateHeader() {
        lock.withLock { _ in _ = try? writer?.updateHeader() }
    }

    /// Always 0: frames are in the file as soon as they are rendered.
    public var presentationDelay: Int { 0 }
    public var framesRendered: Int64 { loop.framesRendered }
    /// Everything rendered is played at once: the loop's counter, an atomic.
    public var framesPlayed: Int64 { loop.framesRendered }

    /// Stops, completes the header and closes the file.
    public func close() {
        loop.stop()
        lock.withLock { _ in
            _ = try? writer?.close()
            writer = nil
        }
    }
}

/// The file backend: output device names are paths of WAVE files to write, input device names
/// paths of PCM audio files to record (``WAVFileInputDevice``). Its default output is a file
/// in the temporary directory (`$TMPDIR`, else /tmp) named after the process (a second default
/// device of the same process gets `-2`, and so on); its default input records silence.
///
/// Registered (`AudioBackends.register(WAVFileBackend(), priority: 0)`, as
/// `AudioQueueKit.registerAll()` does), it is the `file` backend, and the default output when
/// no sound backend plays: its default device, which says so on standard error with the path.
public struct WAVFileBackend: AudioFallbackBackend {
    /// How the devices it makes consume audio.
    public var pacing: AudioDevicePacing

    /// A file backend whose devices consume audio with `pacing`.
    public init(pacing: AudioDevicePacing = .realTime) { self.pacing = pacing }

    public var name: String { "file" }
    public var manufacturer: String { "swift-audio-queue (WAVE file)" }
    public func isAvailable() -> Bool { true }

    /// The path the default device writes.
    public static var defaultPath: String {
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(dir)/audioqueue-\(getpid()).wav"
    }

    /// Its output, a 32-bit float WAVE file, and its input, the audio file it records (or
    /// silence). When `AUDIOQUEUE_BACKEND` is `file`, the paths `AUDIOQUEUE_DEVICE` and
    /// `AUDIOQUEUE_INPUT_DEVICE` name are the devices listed (the ones the default chain opens),
    /// the input with the file's own rate and channels; else the default output path and silence.
    public func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        let chosen = AudioBackends.environment("AUDIOQUEUE_BACKEND") == name
        let output = (chosen ? AudioBackends.environment("AUDIOQUEUE_DEVICE") : nil) ?? Self.defaultPath
        var devices = [AudioDeviceInfo(backend: name, name: output, description: "32-bit float WAVE file", isDefault: true)]
        if chosen, let input = AudioBackends.environment("AUDIOQUEUE_INPUT_DEVICE"), input != "default", input != "silence" {
            let format = Self.inputFormat(input)
            devices.append(AudioDeviceInfo(
                backend: name, name: input, description: "Records the audio file \(input)", direction: .input, isDefault: true,
                channels: format.map { Int($0.channelsPerFrame) }, sampleRate: format?.sampleRate))
        } else {
            devices.append(AudioDeviceInfo(backend: name, name: "silence", description: "Records silence", direction: .input, isDefault: true))
        }
        return devices
    }

    /// The input file's format, read once for each size and modification time of the file (the
    /// HAL lists the devices ten times a second while a listener waits).
    private static func inputFormat(_ path: String) -> AudioStreamBasicDescription? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let key = "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(path)"
        if let known = probed.withLock({ $0[key] }) { return known }
        let format = (try? AudioFile(path: path))?.dataFormat
        probed.withLock { $0 = [key: format] }
        return format
    }

    private static let probed = Guarded<[String: AudioStreamBasicDescription?]>([:])


    private static let opened = Atomic<Int>(0)

    public func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioOutputDevice {
        try makeDevice(name: name, sampleRate: sampleRate, channels: channels, note: nil)
    }

    /// Opens input `name`: the path of a PCM audio file to record (see ``WAVFileInputDevice``;
    /// `AUDIOQUEUE_INPUT_DEVICE` names it for the default input). With no name (or
    /// `default`) the device records silence, and says so on standard error.
    public func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int) throws(AudioDeviceError) -> any AudioInputDevice {
        let path = (name == nil || name == "default" || name == "silence") ? nil : name
        let device = try WAVFileInputDevice(
            path: path, sampleRate: sampleRate, channels: channels, pacing: pacing, periodFrames: max(16, min(bufferFrames, 4096)),
            note: path == nil ? "no input file named (AUDIOQUEUE_INPUT_DEVICE)" : nil)
        if path == nil {
            Self.printToStandardError("swift-audio-queue: no input file named (set AUDIOQUEUE_INPUT_DEVICE to a WAVE file); recording silence")
        }
        return device
    }

    /// The default device, its info's note saying `reason`; tells standard error why the
    /// output goes to a file, and which.
    public func makeFallbackOutput(sampleRate: Double, channels: Int, bufferFrames: Int, reason: String) throws(AudioDeviceError) -> any AudioOutputDevice {
        let device = try makeDevice(name: nil, sampleRate: sampleRate, channels: channels, note: reason)
        Self.printToStandardError("swift-audio-queue: \(reason); writing the output to \(device.path)")
        return device
    }

    /// As ``makeOutput(name:sampleRate:channels:bufferFrames:)``, the device's info carrying `note`.
    private func makeDevice(name: String?, sampleRate: Double, channels: Int, note: String?) throws(AudioDeviceError) -> WAVFileDevice {
        var path = (name == nil || name == "default") ? Self.defaultPath : name!
        if name == nil || name == "default" {
            // Each default device of the process gets a file of its own.
            let n = Self.opened.add(1, ordering: .relaxed).newValue
            if n > 1 { path = String(path.dropLast(4)) + "-\(n).wav" }
        }
        return try WAVFileDevice(path: path, sampleRate: sampleRate, channels: channels, pacing: pacing, note: note)
    }

    private static func printToStandardError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

extension WAVFileDevice: ClockPacedDevice {
    package var isPacedByClock: Bool { loopPacing == .realTime }
}

extension WAVFileInputDevice: ClockPacedDevice {
    /// Unpaced, the file's frames arrive as fast as the sink takes them.
    package var isPacedByClock: Bool { inputPacing == .realTime }
}
