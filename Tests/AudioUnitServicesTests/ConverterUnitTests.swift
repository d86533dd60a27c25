import AudioCodecs
import AudioConverterServices
import AudioCore
import AudioUnitServices
import Foundation
import ProcessSupport
import Testing

/// AUConverter rendered at the head of a generic output, fed by a callback.
@Suite struct ConverterUnitTests {
    /// generic output ← converter ← `feeder`, the converter from `input` to `output`, the
    /// generic output in the converter's output format; both initialized.
    func chain(
        input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, feeder: Feeder, quality: UInt32? = nil,
        maximumFrames: Int = 4096, map: [Int32]? = nil
    ) throws -> (head: AudioUnit, converter: AUConverter) {
        let converter = try #require(try makeUnit(.converter) as? AUConverter)
        try converter.setStreamFormat(input, scope: .input)
        try converter.setStreamFormat(output, scope: .output)
        try converter.setMaximumFramesPerSlice(maximumFrames)
        if let quality { converter.renderQuality = quality }
        if let map { try converter.setChannelMap(map) }
        try converter.setInputSource(.callback(feeder.callback))
        let head = try makeUnit(.genericOutput)
        try head.setStreamFormat(output, scope: .input)
        try head.setStreamFormat(output, scope: .output)
        try head.setInputSource(.connection(converter, outputBus: 0))
        try converter.initialize()
        try head.initialize()
        return (head, converter)
    }

    @Test func component() throws {
        let component = try #require(AudioComponent.findNext(matching: AudioComponentDescription(type: "aufc", subType: "conv")))
        #expect(component.name == "Apple: AUConverter")
        #expect(component.description.manufacturer == "appl")
        let unit = component.instantiate()
        #expect(try unit.elementCount(.input) == 1)
        #expect(try unit.elementCount(.output) == 1)
        #expect(unit.latency == 0)
    }

    /// Int16 interleaved stereo in, Float32 non-interleaved out: every sample is x / 32768 exactly.
    @Test func int16ToFloatNonInterleaved() throws {
        let values: [Int16] = [0, 1, -1, 16384, -16384, 32767, -32768, 12345, -54, 8191]
        let frames = 300
        let left = (0..<frames).map { Float(values[$0 % values.count]) / 32768 }
        let right = (0..<frames).map { Float(values[($0 + 3) % values.count]) / 32768 }
        let feeder = Feeder([left, right], format: Formats.int16(44_100, 2))
        let out = Formats.float(44_100, 2, interleaved: false)
        let (head, _) = try chain(input: Formats.int16(44_100, 2), output: out, feeder: feeder)
        let got = try renderAll(head, format: out, total: frames, slice: 128)
        for f in 0..<frames {
            #expect(got[0][f] == Float(values[f % values.count]) / 32768, "left frame \(f)")
            #expect(got[1][f] == Float(values[(f + 3) % values.count]) / 32768, "right frame \(f)")
        }
    }

    /// Float32 interleaved to Int16 and back: the nearest Int16 of each value.
    @Test func floatToInt16() throws {
        let frames = 64
        let x = (0..<frames).map { Float($0 - 32) / 40 }
        let feeder = Feeder([x], format: Formats.float(8_000, 1, interleaved: true))
        let out = Formats.int16(8_000, 1)
        let (head, _) = try chain(input: Formats.float(8_000, 1, interleaved: true), output: out, feeder: feeder)
        let list = TestBufferList(format: out, frames: frames)
        #expect(render(head, list) == 0)
        let p = list.list[0].data!.assumingMemoryBound(to: Int16.self)
        for f in 0..<frames {
            let expected = Int16(clamping: Int((Double(f - 32) / 40 * 32768).rounded()))
            #expect(abs(Int(p[f]) - Int(expected)) <= 1, "frame \(f): \(p[f]) for \(expected)")
        }
    }

    /// 44.1 → 48 kHz: the unit's output is exactly what the package's AudioConverter makes of the
    /// same input (same quality), and the callback saw contiguous input time stamps.
    @Test(arguments: [(44_100.0, 48_000.0, UInt32(127)), (48_000, 8_000, 96), (22_050, 44_100, 0)])
    func rateConversionIsTheConverters(_ inRate: Double, _ outRate: Double, _ quality: UInt32) throws {
        let inputFrames = Int(inRate / 2)
        let signal = tones(rate: inRate, frames: inputFrames)
        let outputFrames = Int(Double(inputFrames) * outRate / inRate) - 200
        let format = Formats.float(inRate, 1, interleaved: false)
        let out = Formats.float(outRate, 1, interleaved: false)
        let feeder = Feeder([signal], format: format)
        let (head, _) = try chain(input: format, output: out, feeder: feeder, quality: quality, maximumFrames: 512)
        let got = try renderAll(head, format: out, total: outputFrames, slice: 500)[0]

        let reference = try AudioConverter(from: format, to: out)
        reference.sampleRateConverterQuality = SampleRateConverterQuality(rawValue: quality)
        // The callback plays silence after the signal and never ends the stream: so does this input.
        let padded = signal + Array(repeating: 0, count: inputFrames)
        var at = 0
        let (packets, _) = try reference.fill(packetCapacity: outputFrames) { wanted throws(AudioCodecError) in
            let n = min(wanted, padded.count - at)
            defer { at += n }
            return AudioConverterPackets(data: padded[at..<(at + n)].withUnsafeBytes { Array($0) }, packetCount: n)
        }
        let expected = packets.data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(expected.count == outputFrames)
        #expect(got == expected)

        var next = 0.0
        for call in feeder.calls {
            #expect(call.sampleTime == next)
            #expect(call.frames <= 512)
            next += Double(call.frames)
        }
        #expect(feeder.position == Int(next))
        #expect(feeder.position >= Int(Double(outputFrames) * inRate / outRate))
    }

    /// 44.1 → 48 kHz at Max quality against sox's very high quality resampler: no shift and a
    /// signal-to-difference ratio above 100 dB away from the ends (as the converter's own tests).
    @Test func rateConversionMatchesSox() throws {
        let inRate = 44_100.0, outRate = 48_000.0
        let inputFrames = 2 * 44_100
        let signal = (0..<inputFrames).map { Float(0.5 * sin(2 * Double.pi * 997 * Double($0) / inRate)) }
        let format = Formats.float(inRate, 1, interleaved: true)
        let out = Formats.float(outRate, 1, interleaved: true)
        let feeder = Feeder([signal], format: format)
        let (head, _) = try chain(input: format, output: out, feeder: feeder, quality: 127)
        let total = Int(Double(inputFrames) * outRate / inRate)
        let ours = try renderAll(head, format: out, total: total, slice: 1024)[0]
        let theirs = try Sox.resample(signal, from: inRate, to: outRate)
        #expect(theirs.count == total)
        let edge = Int(0.05 * outRate)
        var signalPower = 0.0, noise = 0.0
        for i in edge..<(total - edge) {
            signalPower += Double(theirs[i]) * Double(theirs[i])
            noise += Double(ours[i] - theirs[i]) * Double(ours[i] - theirs[i])
        }
        let snr = 10 * log10(signalPower / max(noise, 1e-30))
        #expect(snr > 100, "\(snr) dB against sox")
    }

    /// Mono to stereo copies the channel; a channel map swaps or silences channels.
    @Test func channelsAndChannelMap() throws {
        let frames = 32
        let a = (0..<frames).map { Float($0) / 64 }, b = (0..<frames).map { -Float($0) / 128 }
        let stereo = Formats.float(48_000, 2, interleaved: true)
        let out = Formats.float(48_000, 2, interleaved: false)
        let (swapped, converter) = try chain(input: stereo, output: out, feeder: Feeder([a, b], format: stereo), map: [1, -1])
        #expect(converter.channelMap == [1, -1])
        let got = try renderAll(swapped, format: out, total: frames, slice: frames)
        #expect(got[0] == b)
        #expect(got[1] == Array(repeating: 0, count: frames))

        let refused = #expect(throws: AudioUnitError.self) { try converter.setChannelMap([0]) }
        #expect(refused?.code == .failedInitialization)
        #expect(converter.channelMap == [1, -1], "a refused map leaves the old one")

        let mono = Formats.float(48_000, 1, interleaved: true)
        let (dual, _) = try chain(input: mono, output: out, feeder: Feeder([a], format: mono))
        let both = try renderAll(dual, format: out, total: frames, slice: frames)
        #expect(both[0] == a)
        #expect(both[1] == a)

        let bad = try #require(try makeUnit(.converter) as? AUConverter)
        #expect(throws: AudioUnitError.self) { try bad.setChannelMap([]) }
        try bad.setChannelMap([0, 1, 0])  // three entries for a stereo output: refused at initialization
        let error = #expect(throws: AudioUnitError.self) { try bad.initialize() }
        #expect(error?.code == .failedInitialization)
    }

    /// Errors: a render before initialization, more frames than the slice allows, an input
    /// without a source, an input that fails; render notifications see pre and post flags.
    @Test func errorsAndNotifications() throws {
        let format = Formats.float(44_100, 2, interleaved: false)
        let unit = try makeUnit(.converter)
        let list = TestBufferList(format: format, frames: 64)
        #expect(render(unit, list) == AudioUnitError.Code.uninitialized.rawValue)
        try unit.setMaximumFramesPerSlice(32)
        try unit.initialize()
        #expect(render(unit, list) == AudioUnitError.Code.tooManyFramesToProcess.rawValue)
        #expect(render(unit, list, frames: 32) == AudioUnitError.Code.noConnection.rawValue)
        #expect(unit.takeLastRenderError() == AudioUnitError.Code.noConnection.rawValue)
        #expect(render(unit, list, frames: 32, bus: 1) == AudioUnitError.Code.invalidElement.rawValue)

        let feeder = Feeder([[0.25], [0.5]], format: format)
        try unit.setInputSource(.callback(feeder.callback))
        let seen = FlagLog()
        unit.addRenderNotify { flags, _, _, _, _ in
            seen.append(flags.pointee)
            return 0
        }
        list.reset(nilData: true)
        #expect(render(unit, list, frames: 32) == 0)
        #expect(list.list[0].data != nil, "a nil buffer is pointed at the unit's memory")
        #expect(list.floats(channel: 1)[0] == 0.5)
        #expect(seen.flags == [.preRender, .postRender])

        feeder.failWith = -1234
        list.reset()
        #expect(render(unit, list, frames: 32) == -1234)
        #expect(seen.flags.last == [.postRender, .postRenderError])

        unit.uninitialize()
        #expect(render(unit, list, frames: 32) == AudioUnitError.Code.uninitialized.rawValue)
    }

    /// A reset starts the conversion again: the same input renders the same output.
    @Test func resetRestarts() throws {
        let signal = tones(rate: 44_100, frames: 4000)
        let format = Formats.float(44_100, 1, interleaved: true)
        let out = Formats.float(48_000, 1, interleaved: true)
        let feeder = Feeder([signal], format: format)
        let (head, converter) = try chain(input: format, output: out, feeder: feeder)
        let first = try renderAll(head, format: out, total: 1000, slice: 250)[0]
        try converter.reset()
        feeder.position = 0
        let again = try renderAll(head, format: out, total: 1000, slice: 250)[0]
        #expect(first == again)
    }
}

/// Flags a render notification saw.
final class FlagLog: @unchecked Sendable {
    private(set) var flags: [AudioUnitRenderActionFlags] = []
    func append(_ f: AudioUnitRenderActionFlags) { flags.append(f) }
}
