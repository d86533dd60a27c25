public import AudioCore
public import AudioDevices
#if canImport(Glibc)
import Glibc
#endif
import AudioCodecs
import AudioFileServices
import Locking
import Synchronization

/// An input device that "records" a PCM audio file (WAVE, AIFF or CAF): the file backend's
/// input, so that a recording program runs without a sound card, on audio known in advance.
///
/// The file's samples (8-, 16-, 24- or 32-bit integers, 32- or 64-bit floats, either byte order)
/// are delivered as interleaved Float32 in the channels asked for: a mono file fills every
/// channel, a file of several channels recorded into one gives their mean, and otherwise
/// channel *n* is the file's channel *n* (silence where the file has none). The file's sample
/// rate must be the one asked for. After the file's last frame the device records silence,
/// as a microphone in a quiet room would, until it is stopped. With no file it records only
/// silence.
///
/// With `AudioDevicePacing.realTime` periods arrive at the sample rate, as from hardware;
/// with `.unpaced` the file's frames arrive as fast as the sink takes them,
/// and the silence after them at the sample rate (an unpaced stream of silence would only
/// fill memory).
public final class WAVFileInputDevice: AudioInputDevice, @unchecked Sendable {
    public let info: AudioDeviceInfo
    public let format: AudioStreamBasicDescription
    /// The file recorded, nil when the device records silence.
    public let path: String?
    private let file: AudioFile?
    private let pacing: AudioDevicePacing
    /// How the file's frames arrive.
    var inputPacing: AudioDevicePacing { pacing }
    private let periodFrames: Int
    private let channels: Int
    /// Interleaved Float32 of one period, in the device's channels.
    private let samples: UnsafeMutablePointer<Float>
    /// One period of the file's bytes.
    private let bytes: UnsafeMutableRawBufferPointer
    /// The file's samples as interleaved Float32 in the file's channels (nil without a file).
    private let converter: PCMConverter?
    /// One period of them, when the file's channels are not the device's (else `samples`).
    private let fileSamples: UnsafeMutablePointer<Float>?
    private let captured = Atomic<Int64>(0)
    private let running = Atomic<Bool>(false)
    private let thread = Guarded<IOThread?>(nil)
    /// The next packet of the file to deliver (touched by the I/O thread only while it runs):
    /// it moves on only once the sink has the frames, so that a period read but not delivered
    /// before a stop is the first one the next start delivers.
    nonisolated(unsafe) private var nextPacket: Int64 = 0

    /// An input for interleaved Float32 at `sampleRate` with `channels`, recording the audio
    /// file at `path` (nil: silence), `periodFrames` at a time.
    ///
    /// Throws `openFailed` when the file cannot be read, `formatNotSupported` when it does not
    /// hold PCM this device reads or its sample rate is not `sampleRate`.
    public init(
        path: String?, sampleRate: Double, channels: Int, pacing: AudioDevicePacing = .realTime, periodFrames: Int = 1024,
        note: String? = nil
    ) throws(AudioDeviceError) {
        guard sampleRate >= 1, sampleRate.isFinite, channels > 0, channels <= 64 else {
            throw AudioDeviceError(.formatNotSupported, "a file input cannot record \(channels) channels at \(sampleRate) Hz")
        }
        var opened: AudioFile?
        var converter: PCMConverter?
        if let path {
            do {
                opened = try AudioFile(path: path)
            } catch {
                throw AudioDeviceError(.openFailed, "cannot read \(path): \(error)")
            }
            let f = opened!.dataFormat
            guard Self.reads(f) else {
                throw AudioDeviceError(
                    .formatNotSupported,
                    "\(path) holds \(f.formatID.messageName) audio with \(f.bitsPerChannel)-bit samples; a file input reads 8-, 16-, 24- and 32-bit integer and 32- and 64-bit float PCM")
            }
            guard f.sampleRate == sampleRate else {
                throw AudioDeviceError(.formatNotSupported, "\(path) is at \(f.sampleRate) Hz, not the \(sampleRate) Hz asked for")
            }
            do {
                converter = try PCMConverter(from: f, to: .deviceFloat(sampleRate: sampleRate, channels: Int(f.channelsPerFrame)))
            } catch {
                throw AudioDeviceError(.formatNotSupported, "\(path): \(error)")
            }
        }
        self.converter = converter
        file = opened
        self.path = path
        self.pacing = pacing
        self.periodFrames = max(16, periodFrames)
        self.channels = channels
        format = .deviceFloat(sampleRate: sampleRate, channels: channels)
        let description = path.map { "Records the audio file \($0)" } ?? "Records silence"
        info = AudioDeviceInfo(
            backend: "file", name: path ?? "silence", description: description, direction: .input, isDefault: path == nil, note: note)
        samples = .allocate(capacity: self.periodFrames * channels)
        samples.initialize(repeating: 0, count: self.periodFrames * channels)
        let frameBytes = Int(opened?.dataFormat.bytesPerPacket ?? 0)
        bytes = .allocate(byteCount: max(1, self.periodFrames * frameBytes), alignment: 16)
        let fileChannels = Int(opened?.dataFormat.channelsPerFrame ?? UInt32(channels))
        fileSamples = fileChannels == channels ? nil : .allocate(capacity: self.periodFrames * fileChannels)
    }

    deinit {
        stop(drain: false)
        samples.deallocate()
        fileSamples?.deallocate()
        bytes.deallocate()
    }

    /// True for the uncompressed formats this device converts: packed linear PCM of 8-, 16-,
    /// 24- or 32-bit integers (8-bit ones signed or, as in WAVE, unsigned) or 32- or 64-bit
    /// floats, a frame per packet, up to 64 channels.
    static func reads(_ f: AudioStreamBasicDescription) -> Bool {
        // At most 64 channels, as asked of the device: a header's count sizes the read buffer.
        guard f.formatID == .linearPCM, f.framesPerPacket == 1, f.channelsPerFrame > 0, f.channelsPerFrame <= 64,
              f.bytesPerFrame == f.bytesPerPacket, f.bitsPerChannel % 8 == 0,
              Int(f.bytesPerFrame) == Int(f.channelsPerFrame) * Int(f.bitsPerChannel / 8)
        else { return false }
        return f.isFloat ? (f.bitsPerChannel == 32 || f.bitsPerChannel == 64) : [8, 16, 24, 32].contains(f.bitsPerChannel)
    }

    public func start(sink: any AudioCaptureSink) throws(AudioDeviceError) {
        try thread.withLock { t throws(AudioDeviceError) in
            guard t == nil else { throw AudioDeviceError(.invalidState, "\(info.uid) is already recording") }
            running.store(true, ordering: .releasing)
            // Unpaced, the file's frames are read as fast as the sink takes them: not real-time.
            t = try IOThread(name: "aq.file.in", priority: pacing == .realTime ? .deviceIO : .normal) { [self] in record(into: sink) }
        }
    }

    /// The I/O thread: a period at a time, the file's frames and then silence. What it reports
    /// is what it read: a period's frame count, its host time (the time of its first frame at
    /// the sample rate from the start, however late the thread runs) and the frames captured
    /// all count the frames handed to the sink, never more; a period read but not handed over
    /// (the device stopped meanwhile) is neither counted nor skipped.
    private func record(into sink: any AudioCaptureSink) {
        let rate = format.sampleRate
        let origin = HostTime.now()
        var delivered: Int64 = 0
        var first = true
        while running.load(ordering: .acquiring) {
            let fromFile = readPeriod()
            if fromFile == 0 {
                samples.update(repeating: 0, count: periodFrames * channels)
            }
            let frames = fromFile > 0 ? fromFile : periodFrames
            let recordedAt = origin + UInt64(Double(delivered) / rate * 1e9)
            delivered += Int64(frames)
            if pacing == .realTime || fromFile == 0 {
                // A period is delivered once it has been "recorded".
                HostTime.sleep(until: origin + UInt64(Double(delivered) / rate * 1e9))
            }
            guard running.load(ordering: .acquiring) else { return }
            if first {
                first = false
                sink.device(self, didReport: .started(hostTime: recordedAt))
            }
            sink.capture(samples, frameCount: frames, hostTime: recordedAt)
            nextPacket += Int64(fromFile)
            captured.add(Int64(frames), ordering: .releasing)
        }
    }

    /// Converts up to a period of the file's frames, from ``nextPacket`` on, into `samples`
    /// (without moving on: the caller does once it has delivered them); 0 after the file's end
    /// (or when it cannot be read any further).
    private func readPeriod() -> Int {
        guard let file, nextPacket < file.packetCount else { return 0 }
        let f = file.dataFormat
        let read: Int
        do {
            read = try file.readPackets(from: nextPacket, count: periodFrames, into: bytes, descriptions: nil).packetCount
        } catch {
            nextPacket = file.packetCount
            return 0
        }
        let fileChannels = Int(f.channelsPerFrame)
        // The file's own channels as Float32 (straight into `samples` when they are the
        // device's), then mapped: a mono file to every channel, several into one as their mean.
        let decoded = fileSamples ?? samples
        do {
            try converter?.convert(
                UnsafeRawBufferPointer(start: bytes.baseAddress, count: read * Int(f.bytesPerFrame)), frameCount: read,
                into: UnsafeMutableRawBufferPointer(start: decoded, count: read * fileChannels * MemoryLayout<Float>.size))
        } catch {
            nextPacket = file.packetCount
            return 0
        }
        guard fileChannels != channels else { return read }
        for frame in 0..<read {
            let source = decoded + frame * fileChannels
            let out = samples + frame * channels
            if fileChannels == 1 {
                for c in 0..<channels { out[c] = source[0] }
            } else if channels == 1 {
                var sum: Float = 0
                for c in 0..<fileChannels { sum += source[c] }
                out[0] = sum / Float(fileChannels)
            } else {
                for c in 0..<channels { out[c] = c < fileChannels ? source[c] : 0 }
            }
        }
        return read
    }

    /// Stops recording; there is nothing held to drain.
    public func stop(drain: Bool) {
        running.store(false, ordering: .releasing)
        thread.endThread()
    }

    public var framesCaptured: Int64 { captured.load(ordering: .acquiring) }

    public func close() { stop(drain: false) }
}
