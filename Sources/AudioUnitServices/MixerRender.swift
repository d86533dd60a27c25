import AudioCore
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// One initialization of a ``MultiChannelMixer``: the memory each input is pulled into, the
/// mix, and the meters. Allocated at initialization; a render allocates nothing.
final class MixerRender: @unchecked Sendable {
    let inputs: [AudioStreamBasicDescription]
    let output: AudioStreamBasicDescription
    let capacity: Int
    let outChannels: Int
    private let storages: [AudioBufferListStorage]
    private let outStorage: AudioBufferListStorage
    /// The mix, interleaved.
    private let sum: UnsafeMutablePointer<Float>
    /// One input's contribution, interleaved in the output's channels.
    private let contribution: UnsafeMutablePointer<Float>
    /// (input channel, output channel, gain) of one input's routing.
    private let routes: UnsafeMutablePointer<(Int, Int, Float)>
    private let inFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>

    /// Meter readings, linear: per element (the inputs, then the output) its pre (average,
    /// peak per channel) then its post (average, peak per output channel) values.
    private let meters: Guarded<[Float]>
    /// Where each element's readings start in ``meters``, and its pre channels.
    private let offsets: [Int]
    private let preChannels: [Int]
    /// The render's readings, copied into ``meters`` at its end.
    private let measured: UnsafeMutablePointer<Float>
    /// Which elements this render measured.
    private let measuredElements: UnsafeMutablePointer<Bool>
    private let meterCount: Int

    init(inputs: [AudioStreamBasicDescription], output: AudioStreamBasicDescription, capacity: Int) {
        self.inputs = inputs
        self.output = output
        self.capacity = capacity
        outChannels = Int(output.channelsPerFrame)
        storages = inputs.map { AudioBufferListStorage(format: $0, capacity: capacity) }
        outStorage = AudioBufferListStorage(format: output, capacity: capacity)
        sum = .allocate(capacity: capacity * outChannels)
        sum.initialize(repeating: 0, count: capacity * outChannels)
        contribution = .allocate(capacity: capacity * outChannels)
        contribution.initialize(repeating: 0, count: capacity * outChannels)
        routes = .allocate(capacity: 66)
        routes.initialize(repeating: (0, 0, 0), count: 66)
        inFlags = .allocate(capacity: 1)
        inFlags.initialize(to: [])
        var offsets: [Int] = []
        var pre: [Int] = []
        var at = 0
        for channels in inputs.map({ Int($0.channelsPerFrame) }) + [Int(output.channelsPerFrame)] {
            offsets.append(at)
            pre.append(channels)
            at += 2 * channels + 2 * Int(output.channelsPerFrame)
        }
        self.offsets = offsets
        preChannels = pre
        meterCount = at
        meters = Guarded(Array(repeating: 0, count: at))
        measured = .allocate(capacity: max(1, at))
        measured.initialize(repeating: 0, count: max(1, at))
        measuredElements = .allocate(capacity: inputs.count + 1)
        measuredElements.initialize(repeating: false, count: inputs.count + 1)
    }

    deinit {
        sum.deallocate()
        contribution.deallocate()
        routes.deallocate()
        inFlags.deallocate()
        measured.deallocate()
        measuredElements.deallocate()
    }

    // MARK: Meters

    /// Reading `kind` (0 pre average, 1 pre peak, 2 post average, 3 post peak) of `channel` of
    /// an element, in dB (−120 for silence or a channel the element does not have).
    func meter(scope: AudioUnitScope, element: Int, kind: Int, channel: Int) -> Float {
        let e = scope == .output ? inputs.count : element
        guard e < offsets.count else { return -120 }
        let pre = preChannels[e]
        let channels = kind < 2 ? pre : outChannels
        guard channel < channels else { return -120 }
        let index = offsets[e] + (kind < 2 ? 0 : 2 * pre) + (kind % 2) * channels + channel
        let linear = meters.withLock { $0[index] }
        return linear > 1e-6 ? max(20 * log10f(linear), -120) : -120
    }

    /// Sets every reading (or one element's) to silence.
    func clearMeters(scope: AudioUnitScope? = nil, element: Int = 0) {
        let e = scope == .output ? inputs.count : element
        meters.withLock { m in
            if scope == nil {
                for i in m.indices { m[i] = 0 }
            } else if e < offsets.count {
                let end = e + 1 < offsets.count ? offsets[e + 1] : meterCount
                for i in offsets[e]..<end { m[i] = 0 }
            }
        }
    }

    /// RMS and peak of `channels` channels of `frames` frames into `measured` at `at`
    /// (averages, then peaks).
    private func measure(channels: Int, frames: Int, at: Int, sample: (Int, Int) -> Float) {
        for c in 0..<channels {
            var power: Double = 0
            var peak: Float = 0
            for f in 0..<frames {
                let x = sample(c, f)
                power += Double(x) * Double(x)
                peak = max(peak, abs(x))
            }
            measured[at + c] = frames > 0 ? Float((power / Double(frames)).squareRoot()) : 0
            measured[at + channels + c] = peak
        }
    }

    // MARK: Rendering

    func render(
        _ unit: AudioUnit, settings: MultiChannelMixer.Controls, time: AudioTimeStampPointer, frames n: Int, data: AudioBufferListPointer
    ) -> OSStatus {
        let oc = outChannels
        guard data.count >= outStorage.buffers else { return AudioUnitError.Code.parameter.rawValue }
        let outBytes = n * Int(output.bytesPerFrame)
        outStorage.reset(frames: n)
        for i in 0..<outStorage.buffers {
            if data[i].data == nil { data[i] = outStorage.list[i] }
            guard Int(data[i].dataByteSize) >= outBytes else { return AudioUnitError.Code.parameter.rawValue }
        }
        sum.update(repeating: 0, count: n * oc)
        measuredElements.update(repeating: false, count: inputs.count + 1)
        var metered = false
        for (i, format) in inputs.enumerated() {
            let control = i < settings.inputs.count ? settings.inputs[i] : MultiChannelMixer.Control()
            guard control.enabled else { continue }
            let storage = storages[i]
            storage.reset(frames: n)
            inFlags.pointee = []
            let status = unit.pullInput(bus: UInt32(i), flags: inFlags, time: time, frames: UInt32(n), into: storage.list)
            if status == AudioUnitError.Code.noConnection.rawValue { continue }
            guard status == 0 else { return status }
            let ic = Int(format.channelsPerFrame)
            let interleaved = format.isInterleaved
            let list = storage.list
            guard list.count >= (interleaved ? 1 : ic) else { return AudioUnitError.Code.parameter.rawValue }
            for b in 0..<(interleaved ? 1 : ic) {
                guard list[b].data != nil, Int(list[b].dataByteSize) >= n * Int(format.bytesPerFrame) else {
                    return AudioUnitError.Code.parameter.rawValue
                }
            }
            @inline(__always) func input(_ c: Int, _ f: Int) -> Float {
                interleaved
                    ? list[0].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self)[f * ic + c]
                    : list[c].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self)[f]
            }
            let routeCount = route(inputChannels: ic, volume: control.volume, pan: control.pan)
            contribution.update(repeating: 0, count: n * oc)
            for r in 0..<routeCount {
                let (from, to, gain) = routes[r]
                guard gain != 0 else { continue }
                let source = interleaved ? list[0].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + from
                    : list[from].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self)
                let stride = interleaved ? ic : 1
                for f in 0..<n { contribution[f * oc + to] += gain * source[f * stride] }
            }
            if control.metering {
                metered = true
                measuredElements[i] = true
                let at = offsets[i]
                measure(channels: ic, frames: n, at: at, sample: input)
                measure(channels: oc, frames: n, at: at + 2 * ic) { c, f in contribution[f * oc + c] }
            }
            for k in 0..<(n * oc) { sum[k] += contribution[k] }
        }
        let out = settings.output
        let gain: Float = out.enabled ? out.volume : 0
        let at = offsets[inputs.count]
        if out.metering { measure(channels: oc, frames: n, at: at) { c, f in sum[f * oc + c] } }
        if gain != 1 { for k in 0..<(n * oc) { sum[k] *= gain } }
        if out.metering {
            metered = true
            measuredElements[inputs.count] = true
            measure(channels: oc, frames: n, at: at + 2 * oc) { c, f in sum[f * oc + c] }
        }
        if output.isInterleaved {
            data[0].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self).update(from: sum, count: n * oc)
            data[0].dataByteSize = UInt32(outBytes)
        } else {
            for c in 0..<oc {
                let to = data[c].data.unsafelyUnwrapped.assumingMemoryBound(to: Float.self)
                for f in 0..<n { to[f] = sum[f * oc + c] }
                data[c].dataByteSize = UInt32(outBytes)
            }
        }
        if metered {
            let (values, elements, offsets, count) = (measured, measuredElements, offsets, meterCount)
            meters.withLock { m in
                m.withUnsafeMutableBufferPointer { p in
                    for e in 0..<offsets.count where elements[e] {
                        let end = e + 1 < offsets.count ? offsets[e + 1] : count
                        for k in offsets[e]..<end { p[k] = values[k] }
                    }
                }
            }
        }
        return 0
    }

    /// Fills ``routes`` with an input's routing to the output channels and returns how many.
    private func route(inputChannels ic: Int, volume v: Float, pan p: Float) -> Int {
        let oc = outChannels
        let left = v * min(1, 1 - p), right = v * min(1, 1 + p)
        if oc == 1 {
            if ic == 1 {
                routes[0] = (0, 0, v)
                return 1
            }
            routes[0] = (0, 0, v / 2)
            routes[1] = (1, 0, v / 2)
            return 2
        }
        switch ic {
        case 1:
            routes[0] = (0, 0, left)
            routes[1] = (0, 1, right)
            return 2
        case 2:
            routes[0] = (0, 0, left)
            routes[1] = (1, 1, right)
            return 2
        default:
            for c in 0..<ic { routes[c] = (c, c, c == 0 ? left : c == 1 ? right : v) }
            return ic
        }
    }
}
