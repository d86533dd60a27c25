import AudioCore
import AudioUnitServices
import Foundation
import Testing

/// The multichannel mixer, rendered directly and at the head of a generic output.
@Suite struct MixerUnitTests {
    static let rate = 44_100.0
    static let output = Formats.float(rate, 2, interleaved: false)
    static let mono = Formats.float(rate, 1, interleaved: false)
    static let stereo = Formats.float(rate, 2, interleaved: true)

    /// A mixer of `count` inputs: input 0 mono 0.5, input 1 stereo (0.25, −0.0625).
    func mixer(count: Int = 2) throws -> (MultiChannelMixer, [Feeder]) {
        let mixer = try #require(try makeUnit(.multiChannelMixer) as? MultiChannelMixer)
        try mixer.setElementCount(count, scope: .input)
        try mixer.setStreamFormat(Self.output, scope: .output)
        try mixer.setStreamFormat(Self.mono, scope: .input, element: 0)
        try mixer.setStreamFormat(Self.stereo, scope: .input, element: 1)
        let frames = 4096
        let a = Feeder([Array(repeating: 0.5, count: frames)], format: Self.mono)
        let b = Feeder([Array(repeating: 0.25, count: frames), Array(repeating: -0.0625, count: frames)], format: Self.stereo)
        try mixer.setInputSource(.callback(a.callback), element: 0)
        try mixer.setInputSource(.callback(b.callback), element: 1)
        return (mixer, [a, b])
    }

    func mix(_ unit: AudioUnit, frames: Int = 64) throws -> (left: Float, right: Float) {
        let list = TestBufferList(format: Self.output, frames: frames)
        let status = render(unit, list)
        try #require(status == 0, "render: \(status)")
        let l = list.floats(channel: 0), r = list.floats(channel: 1)
        #expect(Set(l).count == 1 && Set(r).count == 1, "constant inputs mix to constants")
        return (l[0], r[0])
    }

    @Test func component() throws {
        let component = try #require(AudioComponent.findNext(matching: AudioComponentDescription(type: "aumx", subType: "mcmx")))
        #expect(component.name == "Apple: AUMultiChannelMixer")
        let unit = component.instantiate()
        #expect(try unit.elementCount(.input) == 8)
        #expect(try unit.elementCount(.output) == 1)
        try unit.setElementCount(3, scope: .input)
        #expect(try unit.elementCount(.input) == 3)
        #expect(throws: AudioUnitError.self) { try unit.setElementCount(2, scope: .output) }
        try unit.initialize()
        let error = #expect(throws: AudioUnitError.self) { try unit.setElementCount(4, scope: .input) }
        #expect(error?.code == .initialized)
    }

    /// Volumes, pan and the output volume, with every gain worked out by hand.
    @Test func volumesAndPan() throws {
        let (mixer, _) = try mixer()
        try mixer.initialize()
        // Unity: mono 0.5 on both sides, plus stereo (0.25, −0.0625).
        var m = try mix(mixer)
        #expect(m.left == 0.75 && m.right == 0.4375)

        try mixer.setParameter(.multiChannelMixerVolume, scope: .input, element: 0, to: 0.5)
        try mixer.setParameter(.multiChannelMixerPan, scope: .input, element: 0, to: -0.5)
        try mixer.setParameter(.multiChannelMixerVolume, scope: .output, to: 0.8)
        // Input 0: 0.5 × 0.5 = 0.25; pan −0.5: left × 1, right × 0.5 → (0.25, 0.125).
        // Sum (0.5, 0.0625) × 0.8 → (0.4, 0.05).
        m = try mix(mixer)
        #expect(abs(m.left - 0.4) < 1e-6 && abs(m.right - 0.05) < 1e-6, "\(m)")

        // Stereo balance: pan 1 silences the left of input 1.
        try mixer.setParameter(.multiChannelMixerPan, scope: .input, element: 1, to: 1)
        m = try mix(mixer)
        #expect(abs(m.left - 0.2) < 1e-6 && abs(m.right - 0.05) < 1e-6, "\(m)")

        #expect(try mixer.parameter(.multiChannelMixerVolume, scope: .input, element: 0) == 0.5)
        #expect(try mixer.parameter(.multiChannelMixerPan, scope: .input, element: 1) == 1)
        try mixer.setParameter(.multiChannelMixerVolume, scope: .input, element: 0, to: 7)
        #expect(try mixer.parameter(.multiChannelMixerVolume, scope: .input, element: 0) == 1, "clamped to 0…1")
    }

    /// A disabled input adds nothing; an input with no source adds nothing and does not fail;
    /// a disabled output renders silence.
    @Test func enableAndUnconnected() throws {
        let (mixer, feeders) = try mixer(count: 3)
        try mixer.initialize()
        try mixer.setParameter(.multiChannelMixerEnable, scope: .input, element: 1, to: 0)
        var m = try mix(mixer)
        #expect(m.left == 0.5 && m.right == 0.5)
        #expect(feeders[1].calls.isEmpty, "a disabled input is not pulled")
        #expect(try mixer.parameter(.multiChannelMixerEnable, scope: .input, element: 1) == 0)
        try mixer.setParameter(.multiChannelMixerEnable, scope: .output, to: 0)
        m = try mix(mixer)
        #expect(m.left == 0 && m.right == 0)
    }

    /// Meters in dB, computed by hand: a constant 0.5 reads 20·log10(0.5) as power and peak; a
    /// sine of amplitude 0.8 with a period of 8 frames reads 20·log10(0.8 / √2) and 20·log10(0.8).
    @Test func metering() throws {
        let (mixer, _) = try mixer()
        let sine = (0..<4096).map { Float(0.8 * sin(2 * Double.pi * Double($0) / 8)) }
        let s = Feeder([sine], format: Self.mono)
        try mixer.setInputSource(.callback(s.callback), element: 0)
        try mixer.initialize()
        #expect(try mixer.parameter(.multiChannelMixerPreAveragePower, scope: .input, element: 0) == -120, "metering is off")
        try mixer.setMeteringMode(true, scope: .input, element: 0)
        try mixer.setMeteringMode(true, scope: .input, element: 1)
        try mixer.setMeteringMode(true, scope: .output)
        #expect(try mixer.meteringMode(scope: .input, element: 1))
        try mixer.setParameter(.multiChannelMixerVolume, scope: .input, element: 1, to: 0.5)
        try mixer.setParameter(.multiChannelMixerVolume, scope: .output, to: 0.5)
        #expect(render(mixer, TestBufferList(format: Self.output, frames: 64)) == 0)

        func dB(_ x: Double) -> Float { Float(20 * log10(x)) }
        func read(_ id: UInt32, _ scope: AudioUnitScope, _ element: UInt32) throws -> Float {
            try mixer.parameter(AudioUnitParameterID(rawValue: id), scope: scope, element: element)
        }
        // Input 0, the sine: before its volume and pan.
        #expect(abs(try read(1000, .input, 0) - dB(0.8 / 2.0.squareRoot())) < 0.01)
        #expect(abs(try read(2000, .input, 0) - dB(0.8)) < 0.01)
        // Input 1: channel 0 0.25, channel 1 0.0625 before its volume of 0.5; after, 0.125 and 0.03125.
        #expect(abs(try read(1000, .input, 1) - dB(0.25)) < 0.01)
        #expect(abs(try read(1001, .input, 1) - dB(0.0625)) < 0.01)
        #expect(abs(try read(2001, .input, 1) - dB(0.0625)) < 0.01)
        #expect(abs(try read(3000, .input, 1) - dB(0.125)) < 0.01)
        #expect(abs(try read(4001, .input, 1) - dB(0.03125)) < 0.01)
        // Output: the mix's left is sine + 0.125 (peak 0.925), after the output volume of 0.5 0.4625.
        #expect(abs(try read(2000, .output, 0) - dB(0.925)) < 0.01)
        #expect(abs(try read(4000, .output, 0) - dB(0.4625)) < 0.01)
        // RMS of 0.8 sin + 0.125 is √(0.32 + 0.015625).
        #expect(abs(try read(1000, .output, 0) - dB((0.32 + 0.015625).squareRoot())) < 0.01)
        #expect(abs(try read(3000, .output, 0) - dB((0.32 + 0.015625).squareRoot() / 2)) < 0.01)
        // A channel the bus does not have, and the meters are read-only.
        #expect(try read(1001, .input, 0) == -120)
        #expect(throws: AudioUnitError.self) { try mixer.setParameter(.multiChannelMixerPreAveragePower, scope: .input, to: 0) }
    }

    @Test func parametersAndFormats() throws {
        let unit = try #require(try makeUnit(.multiChannelMixer) as? MultiChannelMixer)
        #expect(unit.parameterList(scope: .input).map(\.rawValue) == [0, 1, 2, 1000, 2000, 3000, 4000])
        let pan = try #require(unit.parameterRange(.multiChannelMixerPan, scope: .input))
        #expect(pan.minimum == -1 && pan.maximum == 1 && pan.defaultValue == 0)
        #expect(try unit.parameter(.multiChannelMixerVolume, scope: .input, element: 7) == 1)
        #expect(try unit.parameter(.multiChannelMixerEnable, scope: .input, element: 3) == 1)
        let missing = #expect(throws: AudioUnitError.self) { try unit.parameter(AudioUnitParameterID(rawValue: 9), scope: .input) }
        #expect(missing?.code == .invalidParameter)
        let element = #expect(throws: AudioUnitError.self) { try unit.setParameter(.multiChannelMixerVolume, scope: .input, element: 8, to: 1) }
        #expect(element?.code == .invalidElement)
        let int16 = #expect(throws: AudioUnitError.self) { try unit.setStreamFormat(Formats.int16(Self.rate, 2), scope: .input) }
        #expect(int16?.code == .formatNotSupported)
        try unit.setStreamFormat(Formats.float(48_000, 2, interleaved: true), scope: .input, element: 2)
        let rate = #expect(throws: AudioUnitError.self) { try unit.initialize() }
        #expect(rate?.code == .formatNotSupported)
    }

    /// The mixer at the head of a generic output, with interleaved output.
    @Test func behindGenericOutput() throws {
        let (mixer, _) = try mixer()
        let out = Formats.float(Self.rate, 2, interleaved: true)
        try mixer.setStreamFormat(out, scope: .output)
        try mixer.initialize()
        let head = try makeUnit(.genericOutput)
        try head.setStreamFormat(out, scope: .input)
        try head.setStreamFormat(Self.output, scope: .output)
        try head.setInputSource(.connection(mixer, outputBus: 0))
        try head.initialize()
        let got = try renderAll(head, format: Self.output, total: 100, slice: 50)
        #expect(got[0] == Array(repeating: 0.75, count: 100))
        #expect(got[1] == Array(repeating: 0.4375, count: 100))
    }
}
