import CAudioToolbox
import AudioDevices
import Synchronization
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

// One run of a device's IOProcs: the backend devices it opened, the buffers of its cycle
// (allocated at the start, never in a cycle) and the cycle itself, which runs on the I/O
// thread of the device that drives it — the output side's when the device has one (it pulls
// cycles as it needs audio), else the input side's (a cycle each time a buffer's worth has
// been recorded).

/// An IOProc registration as a cycle sees it: copied out of the table at the start of each
/// cycle, so that no IOProc is called with a lock held.
struct IOProcRegistration: BitwiseCopyable, @unchecked Sendable {
    /// The ID's bits: the address `AudioDeviceCreateIOProcID` gave out, or the IOProc's own.
    var key: UInt
    var proc: AudioDeviceIOProc
    var clientData: UnsafeMutableRawPointer?
    var running = false
    /// The first cycle it is called in: the first whose output (or, with `startIsInput`,
    /// input) sample time is at least this (`AudioDeviceStartAtTime`).
    var startSample: Double = -.infinity
    var startIsInput = false
}

final class IOProcSession: AudioRenderSource, AudioCaptureSink, @unchecked Sendable {
    let owner: IOProcDevice
    let frames: Int
    let rate: Double
    let outputChannels: Int
    let inputChannels: Int
    private(set) var output: (any AudioOutputDevice)?
    private(set) var input: (any AudioInputDevice)?

    // The cycle's memory; touched only by the driving I/O thread while running.
    private let mix: UnsafeMutablePointer<Float>
    private let procOutput: UnsafeMutablePointer<Float>
    private let inputSamples: UnsafeMutablePointer<Float>
    private let inputList: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>
    private let outputList: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>
    private let stamps: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>
    private let slots: UnsafeMutablePointer<IOProcRegistration>
    /// Recorded input waiting for the output side's cycle (a device with both sides).
    private let ring: SampleRing?
    /// Frames of `mix` the output has taken.
    private var mixPosition: Int
    /// Frames of `inputSamples` recorded (input-driven).
    private var inputFill = 0
    private var cycle: Int64 = 0
    /// Signalled when the output side has ended (played out the last cycle) or failed.
    private let outputEnded = DispatchSemaphore(value: 0)
    private var hostOfZero: UInt64 = 0

    init(owner: IOProcDevice, frames: Int, rate: Double, outputChannels: Int, inputChannels: Int) {
        self.owner = owner
        self.frames = frames
        self.rate = rate
        self.outputChannels = outputChannels
        self.inputChannels = inputChannels
        mix = .allocate(capacity: max(1, frames * outputChannels))
        mix.initialize(repeating: 0, count: max(1, frames * outputChannels))
        procOutput = .allocate(capacity: max(1, frames * outputChannels))
        procOutput.initialize(repeating: 0, count: max(1, frames * outputChannels))
        inputSamples = .allocate(capacity: max(1, frames * inputChannels))
        inputSamples.initialize(repeating: 0, count: max(1, frames * inputChannels))
        inputList = .allocate(capacity: 1)
        outputList = .allocate(capacity: 1)
        stamps = .allocate(capacity: 3)
        stamps.initialize(repeating: CAudioToolbox.AudioTimeStamp(), count: 3)
        slots = .allocate(capacity: IOProcDevice.capacity)
        ring = outputChannels > 0 && inputChannels > 0 ? SampleRing(samples: frames * inputChannels * 16) : nil
        mixPosition = frames
    }

    deinit {
        mix.deallocate()
        procOutput.deallocate()
        inputSamples.deallocate()
        inputList.deallocate()
        outputList.deallocate()
        stamps.deallocate()
        slots.deallocate()
    }

    /// Cycles of audio the backend device holds (a sound server's target latency): one cycle
    /// of 512 frames (10.7 ms at 48 kHz) underruns a PulseAudio stream on a loaded machine.
    /// The cycles themselves are `frames` long whatever the backend's buffer.
    static let deviceBufferCycles = 4

    /// Opens the device's sides (`uid`) and starts them, input first.
    func start(uid: String) throws(AudioDeviceError) {
        let bufferFrames = frames * Self.deviceBufferCycles
        do throws(AudioDeviceError) {
            if inputChannels > 0 {
                let device = try AudioBackends.open(AudioDeviceRequest(
                    input: .uid(uid), sampleRate: rate, channels: inputChannels, bufferFrames: frames))
                input = device
                try device.start(sink: self)
            }
            if outputChannels > 0 {
                let device = try AudioBackends.open(AudioDeviceRequest(
                    output: .uid(uid), sampleRate: rate, channels: outputChannels, bufferFrames: bufferFrames))
                output = device
                try device.start(source: self)
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Stops and closes what it opened; no cycle runs after it returns. What the cycles gave
    /// the output side plays out first (a few cycles at most).
    func stop() {
        input?.stop(drain: false)
        // Nothing of the device is started: the output plays the rest of the last cycle, ends
        // by itself and says so; a stop before that would leave the rest unwritten.
        if output != nil { _ = outputEnded.wait(timeout: .now() + 2) }
        output?.stop(drain: true)
        input?.close()
        output?.close()
        input = nil
        output = nil
    }

    // MARK: The output side drives

    /// The device's audio, a cycle at a time. Once nothing of the device is started, the rest
    /// of the last cycle is the end of the stream: the backend plays it out and stops.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        var done = 0
        while done < frameCount {
            if mixPosition == frames {
                if !owner.isRunning { return done }
                runCycle()
                mixPosition = 0
            }
            let n = min(frameCount - done, frames - mixPosition)
            (buffer + done * outputChannels).update(from: mix + mixPosition * outputChannels, count: n * outputChannels)
            mixPosition += n
            done += n
        }
        return frameCount
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        if event.kind == .stopped || event.kind == .failed { outputEnded.signal() }
    }

    // MARK: The input side records

    func capture(_ samples: UnsafePointer<Float>, frameCount: Int, hostTime: UInt64) {
        if let ring {
            ring.write(samples, count: frameCount * inputChannels)
            return
        }
        if cycle == 0 && inputFill == 0 && hostOfZero == 0 {
            // The first frame recorded is sample time 0.
            anchor(hostOfZero: hostTime == 0 ? HostTime.now() : hostTime)
        }
        var taken = 0
        while taken < frameCount {
            let n = min(frameCount - taken, frames - inputFill)
            (inputSamples + inputFill * inputChannels).update(from: samples + taken * inputChannels, count: n * inputChannels)
            inputFill += n
            taken += n
            if inputFill == frames {
                runCycle()
                inputFill = 0
            }
        }
    }

    func device(_ device: any AudioInputDevice, didReport event: AudioDeviceEvent) {}

    // MARK: The cycle

    private func anchor(hostOfZero host: UInt64) {
        hostOfZero = host
        owner.clock.anchor(hostOfZero: host, rate: rate)
    }

    /// Host time of sample time `sample`, on the line through the anchor at the nominal rate.
    private func host(_ sample: Double) -> UInt64 {
        let offset = sample / rate * 1e9
        return offset >= 0 ? hostOfZero &+ UInt64(offset) : hostOfZero &- UInt64(-offset)
    }

    private func stamp(_ index: Int, _ sample: Double) {
        stamps[index].mSampleTime = sample
        stamps[index].mHostTime = host(sample)
        stamps[index].mRateScalar = 1
        stamps[index].mWordClockTime = 0
        stamps[index].mFlags = AudioTimeStampFlags([.sampleTimeValid, .hostTimeValid, .rateScalarValid])
    }

    /// One I/O cycle: every running IOProc once, with the cycle's input and times, its output
    /// summed into `mix`.
    private func runCycle() {
        owner.clock.enterCycle()
        let n = Double(frames)
        if hostOfZero == 0 {
            // The output side's first cycle: now is one buffer into the device's time.
            let now = HostTime.now()
            anchor(hostOfZero: now &- UInt64(n / rate * 1e9))
        }
        if let ring, !ring.read(into: inputSamples, count: frames * inputChannels) {
            inputSamples.update(repeating: 0, count: frames * inputChannels)
        }
        let nowSample = Double(cycle + 1) * n
        stamp(0, nowSample)
        stamp(1, nowSample - n)
        stamp(2, nowSample + n)
        let count = owner.runningRegistrations(into: slots)
        mix.update(repeating: 0, count: frames * outputChannels)
        let bytes = UInt32(frames * MemoryLayout<Float>.size)
        for i in 0..<count {
            let r = slots[i]
            if (r.startIsInput ? nowSample - n : nowSample + n) < r.startSample { continue }
            inputList.pointee.mNumberBuffers = inputChannels > 0 ? 1 : 0
            inputList.pointee.mBuffers = CAudioToolbox.AudioBuffer(
                mNumberChannels: UInt32(inputChannels), mDataByteSize: inputChannels > 0 ? bytes * UInt32(inputChannels) : 0,
                mData: inputChannels > 0 ? UnsafeMutableRawPointer(inputSamples) : nil)
            outputList.pointee.mNumberBuffers = outputChannels > 0 ? 1 : 0
            outputList.pointee.mBuffers = CAudioToolbox.AudioBuffer(
                mNumberChannels: UInt32(outputChannels), mDataByteSize: outputChannels > 0 ? bytes * UInt32(outputChannels) : 0,
                mData: outputChannels > 0 ? UnsafeMutableRawPointer(procOutput) : nil)
            if outputChannels > 0 { procOutput.update(repeating: 0, count: frames * outputChannels) }
            _ = r.proc(owner.id, UnsafePointer(stamps), UnsafePointer(inputList), UnsafePointer(stamps + 1), outputList, UnsafePointer(stamps + 2), r.clientData)
            for s in 0..<(frames * outputChannels) { mix[s] += procOutput[s] }
        }
        cycle += 1
        owner.clock.leaveCycle(cycles: cycle)
    }
}
