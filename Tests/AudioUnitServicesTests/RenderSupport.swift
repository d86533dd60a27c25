import AudioCore
import AudioUnitServices
import Foundation
import ProcessSupport
import Testing

/// A buffer list of one format, `frames` long, in memory the test owns.
final class TestBufferList: @unchecked Sendable {
    let format: AudioStreamBasicDescription
    let frames: Int
    let raw: UnsafeMutableRawPointer
    let buffers: Int
    let bytesPerBuffer: Int
    private let samples: UnsafeMutableRawPointer

    init(format: AudioStreamBasicDescription, frames: Int) {
        self.format = format
        self.frames = frames
        buffers = format.isInterleaved ? 1 : Int(format.channelsPerFrame)
        bytesPerBuffer = frames * Int(format.bytesPerFrame)
        raw = .allocate(byteCount: AudioBufferListPointer.byteSize(buffers: buffers), alignment: 16)
        samples = .allocate(byteCount: max(1, bytesPerBuffer * buffers), alignment: 16)
        samples.initializeMemory(as: UInt8.self, repeating: 0xA5, count: max(1, bytesPerBuffer * buffers))
        reset()
    }

    deinit {
        raw.deallocate()
        samples.deallocate()
    }

    var list: AudioBufferListPointer { AudioBufferListPointer(raw) }

    /// Points the list at the test's memory, sized for every frame.
    func reset(nilData: Bool = false) {
        list.count = buffers
        let channels = format.isInterleaved ? format.channelsPerFrame : 1
        for i in 0..<buffers {
            list[i] = AudioUnitBuffer(numberChannels: channels, dataByteSize: UInt32(bytesPerBuffer), data: nilData ? nil : samples + i * bytesPerBuffer)
        }
    }

    /// Channel `c` of a Float32 list, as the list's buffers now point.
    func floats(channel c: Int) -> [Float] {
        let channels = Int(format.channelsPerFrame)
        if format.isInterleaved {
            let p = list[0].data!.assumingMemoryBound(to: Float.self)
            return (0..<frames).map { p[$0 * channels + c] }
        }
        let p = list[c].data!.assumingMemoryBound(to: Float.self)
        return (0..<frames).map { p[$0] }
    }
}

/// Renders `frames` frames of bus 0 of `unit` into `list`, at `sampleTime`; the status and the
/// flags the render left.
@discardableResult
func render(
    _ unit: AudioUnit, _ list: TestBufferList, frames: Int? = nil, sampleTime: Double = 0, bus: UInt32 = 0
) -> OSStatus {
    let flags = UnsafeMutablePointer<AudioUnitRenderActionFlags>.allocate(capacity: 1)
    flags.initialize(to: [])
    let time = UnsafeMutableRawPointer.allocate(byteCount: AudioTimeStampPointer.byteSize, alignment: 16)
    defer {
        flags.deallocate()
        time.deallocate()
    }
    AudioTimeStampPointer(time).set(sampleTime: sampleTime, hostTime: 0)
    return unit.render(flags: flags, time: AudioTimeStampPointer(time), bus: bus, frames: UInt32(frames ?? list.frames), data: list.list)
}

/// Renders `total` frames of bus 0 in slices of `slice` and returns channel 0..<channels.
func renderAll(_ unit: AudioUnit, format: AudioStreamBasicDescription, total: Int, slice: Int) throws -> [[Float]] {
    let list = TestBufferList(format: format, frames: slice)
    var out = Array(repeating: [Float](), count: Int(format.channelsPerFrame))
    var done = 0
    while done < total {
        let n = min(slice, total - done)
        list.reset()
        let status = render(unit, list, frames: n, sampleTime: Double(done))
        try #require(status == 0, "render failed: \(status)")
        for c in out.indices { out[c] += list.floats(channel: c).prefix(n) }
        done += n
    }
    return out
}

/// A callback that plays `channels` interleaved or not from `samples` (per channel) in the
/// format `format` (Float32 or Int16), then silence; it records the time stamps and frame
/// counts it was called with.
final class Feeder: @unchecked Sendable {
    let samples: [[Float]]
    let format: AudioStreamBasicDescription
    var position = 0
    var calls: [(sampleTime: Double, frames: Int)] = []
    var failWith: OSStatus = 0

    init(_ samples: [[Float]], format: AudioStreamBasicDescription) {
        self.samples = samples
        self.format = format
    }

    func sample(_ c: Int, _ f: Int) -> Float { f < samples[c].count ? samples[c][f] : 0 }

    var callback: AudioUnitRenderCallback {
        { [self] _, time, _, frames, data in
            guard failWith == 0 else { return failWith }
            guard let data else { return -50 }
            let n = Int(frames)
            calls.append((time.sampleTime, n))
            let channels = Int(format.channelsPerFrame)
            let isInt = !format.isFloat
            for c in 0..<channels {
                let buffer = format.isInterleaved ? data[0] : data[c]
                guard let p = buffer.data else { return -50 }
                let stride = format.isInterleaved ? channels : 1
                let offset = format.isInterleaved ? c : 0
                for f in 0..<n {
                    let x = sample(c, position + f)
                    if isInt {
                        p.assumingMemoryBound(to: Int16.self)[f * stride + offset] = Int16(clamping: Int((x * 32768).rounded()))
                    } else {
                        p.assumingMemoryBound(to: Float.self)[f * stride + offset] = x
                    }
                }
            }
            position += n
            return 0
        }
    }
}

enum Formats {
    static func float(_ rate: Double, _ channels: UInt32, interleaved: Bool) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription.linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 32, isFloat: true)
        if !interleaved {
            f.formatFlags.insert(.isNonInterleaved)
            f.bytesPerFrame = 4
            f.bytesPerPacket = 4
        }
        return f
    }

    static func int16(_ rate: Double, _ channels: UInt32) -> AudioStreamBasicDescription {
        .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 16)
    }
}

/// A sum of tones well below both Nyquist frequencies, at `rate`.
func tones(rate: Double, frames: Int) -> [Float] {
    (0..<frames).map { i in
        let t = Double(i) / rate
        return Float(0.3 * sin(2 * .pi * 997 * t) + 0.2 * sin(2 * .pi * 3001 * t + 0.5) + 0.1 * sin(2 * .pi * 211 * t))
    }
}

/// A new unit of the component `description` finds.
func makeUnit(_ description: AudioComponentDescription) throws -> AudioUnit {
    try #require(AudioComponent.findNext(matching: description)).instantiate()
}
