import AudioCore
import AudioDevices

/// The generic output unit's render: its input bus pulled in the input format and converted to
/// the output format (the same rate and channel count), through interleaved Float32 when the
/// two differ.
final class GenericRender: @unchecked Sendable {
    let same: Bool
    private let inBridge: SampleBridge
    private let outBridge: SampleBridge
    private let storage: AudioBufferListStorage
    private let samples: UnsafeMutablePointer<Float>

    init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, capacity: Int) throws(AudioUnitError) {
        guard input.sampleRate == output.sampleRate, input.channelsPerFrame == output.channelsPerFrame else {
            throw AudioUnitError(
                .formatNotSupported, "the generic output converts sample formats, not rates or channel counts: \(input) to \(output)")
        }
        same = input == output
        inBridge = try SampleBridge(format: input, capacity: capacity)
        outBridge = try SampleBridge(format: output, capacity: capacity)
        storage = AudioBufferListStorage(format: input, capacity: capacity)
        samples = .allocate(capacity: capacity * Int(input.channelsPerFrame))
        samples.initialize(repeating: 0, count: capacity * Int(input.channelsPerFrame))
    }

    deinit { samples.deallocate() }

    func render(
        _ unit: AudioUnit, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        let n = Int(frames)
        if same {
            return unit.pullInput(bus: 0, flags: flags, time: time, frames: frames, into: data)
        }
        storage.reset(frames: n)
        let status = unit.pullInput(bus: 0, flags: flags, time: time, frames: frames, into: storage.list)
        guard status == 0 else { return status }
        guard inBridge.fits(storage.list, frames: n), outBridge.fits(data, frames: n) else { return AudioUnitError.Code.parameter.rawValue }
        inBridge.read(storage.list, frames: n, into: samples)
        outBridge.write(samples, frames: n, into: data)
        return 0
    }
}

extension AudioOutputUnit {
    func renderGeneric(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, frames: UInt32, data: AudioBufferListPointer
    ) -> OSStatus {
        guard let render = generic.withLock({ $0 }) else { return AudioUnitError.Code.uninitialized.rawValue }
        return render.render(self, flags: flags, time: time, frames: frames, data: data)
    }
}
