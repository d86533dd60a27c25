import AudioCore
import AudioCodecs
import AudioConverterServices
import Locking

/// The format converter unit (`kAudioUnitType_FormatConverter`, `kAudioUnitSubType_AUConverter`):
/// one input bus, one output bus, and between them the package's `AudioConverter`, so the
/// input and output scopes may differ in anything linear PCM has: sample format, interleaving,
/// channel count and sample rate.
///
/// A render of bus 0 asks the converter for the frames wanted; the converter pulls its input
/// (the bus's render callback or connected unit) in the input format, as many frames as it asks
/// for, at most ``AudioUnit/maximumFramesPerSlice`` per pull. The input's time stamps count the
/// input frames pulled: the first pull after ``AudioUnit/initialize()`` or a reset starts at the
/// render's sample time scaled to the input rate, and each later one follows the last.
///
/// Conversion is the converter's: the same input gives exactly what an `AudioConverter` from
/// the input format to the output format gives, with its sample-rate converter's delay trimmed
/// (so ``AudioUnit/latency`` is 0: output frame j is the input at time j × A / B, the converter
/// reading ahead instead of lagging), channels mapped by ``channelMap`` or, without one, as
/// `ChannelMixer` describes (mono copied to every channel), and the resampler's quality taken
/// from ``AudioUnit/renderQuality`` (`kAudioUnitProperty_RenderQuality`, 0…127, the values of
/// `kRenderQuality_Min` … `_Max`, which are those of `kAudioConverterQuality_*`;
/// `kRenderQuality_High` unless set, as Apple's converter defaults to `kAudioConverterQuality_High`).
///
/// Memory: the converter, its resampler and its stages are made when the unit is initialized
/// (and made again, off the render thread, by a reset or a change of quality or channel map),
/// and so are the buffers the input is pulled into. The render itself is not free of allocation
/// at first: the converter keeps frames between its stages in queues that start at 4096 frames
/// and grow, once, to the most they have held (a slice of input above 4096 frames, or a
/// 4096-frame chunk's worth of output after upsampling), and it allocates a gathering buffer for
/// non-interleaved input and a scratch buffer for non-interleaved output at their first use.
/// Those happen in the first renders after initialization or a reset; after them, with the same
/// slice sizes, a render allocates nothing. Same-rate, same-channel conversion between
/// interleaved (or mono) formats converts straight from the input to the output and allocates
/// nothing at all.
public final class AUConverter: AudioUnit, @unchecked Sendable {
    private let map = Guarded<[Int32]?>(nil)
    private let state = Guarded<ConverterRender?>(nil)

    init(component: AudioComponent) {
        super.init(component: component, inputs: 1, outputs: 1, format: Self.canonicalFormat(sampleRate: 44_100, channels: 2))
        configuration.withLock { $0.renderQuality = 96 }
    }

    // MARK: Settings

    /// The channel map (`kAudioOutputUnitProperty_ChannelMap`, output scope, as Apple's
    /// AUConverter takes it): one entry per output channel, the input channel it takes, or -1
    /// for silence. nil: the converter's default mapping.
    public var channelMap: [Int32]? { map.withLock { $0 } }

    /// Sets (or with nil clears) ``channelMap``: 1 to 64 entries of -1…63, else
    /// `invalidPropertyValue`. It must name as many entries as the output has channels, and
    /// input channels that exist, when the unit is initialized (`failedInitialization`
    /// otherwise). Set while initialized, the conversion starts again with it, as after a reset;
    /// a map that does not fit the formats is refused then and the old one kept.
    public func setChannelMap(_ channels: [Int32]?) throws(AudioUnitError) {
        if let channels {
            guard !channels.isEmpty, channels.count <= 64, channels.allSatisfy({ $0 >= -1 && $0 < 64 }) else {
                throw AudioUnitError(.invalidPropertyValue, "a channel map holds 1 to 64 entries of -1…63")
            }
        }
        let old = map.withLock { m in
            defer { m = channels }
            return m
        }
        if isInitialized {
            do {
                try prepare()
            } catch {
                map.withLock { $0 = old }
                throw error
            }
        }
        changed(.channelMap, scope: .output, element: 0)
    }

    /// `kAudioUnitProperty_RenderQuality` (0…127): the sample-rate converter's quality. Set while
    /// initialized, the conversion starts again at the new quality, as after a reset.
    public override var renderQuality: UInt32 {
        get { super.renderQuality }
        set {
            super.renderQuality = newValue
            if isInitialized { try? prepare() }
            changed(.renderQuality, scope: .global, element: 0)
        }
    }

    // MARK: Life cycle

    override func formatChangedWhileInitialized(scope: AudioUnitScope, element: UInt32) throws(AudioUnitError) {
        try prepare()
    }

    override func prepare() throws(AudioUnitError) {
        let made = try makeRender()
        state.withLock { $0 = made }
    }

    override func release() {
        state.withLock { $0 = nil }
    }

    /// A new converter, off the render thread; the render in progress finishes with the old one.
    override func clearRenderState() {
        guard state.withLock({ $0 != nil }), let made = try? makeRender() else { return }
        state.withLock { $0 = made }
    }

    private func makeRender() throws(AudioUnitError) -> ConverterRender {
        let (input, output, maximum, quality) = configuration.withLock {
            ($0.inputs[0].format, $0.outputs[0].format, $0.maximumFramesPerSlice, $0.renderQuality)
        }
        let channels = map.withLock { $0 }
        let converter: AudioConverter
        do {
            converter = try AudioConverter(from: input, to: output)
        } catch {
            throw AudioUnitError(.formatNotSupported, "\(error.reason): \(input) to \(output)")
        }
        converter.sampleRateConverterQuality = SampleRateConverterQuality(rawValue: quality)
        if let channels {
            guard channels.count == Int(output.channelsPerFrame), channels.allSatisfy({ $0 < Int32(input.channelsPerFrame) }) else {
                throw AudioUnitError(
                    .failedInitialization,
                    "the channel map's \(channels.count) entries must name input channels (of \(input.channelsPerFrame)) for \(output.channelsPerFrame) output channels")
            }
            converter.channelMap = channels.map { Int($0) }
        }
        do {
            return try ConverterRender(converter: converter, capacity: maximum)
        } catch {
            throw AudioUnitError(.failedInitialization, "\(error.reason)")
        }
    }

    // MARK: Rendering

    override func renderBus(
        flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, time: AudioTimeStampPointer, bus: UInt32, frames: UInt32,
        data: AudioBufferListPointer
    ) -> OSStatus {
        guard bus == 0 else { return AudioUnitError.Code.invalidElement.rawValue }
        guard let render = state.withLock({ $0 }) else { return AudioUnitError.Code.uninitialized.rawValue }
        return render.render(self, time: time, frames: Int(frames), data: data)
    }
}

/// One initialization's conversion: the converter, the memory its input is pulled into, and
/// the input's time stamp. Used by one render at a time.
final class ConverterRender: @unchecked Sendable {
    let converter: AudioConverter
    let input: AudioStreamBasicDescription
    let output: AudioStreamBasicDescription
    let capacity: Int
    private let inStorage: AudioBufferListStorage
    private let outStorage: AudioBufferListStorage
    private var inBuffers: [UnsafeRawBufferPointer]
    private var outBuffers: [UnsafeMutableRawBufferPointer]
    private let inFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
    private let timeMemory: UnsafeMutableRawPointer
    private let inTime: AudioTimeStampPointer
    /// The sample time of the next input frame; nil before the first pull.
    private var inputSample: Double?

    init(converter: AudioConverter, capacity: Int) throws(AudioCodecError) {
        self.converter = converter
        input = converter.inputFormat
        output = converter.outputFormat
        self.capacity = capacity
        let pulled = AudioBufferListStorage(format: input, capacity: capacity)
        inStorage = pulled
        outStorage = AudioBufferListStorage(format: output, capacity: capacity)
        inBuffers = (0..<pulled.buffers).map { i in
            UnsafeRawBufferPointer(start: pulled.list[i].data, count: pulled.bytesPerBuffer)
        }
        outBuffers = Array(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0), count: outStorage.buffers)
        inFlags = .allocate(capacity: 1)
        inFlags.initialize(to: [])
        timeMemory = .allocate(byteCount: AudioTimeStampPointer.byteSize, alignment: 16)
        timeMemory.initializeMemory(as: UInt8.self, repeating: 0, count: AudioTimeStampPointer.byteSize)
        inTime = AudioTimeStampPointer(timeMemory)
        // A fill of no frames makes the converter's stages (and its resampler) now, not in the
        // first render; it asks for no input.
        _ = try converter.fill(AudioConverterOutput(buffers: outBuffers, packetCapacity: 0)) { _ throws(AudioCodecError) in nil }
    }

    deinit {
        inFlags.deallocate()
        timeMemory.deallocate()
    }

    func render(_ unit: AudioUnit, time: AudioTimeStampPointer, frames: Int, data: AudioBufferListPointer) -> OSStatus {
        let frameBytes = Int(output.bytesPerFrame)
        guard data.count >= outBuffers.count else { return AudioUnitError.Code.parameter.rawValue }
        outStorage.reset(frames: frames)
        for i in 0..<outBuffers.count {
            var b = data[i]
            if b.data == nil {
                b = outStorage.list[i]
                data[i] = b
            }
            guard Int(b.dataByteSize) >= frames * frameBytes else { return AudioUnitError.Code.parameter.rawValue }
            outBuffers[i] = UnsafeMutableRawBufferPointer(start: b.data, count: frames * frameBytes)
        }
        if inputSample == nil { inputSample = time.sampleTime * input.sampleRate / output.sampleRate }
        let hostTime = time.hostTime
        var failure: OSStatus = 0
        let result: AudioConverterFillResult
        do throws(AudioCodecError) {
            result = try converter.fill(AudioConverterOutput(buffers: outBuffers, packetCapacity: frames)) {
                wanted throws(AudioCodecError) -> AudioConverterInputData? in
                let n = min(max(wanted, 1), capacity)
                inStorage.reset(frames: n)
                inTime.set(sampleTime: inputSample ?? 0, hostTime: hostTime)
                inFlags.pointee = []
                let status = unit.pullInput(bus: 0, flags: inFlags, time: inTime, frames: UInt32(n), into: inStorage.list)
                guard status == 0 else {
                    failure = status
                    throw AudioCodecError(AudioCodecError.Code(rawValue: status), "the converter's input failed")
                }
                inputSample = (inputSample ?? 0) + Double(n)
                // The source may have pointed the list at memory of its own.
                for i in 0..<inBuffers.count {
                    let b = inStorage.list[i]
                    if UnsafeRawPointer(b.data) != inBuffers[i].baseAddress || Int(b.dataByteSize) != inBuffers[i].count {
                        inBuffers[i] = UnsafeRawBufferPointer(start: b.data, count: b.data == nil ? 0 : Int(b.dataByteSize))
                    }
                }
                return AudioConverterInputData(buffers: inBuffers, packetCount: n)
            }
        } catch {
            return failure != 0 ? failure : error.code.rawValue
        }
        if result.packetCount < frames {
            if failure != 0 { return failure }
            if let error = result.inputError { return error.code.rawValue }
            // The stream cannot end here (the input never says it has); silence what is missing.
            for b in outBuffers {
                guard let base = b.baseAddress else { continue }
                (base + result.packetCount * frameBytes).initializeMemory(as: UInt8.self, repeating: 0, count: (frames - result.packetCount) * frameBytes)
            }
        }
        for i in 0..<outBuffers.count {
            var b = data[i]
            b.dataByteSize = UInt32(frames * frameBytes)
            data[i] = b
        }
        return 0
    }
}

extension AudioComponentDescription {
    /// AUConverter (`kAudioUnitType_FormatConverter`, `kAudioUnitSubType_AUConverter`, `'conv'`).
    public static let converter = AudioComponentDescription(type: formatConverterType, subType: "conv", manufacturer: apple)
}
