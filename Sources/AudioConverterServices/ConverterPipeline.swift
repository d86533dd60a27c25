import AudioCore
import AudioCodecs

/// The running conversion of an ``AudioConverter``: where its input stands, the frames between
/// stages, and whether the stream has ended. Made at the first fill after the converter's
/// settings are final; dropped by a reset.
final class ConverterPipeline {
    private let input: AudioStreamBasicDescription
    private let output: AudioStreamBasicDescription
    /// The decoder, its output converted to Float32 (of its rate and channel count).
    private let decoder: PacketDecoder?
    private let encoder: (any AudioEncoder)?

    /// Linear PCM straight from input to output (same rate and channels, no map, both
    /// interleaved or one channel).
    private let direct: PCMConverter?
    /// The input given and not yet used, for ``direct`` conversion.
    private var pending: (data: AudioConverterInputData, offset: Int)?

    /// Input PCM to Float32.
    private let toFloat: PCMConverter?
    /// True when the encoder reads the input's integers (FLAC): the frames pass through the
    /// FIFOs as 4-byte words, unconverted or sign-extended from narrower ones.
    private let rawWords: Bool
    /// The bytes of one input sample when ``rawWords``: 4, or 1 to 3 to widen.
    private let rawWordBytes: Int
    /// Non-interleaved input gathered into back-to-back regions for ``toFloat``.
    private var gather: UnsafeMutableRawBufferPointer?
    private var front: FloatFIFO
    private let mixer: ChannelMixer?
    private var mixed: UnsafeMutablePointer<Float>?
    private let mixChunk = 4096
    private let resampler: SampleRateConverter?
    private var back: FloatFIFO
    /// Float32 to the output, for linear PCM output: the whole frame when interleaved, one
    /// channel's samples when not.
    private let fromFloat: PCMConverter?
    private var scratch: UnsafeMutablePointer<Float>?

    private let sourceChannels: Int
    private let outputChannels: Int
    private let sourceRate: Double

    private var inputEnded = false
    private var resamplerDrained = false
    private var finished = false
    /// Frames of silence that completed the encoder's last packet.
    private(set) var trailingFrames = 0

    /// The error the provider threw during the current fill.
    private var inputError: AudioCodecError?

    init(converter: AudioConverter) throws(AudioCodecError) {
        input = converter.inputFormat
        output = converter.outputFormat
        encoder = converter.encoder
        let decoder = try converter.requireDecoder()
        self.decoder = decoder
        let source = decoder?.decodedFormat ?? input
        sourceChannels = Int(source.channelsPerFrame)
        outputChannels = Int(output.channelsPerFrame)
        sourceRate = source.sampleRate
        let sameShape = sourceChannels == outputChannels && converter.channelMap == nil && source.sampleRate == output.sampleRate
        let simple = { (f: AudioStreamBasicDescription) in f.isInterleaved || f.channelsPerFrame == 1 }
        if decoder == nil, encoder == nil, sameShape, simple(input), simple(output) {
            direct = try PCMConverter(from: input, to: output)
        } else {
            direct = nil
        }
        let float = AudioStreamBasicDescription.float32(sampleRate: source.sampleRate, channels: UInt32(sourceChannels))
        let encoderInput = converter.encoder?.inputFormat
        rawWords = decoder == nil && input.isPCM && encoderInput.map { !$0.isFloat && $0.bytesPerFrame == 4 * $0.channelsPerFrame } == true
        rawWordBytes = Int(input.bytesPerFrame) / max(sourceChannels, 1)
        if rawWords && !sameShape {
            throw AudioCodecError(.formatNotSupported, "the encoder reads \(input) as it is: no channel map or rate change")
        }
        toFloat = direct == nil && decoder == nil ? try PCMConverter(from: source, to: float) : nil
        front = FloatFIFO(channels: sourceChannels)
        back = FloatFIFO(channels: outputChannels)
        if direct == nil && (sourceChannels != outputChannels || converter.channelMap != nil) {
            let made: ChannelMixer
            if let map = converter.channelMap {
                made = try ChannelMixer(inputChannels: sourceChannels, outputChannels: outputChannels, channelMap: map.map { Int32(clamping: $0) })
            } else {
                made = try ChannelMixer(inputChannels: sourceChannels, outputChannels: outputChannels)
            }
            if made.isIdentity {
                mixer = nil
            } else {
                mixer = made
                mixed = .allocate(capacity: mixChunk * outputChannels)
            }
        } else {
            mixer = nil
        }
        if direct == nil && source.sampleRate != output.sampleRate {
            resampler = try SampleRateConverter(
                inputRate: source.sampleRate, outputRate: output.sampleRate, channels: outputChannels,
                quality: converter.sampleRateConverterQuality)
        } else {
            resampler = nil
        }
        if direct == nil && output.isPCM {
            let one = output.isInterleaved ? output : output.singleChannel
            let floatOut = AudioStreamBasicDescription.float32(sampleRate: output.sampleRate, channels: one.channelsPerFrame)
            fromFloat = try PCMConverter(from: floatOut, to: one)
        } else {
            fromFloat = nil
        }
    }

    deinit { release() }

    /// Gives back the memory.
    private func release() {
        front.deallocate()
        back.deallocate()
        mixed?.deallocate()
        scratch?.deallocate()
        gather?.deallocate()
    }

    // MARK: Filling

    func fill(
        _ out: AudioConverterOutput, input provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> AudioConverterFillResult {
        guard out.buffers.count == output.bufferCount else {
            throw AudioCodecError(.invalidOutputSize, "\(out.buffers.count) output buffers for \(output.bufferCount)")
        }
        guard out.packetCapacity >= 0 else { throw AudioCodecError(.invalidOutputSize, "\(out.packetCapacity) packets") }
        if output.bytesPerPacket == 0 && out.packetDescriptions == nil && out.packetCapacity > 0 {
            throw AudioCodecError(.requiresPacketDescriptions, "\(output.formatID.messageName) packets vary in size: descriptions are needed")
        }
        inputError = nil
        let written: (packets: Int, bytes: Int)
        if let direct {
            written = try fillDirect(direct, out, provider)
        } else if let encoder {
            written = try fillEncoded(encoder, out, provider)
        } else {
            written = try fillPCM(out, provider)
        }
        return AudioConverterFillResult(
            packetCount: written.packets, byteCount: written.bytes, inputError: inputError, endOfStream: finished)
    }

    /// Asks the provider for more input; nil when the stream ended or the provider failed
    /// (recorded in ``inputError``).
    private func request(
        _ packets: Int, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> AudioConverterInputData? {
        guard !inputEnded else { return nil }
        let data: AudioConverterInputData?
        do {
            data = try provider(max(1, packets))
        } catch {
            inputError = error
            return nil
        }
        guard let data, data.packetCount > 0 else {
            inputEnded = true
            return nil
        }
        guard data.buffers.count == input.bufferCount else {
            throw AudioCodecError(.invalidInputSize, "\(data.buffers.count) input buffers for \(input.bufferCount)")
        }
        if input.bytesPerPacket > 0 {
            let needed = data.packetCount.multipliedReportingOverflow(by: Int(input.bytesPerPacket))
            for buffer in data.buffers where needed.overflow || buffer.count < needed.partialValue {
                throw AudioCodecError(.invalidInputSize, "\(buffer.count) bytes do not hold \(data.packetCount) packets")
            }
        } else if data.packetDescriptions == nil {
            throw AudioCodecError(.requiresPacketDescriptions, "\(input.formatID.messageName) packets vary in size: descriptions are needed")
        }
        if let descriptions = data.packetDescriptions, descriptions.count < data.packetCount {
            throw AudioCodecError(.invalidInputSize, "\(descriptions.count) descriptions for \(data.packetCount) packets")
        }
        return data
    }

    private func fillDirect(
        _ converter: PCMConverter, _ out: AudioConverterOutput, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int) {
        let inFrame = Int(input.bytesPerFrame), outFrame = Int(output.bytesPerFrame)
        let capacity = min(out.packetCapacity, out.buffers[0].count / max(outFrame, 1))
        var done = 0
        while done < capacity {
            if pending == nil || pending!.offset >= pending!.data.packetCount {
                pending = nil
                guard let data = try request(capacity - done, provider) else { break }
                pending = (data, 0)
            }
            let (data, offset) = pending!
            let n = min(capacity - done, data.packetCount - offset)
            let from = UnsafeRawBufferPointer(rebasing: data.buffers[0][(offset * inFrame)..<((offset + n) * inFrame)])
            let to = UnsafeMutableRawBufferPointer(rebasing: out.buffers[0][(done * outFrame)..<((done + n) * outFrame)])
            try converter.convert(from, frameCount: n, into: to)
            pending!.offset += n
            done += n
        }
        if inputEnded && (pending == nil || pending!.offset >= pending!.data.packetCount) { finished = true }
        return (done, done * outFrame)
    }

    // MARK: The Float32 stages

    /// Brings input into ``front``: the provider's next packets, decoded (or its PCM),
    /// as Float32. False when nothing came.
    private func pullInput(
        wantingFrames frames: Int, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> Bool {
        let perPacket = max(Int(input.framesPerPacket), 1)
        guard let data = try request((frames + perPacket - 1) / perPacket, provider) else { return false }
        if let decoder {
            let buffer = data.buffers[0]
            for i in 0..<data.packetCount {
                let start: Int, size: Int, frames: Int?
                if let d = data.packetDescriptions?[i] {
                    (start, size, frames) = (Int(clamping: d.startOffset), Int(d.dataByteSize), decoder.decodedFrames(d))
                } else {
                    (start, size, frames) = (i * Int(input.bytesPerPacket), Int(input.bytesPerPacket), nil)
                }
                guard start >= 0, size >= 0, start <= buffer.count, size <= buffer.count - start else {
                    throw AudioCodecError(.invalidInputSize, "packet \(i) lies outside the \(buffer.count) bytes given")
                }
                // A packet that cannot be decoded leaves concealment: the timing is kept.
                let n = try decoder.decode(packet: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + size)]), frames: frames) { n in
                    UnsafeMutableRawBufferPointer(start: front.reserve(n), count: n * sourceChannels * 4)
                }
                front.commit(n)
            }
            return true
        }
        guard let toFloat else { return false }
        let n = data.packetCount
        let source: UnsafeRawBufferPointer
        if data.buffers.count > 1 {
            // Non-interleaved: each channel's samples back to back.
            let region = n * Int(input.bytesPerFrame)
            let total = region * data.buffers.count
            if gather == nil || gather!.count < total {
                gather?.deallocate()
                gather = .allocate(byteCount: total, alignment: 16)
            }
            for (c, buffer) in data.buffers.enumerated() {
                guard buffer.count >= region else { throw AudioCodecError(.invalidInputSize, "channel \(c) holds \(buffer.count) bytes") }
                UnsafeMutableRawBufferPointer(rebasing: gather![(c * region)..<((c + 1) * region)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<region]))
            }
            source = UnsafeRawBufferPointer(rebasing: gather![0..<total])
        } else {
            source = data.buffers[0]
        }
        let target = front.reserve(n)
        if rawWords {
            // 32-bit words for the encoder: as they are, or narrower ones sign-extended.
            if let base = source.baseAddress {
                Self.widen(base, wordBytes: rawWordBytes, count: n * sourceChannels, into: UnsafeMutableRawPointer(target))
            }
        } else {
            try toFloat.convert(source, frameCount: n, into: UnsafeMutableRawBufferPointer(start: target, count: n * sourceChannels * 4))
        }
        front.commit(n)
        return true
    }

    /// Moves frames on towards ``back`` (mapping channels and resampling) until it holds at
    /// least `frames` or nothing more can come now. True when ``back`` gained frames.
    @discardableResult
    private func refill(
        _ frames: Int, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> Bool {
        let before = back.count
        while back.count < frames {
            if front.count == 0 {
                if inputEnded || inputError != nil {
                    guard let resampler, !resamplerDrained, inputEnded else { break }
                    let room = 4096
                    let n = resampler.finish(into: back.reserve(room), capacity: room)
                    back.commit(n)
                    if n == 0 { resamplerDrained = true }
                    continue
                }
                let wanted = resampler == nil ? frames - back.count : Int((Double(frames - back.count) * sourceRate / output.sampleRate).rounded(.up)) + 1
                if try !pullInput(wantingFrames: wanted, provider) { continue }
                continue
            }
            let chunk = min(front.count, mixChunk)
            var samples = UnsafePointer(front.head)
            if let mixer, let mixed {
                mixer.process(front.head, frames: chunk, into: mixed)
                samples = UnsafePointer(mixed)
            }
            if let resampler {
                let room = resampler.maximumOutputFrames(forInputFrames: chunk) + 16
                let (consumed, produced) = resampler.process(samples, frames: chunk, into: back.reserve(room), capacity: room)
                back.commit(produced)
                front.consume(consumed)
                if consumed == 0 && produced == 0 { break }
            } else {
                back.reserve(chunk).update(from: samples, count: chunk * outputChannels)
                back.commit(chunk)
                front.consume(chunk)
            }
        }
        return back.count > before
    }

    /// True when no more frames can reach ``back``: the input ended and every stage is empty.
    private var drained: Bool {
        inputEnded && front.count == 0 && (resampler == nil || resamplerDrained)
    }

    private func fillPCM(
        _ out: AudioConverterOutput, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int) {
        guard let fromFloat else { return (0, 0) }
        let frameBytes = Int(output.bytesPerFrame)
        let capacity = out.buffers.map { $0.count / max(frameBytes, 1) }.min().map { min($0, out.packetCapacity) } ?? 0
        var done = 0
        while done < capacity {
            if back.count == 0 {
                try refill(capacity - done, provider)
                if back.count == 0 { break }
            }
            let n = min(back.count, capacity - done)
            if output.isInterleaved {
                let to = UnsafeMutableRawBufferPointer(rebasing: out.buffers[0][(done * frameBytes)..<((done + n) * frameBytes)])
                try fromFloat.convert(UnsafeRawBufferPointer(start: back.head, count: n * outputChannels * 4), frameCount: n, into: to)
            } else {
                if scratch == nil { scratch = .allocate(capacity: mixChunk) }
                var at = 0
                while at < n {
                    let m = min(mixChunk, n - at)
                    for c in 0..<outputChannels {
                        let from = back.head + at * outputChannels + c
                        for f in 0..<m { scratch![f] = from[f * outputChannels] }
                        let to = UnsafeMutableRawBufferPointer(
                            rebasing: out.buffers[c][((done + at) * frameBytes)..<((done + at + m) * frameBytes)])
                        try fromFloat.convert(UnsafeRawBufferPointer(start: scratch, count: m * 4), frameCount: m, into: to)
                    }
                    at += m
                }
            }
            back.consume(n)
            done += n
        }
        if drained && back.count == 0 { finished = true }
        return (done, done * frameBytes)
    }

    private func fillEncoded(
        _ encoder: any AudioEncoder, _ out: AudioConverterOutput, _ provider: (Int) throws(AudioCodecError) -> AudioConverterInputData?
    ) throws(AudioCodecError) -> (packets: Int, bytes: Int) {
        let fpp = max(encoder.framesPerPacket, 1)
        let largest = max(encoder.maximumPacketSize, 1)
        let buffer = out.buffers[0]
        guard out.packetCapacity == 0 || buffer.count >= largest else {
            throw AudioCodecError(.invalidOutputSize, "\(buffer.count) bytes do not hold a packet of up to \(largest) bytes")
        }
        var packets = 0, bytes = 0
        let descriptions = out.packetDescriptions
        /// Encodes `frames` frames from `back` into what is left of the output, or returns false
        /// when the packets they may make do not fit.
        func encode(_ frames: Int) throws(AudioCodecError) -> Bool {
            guard let need = encoder.outputByteCount(forFrames: frames), need <= buffer.count - bytes,
                  descriptions == nil || (need + largest - 1) / largest <= out.packetCapacity - packets else { return false }
            let slice = descriptions.map { UnsafeMutableBufferPointer(rebasing: $0[packets...]) }
            let result = try encoder.encode(
                UnsafeRawBufferPointer(start: back.head, count: frames * outputChannels * 4), frameCount: frames,
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[bytes...]), packetDescriptions: slice)
            record(result, descriptions: slice)
            back.consume(frames)
            return true
        }
        func record(_ result: AudioEncodeResult, descriptions slice: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?) {
            if let slice, output.bytesPerPacket == 0 {
                for i in 0..<result.packetCount { slice[i].startOffset += Int64(bytes) }
            }
            packets += result.packetCount
            bytes += result.byteCount
            trailingFrames += result.paddingFrames
        }
        while packets < out.packetCapacity && !finished {
            if back.count < fpp { try refill(fpp, provider) }
            if back.count >= fpp {
                var whole = min(out.packetCapacity - packets, back.count / fpp)
                while whole > 0, try !encode(whole * fpp) { whole -= 1 }
                if whole == 0 { break }
                continue
            }
            guard drained else { break }
            // The end: the last partial packet, then what the encoder holds back.
            if back.count > 0 {
                guard try encode(back.count) else { break }
                if !encoder.hasDelay { finished = true }
                continue
            }
            guard encoder.hasDelay else {
                finished = true
                break
            }
            let slice = descriptions.map { UnsafeMutableBufferPointer(rebasing: $0[packets..<min($0.count, out.packetCapacity)]) }
            // Room for the largest packet: a finish that writes none then has none left.
            let roomy = buffer.count - bytes >= largest && (descriptions == nil || packets < out.packetCapacity)
            let result = try encoder.finish(into: UnsafeMutableRawBufferPointer(rebasing: buffer[bytes...]), packetDescriptions: slice)
            record(result, descriptions: slice)
            if result.packetCount == 0 {
                if roomy { finished = true }
                break
            }
        }
        return (packets, bytes)
    }
}

extension AudioStreamBasicDescription {
    /// One channel of this linear PCM format (the shape of one buffer of a non-interleaved list).
    var singleChannel: AudioStreamBasicDescription {
        var one = self
        one.channelsPerFrame = 1
        one.formatFlags.remove(.isNonInterleaved)
        return one
    }
}
