import AudioCore
import AudioDevices
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// One run of an output unit, from AudioOutputUnitStart to AudioOutputUnitStop: the devices it
// opened, the memory of its cycles (allocated here, never in a cycle), and the cycles
// themselves on the devices' I/O threads. The output device pulls `bufferFrameSize` frames at a
// time through the unit's render (its notifications and input: callback or connection), which
// are converted to the device's interleaved Float32, mapped to its channels and scaled by the
// volume. The input device's frames wait in a ring; each full cycle calls the input callback,
// whose render of bus 1 takes them in the program's format.

final class OutputUnitRun: AudioRenderSource, AudioCaptureSink, @unchecked Sendable {
    let unit: AudioOutputUnit
    let frames: Int
    /// The output's rate (the input's when there is no output).
    let rate: Double
    /// The input's rate: the program's format on output scope element 1.
    let inputRate: Double
    private(set) var output: (any AudioOutputDevice)?
    private(set) var input: (any AudioInputDevice)?

    // Output side.
    private let outBridge: SampleBridge?
    private let outStorage: AudioBufferListStorage?
    private let outFloat: UnsafeMutablePointer<Float>
    private let deviceMap: [Int]
    private let outFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
    private let outTime: AudioTimeStampPointer
    private var sample: Double = 0
    private var lastHost: UInt64 = 0
    private var lastHostSample: Double = -1
    private let stopping = Atomic<Bool>(false)
    private let outputEnded = DispatchSemaphore(value: 0)
    private let outputThread = Atomic<UInt>(0)

    // Input side.
    private let inBridge: SampleBridge?
    private let inStorage: AudioBufferListStorage?
    private let inDeviceFloat: UnsafeMutablePointer<Float>
    private let inClientFloat: UnsafeMutablePointer<Float>
    private let clientMap: [Int]
    private let inputChannels: Int
    private let ring: SampleRing?
    private let inFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
    private let inTime: AudioTimeStampPointer
    private var inputSample: Double = 0
    private var lastCaptureHost: UInt64 = 0
    private var lastCaptureFirst: Double = 0
    private let inputThread = Atomic<UInt>(0)
    private let timeMemory: UnsafeMutableRawPointer

    init(unit: AudioOutputUnit) throws(AudioUnitError) {
        self.unit = unit
        let settings = unit.io.withLock { $0 }
        frames = min(settings.bufferFrameSize, unit.maximumFramesPerSlice)
        let (clientOut, clientIn) = unit.configuration.withLock { ($0.inputs[0].format, $0.outputs[1].format) }
        timeMemory = .allocate(byteCount: 2 * AudioTimeStampPointer.byteSize, alignment: 16)
        timeMemory.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * AudioTimeStampPointer.byteSize)
        outTime = AudioTimeStampPointer(timeMemory)
        inTime = AudioTimeStampPointer(timeMemory + AudioTimeStampPointer.byteSize)
        outFlags = .allocate(capacity: 1)
        outFlags.initialize(to: [])
        inFlags = .allocate(capacity: 1)
        inFlags.initialize(to: [])
        inputRate = clientIn.sampleRate
        if settings.outputEnabled {
            rate = clientOut.sampleRate
            outBridge = try SampleBridge(format: clientOut, capacity: frames)
            outStorage = AudioBufferListStorage(format: clientOut, capacity: frames)
            let channels = Int(clientOut.channelsPerFrame)
            deviceMap = settings.outputChannelMap.map { $0.map { Int($0) < channels ? Int($0) : -1 } } ?? Array(0..<channels)
            outFloat = .allocate(capacity: frames * channels)
        } else {
            rate = clientIn.sampleRate
            outBridge = nil
            outStorage = nil
            deviceMap = []
            outFloat = .allocate(capacity: 1)
        }
        outFloat.initialize(repeating: 0, count: outBridge == nil ? 1 : frames * Int(clientOut.channelsPerFrame))
        if settings.inputEnabled {
            inBridge = try SampleBridge(format: clientIn, capacity: frames)
            inStorage = AudioBufferListStorage(format: clientIn, capacity: frames)
            let channels = Int(clientIn.channelsPerFrame)
            clientMap = settings.inputChannelMap.map { m in (0..<channels).map { $0 < m.count ? Int(m[$0]) : -1 } } ?? Array(0..<channels)
            inputChannels = max(1, (clientMap.max() ?? 0) + 1)
            ring = SampleRing(samples: frames * inputChannels * 32)
            inDeviceFloat = .allocate(capacity: frames * inputChannels)
            inClientFloat = .allocate(capacity: frames * channels)
            inClientFloat.initialize(repeating: 0, count: frames * channels)
        } else {
            inBridge = nil
            inStorage = nil
            clientMap = []
            inputChannels = 0
            ring = nil
            inDeviceFloat = .allocate(capacity: 1)
            inClientFloat = .allocate(capacity: 1)
            inClientFloat.initialize(to: 0)
        }
        inDeviceFloat.initialize(repeating: 0, count: max(1, frames * inputChannels))
    }

    deinit {
        outFloat.deallocate()
        inDeviceFloat.deallocate()
        inClientFloat.deallocate()
        outFlags.deallocate()
        inFlags.deallocate()
        timeMemory.deallocate()
    }

    /// Opens the devices and starts them, input first.
    func start(defaultOf backend: String? = nil) throws(AudioUnitError) {
        let uid = backend == nil ? unit.currentDevice : nil
        do throws(AudioDeviceError) {
            if inBridge != nil {
                let device = try AudioBackends.open(AudioDeviceRequest(
                    input: AudioDeviceTarget(uid: uid, defaultOf: backend), sampleRate: inputRate, channels: inputChannels, bufferFrames: frames))
                input = device
                try device.start(sink: self)
            }
            if outBridge != nil {
                let device = try AudioBackends.open(AudioDeviceRequest(
                    output: AudioDeviceTarget(uid: uid, defaultOf: backend), sampleRate: rate, channels: max(1, deviceMap.count),
                    bufferFrames: frames * 4))
                output = device
                try device.start(source: self)
            }
        } catch {
            stop()
            throw AudioUnitError(AudioUnitError.Code(rawValue: error.code.rawValue), "the device did not start: \(error.reason)")
        }
    }

    /// Whether the calling thread is one of the run's I/O threads (inside a callback).
    var isCallingThread: Bool {
        let me = UInt(pthread_self())
        return outputThread.load(ordering: .relaxed) == me || inputThread.load(ordering: .relaxed) == me
    }

    /// Ends the cycles and closes the devices; what was rendered plays out first.
    func stop() {
        stopping.store(true, ordering: .releasing)
        input?.stop(drain: false)
        if output != nil { _ = outputEnded.wait(timeout: .now() + 2) }
        output?.stop(drain: true)
        input?.close()
        output?.close()
        input = nil
        output = nil
    }

    /// A stop asked from inside a callback: no more cycles after this one.
    func endCycles() { stopping.store(true, ordering: .releasing) }

    /// Whether its cycles have been ended.
    var isEnding: Bool { stopping.load(ordering: .acquiring) }

    var latency: Double {
        guard let output else { return 0 }
        return Double(output.presentationDelay) / rate
    }

    // MARK: Output

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        outputThread.store(UInt(pthread_self()), ordering: .relaxed)
        guard let bridge = outBridge, let storage = outStorage, let device = output else { return 0 }
        let channels = bridge.channels
        let deviceChannels = deviceMap.count
        var done = 0
        while done < frameCount {
            if stopping.load(ordering: .acquiring) { return done }
            let n = min(frameCount - done, frames)
            storage.reset(frames: n)
            outTime.set(sampleTime: sample, hostTime: hostTime(of: sample, played: device.framesPlayed))
            outFlags.pointee = []
            let status = unit.render(flags: outFlags, time: outTime, bus: 0, frames: UInt32(n), data: storage.list)
            let out = buffer + done * deviceChannels
            if status != 0 || outFlags.pointee.contains(.outputIsSilence) || !bridge.fits(storage.list, frames: n) {
                out.update(repeating: 0, count: n * deviceChannels)
            } else {
                bridge.read(storage.list, frames: n, into: outFloat)
                let volume = Float(bitPattern: unit.volumeBits.load(ordering: .relaxed))
                for f in 0..<n {
                    for d in 0..<deviceChannels {
                        let c = deviceMap[d]
                        out[f * deviceChannels + d] = c >= 0 ? outFloat[f * channels + c] * volume : 0
                    }
                }
            }
            sample += Double(n)
            done += n
        }
        return frameCount
    }

    /// When frame `sample` will be heard: now plus the frames ahead of what the device has
    /// played. The device's count moves in steps (its server's timing reports), so the estimate
    /// jitters by a few milliseconds; within 20 ms of the time the previous cycle predicts, a
    /// quarter of the difference is taken, so that host times advance smoothly and never step
    /// back; further off (before the stream runs, the first reports), the estimate is taken as
    /// it is.
    private func hostTime(of sample: Double, played: Int64) -> UInt64 {
        let estimate = Double(HostTime.now()) + max(0, (sample - Double(played)) / rate * 1e9)
        var host = estimate
        if lastHostSample >= 0 {
            let predicted = Double(lastHost) + (sample - lastHostSample) / rate * 1e9
            if abs(estimate - predicted) < 20e6 { host = max(predicted + (estimate - predicted) / 4, Double(lastHost) + 1) }
        }
        lastHost = UInt64(host)
        lastHostSample = sample
        return lastHost
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        switch event.kind {
        case .stopped: outputEnded.signal()
        case .failed:
            outputEnded.signal()
            unit.deviceFailed(self, backend: device.info.backend)
        default: break
        }
    }

    // MARK: Input

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        inputThread.store(UInt(pthread_self()), ordering: .relaxed)
        guard let ring, !stopping.load(ordering: .acquiring) else { return }
        lastCaptureHost = hostTime == 0 ? HostTime.now() : hostTime
        lastCaptureFirst = inputSample + Double(ring.available / inputChannels)
        ring.write(samples, count: frameCount * inputChannels)
        guard let callback = unit.io.withLock({ $0.inputCallback }) else { return }
        let cycle = frames * inputChannels
        while ring.available >= cycle, !stopping.load(ordering: .acquiring) {
            let offset = (inputSample - lastCaptureFirst) / inputRate * 1e9
            inTime.set(sampleTime: inputSample, hostTime: offset >= 0 ? lastCaptureHost &+ UInt64(offset) : lastCaptureHost &- UInt64(-offset))
            inFlags.pointee = []
            let before = ring.available
            _ = callback(inFlags, inTime, 1, UInt32(frames), nil)
            // A callback that did not render the frames drops them, as the device would.
            if ring.available == before { ring.skip(cycle) }
            inputSample += Double(frames)
        }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {
        if event.kind == .failed { unit.deviceFailed(self, backend: device.info.backend) }
    }

    /// A render of bus 1: the oldest `count` frames recorded (silence for what has not been),
    /// in the program's format; `data`'s nil buffers point at the unit's memory.
    func fetchInput(frames count: Int, into data: AudioBufferListPointer) -> OSStatus {
        guard let bridge = inBridge, let storage = inStorage, let ring else { return AudioUnitError.Code.cannotDoInCurrentContext.rawValue }
        guard count <= frames else { return AudioUnitError.Code.tooManyFramesToProcess.rawValue }
        if !ring.read(into: inDeviceFloat, count: count * inputChannels) {
            inDeviceFloat.update(repeating: 0, count: count * inputChannels)
        }
        let channels = bridge.channels
        for f in 0..<count {
            for c in 0..<channels {
                let d = clientMap[c]
                inClientFloat[f * channels + c] = d >= 0 && d < inputChannels ? inDeviceFloat[f * inputChannels + d] : 0
            }
        }
        if data.count > 0, data[0].data == nil {
            storage.reset(frames: count)
            for i in 0..<min(data.count, storage.list.count) { data[i] = storage.list[i] }
        }
        guard bridge.fits(data, frames: count) else { return AudioUnitError.Code.parameter.rawValue }
        bridge.write(inClientFloat, frames: count, into: data)
        return 0
    }
}
