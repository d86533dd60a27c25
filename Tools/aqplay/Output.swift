#if canImport(Glibc)
import Glibc
#endif
import AudioQueueKit
import ToolSupport

/// Points the queue where `options` say: offline rendering in 32-bit float at the queue's rate
/// and channel count (returned), a chosen backend and device, or (neither) the default output.
func chooseOutput(_ queue: AudioQueue, options: Options, name: String) throws -> AudioStreamBasicDescription? {
    let render = queue.renderFormat
    if let channels = options.channels {
        try assignChannels(channels, queue: queue, options: options, name: name)
    }
    if options.offlinePath != nil {
        // With --channels the file is the device: as many channels as the highest named.
        let width = options.channels.map { UInt32($0.max()!) } ?? render.channelsPerFrame
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: render.sampleRate, channels: width, bitsPerChannel: 32, isFloat: true)
        try queue.setOfflineRenderFormat(format)
        return format
    }
    if let backend = options.backend, options.channels == nil {
        do {
            try queue.setCurrentDevice(options.device.map { "\(backend):\($0)" } ?? backend)
        } catch {
            guard error.code == .invalidDevice else { throw error }
            let known = AudioBackends.all.map(\.name).joined(separator: ", ")
            throw CommandError(message: "\(name): \(error.reason) (\(error.status)); known backends: \(known)")
        }
    }
    return nil
}

/// `--channels`: the queue's channels on those channels of the chosen device (`--backend` and
/// `--device`), else of the default output; offline, of the null device (the file is the
/// device then).
private func assignChannels(_ channels: [Int], queue: AudioQueue, options: Options, name: String) throws {
    let count = Int(queue.renderFormat.channelsPerFrame)
    guard channels.count == count else {
        throw CommandError(message: "\(name) has \(count) channel\(count == 1 ? "" : "s"); --channels names \(channels.count)")
    }
    let uid: String
    if options.offlinePath != nil {
        uid = "null:null"
    } else if let backend = options.backend {
        uid = options.device.map { "\(backend):\($0)" } ?? backend
    } else if let device = AudioBackends.defaultDevice(.output) {
        uid = device.uid
    } else {
        throw CommandError(message: "\(name): no output device to assign channels on")
    }
    do {
        try queue.setChannelAssignments(channels.map { AudioQueueChannelAssignment(deviceUID: uid, channelNumber: $0) })
    } catch {
        throw CommandError(message: "\(name): --channels \(channels.map(String.init).joined(separator: ",")) on \(uid): \(error.reason) (\(error.status))")
    }
}

/// `--channels`' list: device channel numbers from 1 to 64 separated by commas, none twice;
/// nil when it is not one.
func parseChannelList(_ text: String) -> [Int]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Int($0) }
    guard !numbers.isEmpty, numbers.count == parts.count, numbers.allSatisfy({ (1...64).contains($0) }),
          Set(numbers).count == numbers.count else { return nil }
    return numbers
}

/// The WAVE file an offline render goes to: rendered a capture buffer at a time
/// (`AudioQueueOfflineRender`), written under a temporary name and renamed when complete.
final class OfflineOutput {
    let queue: AudioQueue
    let format: AudioStreamBasicDescription
    let path: String
    /// Frames asked of each render: a render that comes back shorter found nothing more enqueued.
    let framesPerRender: Int
    /// Frames written so far.
    private(set) var frames: Int64 = 0
    private let capture: AudioQueueBuffer
    private let writer: AudioFileWriter
    private let temporaryPath: String
    private var complete = false

    /// Opens the temporary file; the queue must be in offline mode in `format`.
    init(_ queue: AudioQueue, format: AudioStreamBasicDescription, path: String) throws {
        self.queue = queue
        self.format = format
        self.path = path
        let bytesPerFrame = Int(format.bytesPerFrame)
        framesPerRender = max(1, min(32768, (8 << 20) / bytesPerFrame))
        capture = try queue.allocateBuffer(byteCapacity: framesPerRender * bytesPerFrame)
        temporaryPath = path + ".aqplay-\(getpid()).tmp"
        do {
            writer = try AudioFileWriter(path: temporaryPath, type: .wave, format: format, flags: .eraseFile)
        } catch {
            throw CommandError(message: "\(path): \(error)")
        }
    }

    deinit {
        if !complete { unlink(temporaryPath) }
    }

    /// The length written, in seconds.
    var seconds: Double { Double(frames) / format.sampleRate }

    /// Renders the next frames (up to ``framesPerRender``) and writes them; returns how many.
    func render() throws -> Int {
        try queue.offlineRender(at: .sampleTime(Double(frames)), into: capture, frameCount: framesPerRender)
        let count = capture.audioDataByteSize / Int(format.bytesPerFrame)
        do {
            try writer.writePackets(UnsafeRawBufferPointer(capture.validData), count: count)
        } catch {
            throw CommandError(message: "\(path): \(error)")
        }
        frames += Int64(count)
        return count
    }

    /// Closes the file, gives it its name, and says what was written.
    func finish() throws {
        do {
            try writer.close()
        } catch {
            throw CommandError(message: "\(path): \(error)")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw CommandError(message: "\(path): \(String(cString: strerror(errno)))")
        }
        complete = true
        print("wrote \(frames) frames (\(clock(seconds)), \(format.channelsPerFrame) ch, "
            + "\(Int(format.sampleRate)) Hz, 32-bit float) to \(path)")
    }
}
