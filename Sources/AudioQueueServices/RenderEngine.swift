import AudioCore
import AudioCodecs
import Synchronization

/// The queue's render pipeline, shared by live playback and offline render: takes buffers from
/// the buffer queue in order, decodes them (the codec registry's decoder, or the PCM converter
/// for linear PCM), trims, inserts silence before buffers scheduled later, and applies volume,
/// ramps and pan, producing interleaved Float32 at the stream's rate and channel count.
///
/// Not thread-safe: the queue calls it with its render lock held. What enqueue needs to know
/// (position, whether a buffer is playing) is published in atomics.
final class RenderEngine {
    let input: AudioStreamBasicDescription
    let channels: Int
    let sampleRate: Double
    let floatFormat: AudioStreamBasicDescription
    private(set) var magicCookie: [UInt8]?
    /// The decoder (its output converted to ``floatFormat``); nil for linear PCM.
    private(set) var decoder: PacketDecoder?
    /// Linear PCM input to ``floatFormat``.
    private let converter: PCMConverter?
    /// Decoded, converted frames of the current buffer waiting to be played.
    private let scratch: PCMBuffer
    private var scratchStart = 0
    private var scratchEnd = 0
    /// One frame per packet and a fixed size (PCM, G.711): many frames go through per call.
    let isFrameStream: Bool
    /// Frames one packet decodes to, for packets without their own frame count.
    let framesPerPacket: Int
    /// Decoded frames per frame the stream description counts (2 for SBR decoded at full rate).
    let frameScale: Int

    // The buffer being played.
    private(set) var current: QueueEntry?
    private var entryPacket = 0
    private var entryFrame = 0
    private var gap = 0
    /// Queue sample time of the next frame produced.
    var position: Int64 = 0 {
        didSet { published.position.store(position, ordering: .releasing) }
    }
    /// ``position`` and ``isBusy`` for threads that do not hold the render lock.
    let published = PublishedProgress()
    /// What enqueueing needs to plan an entry, without the render lock.
    var planner: EntryPlanner {
        EntryPlanner(
            input: input, isFrameStream: isFrameStream, framesPerPacket: framesPerPacket, frameScale: frameScale,
            maximumPacketFrames: scratch.frameCapacity / 2, progress: published)
    }

    // Parameters.
    private(set) var volume: Float = 1
    private(set) var rampTime: Float = 0
    private(set) var pan: Float = 0
    /// `kAudioQueueParam_PlayRate` and `kAudioQueueParam_Pitch`: stored here, played by the
    /// time/pitch stage (``TimePitchStage``) when one is inserted.
    private(set) var playRate: Float = 1
    private(set) var pitch: Float = 0
    /// Rate and pitch changes not yet taken by the time/pitch stage, in queue order, each at
    /// the queue sample time of the first frame it applies to; recorded only while
    /// ``tracksTimePitch``.
    var timePitchChanges: [TimePitchChange] = []
    var tracksTimePitch = false {
        didSet { timePitchChanges.removeAll(keepingCapacity: true); timePitchChanges.reserveCapacity(32) }
    }
    private var gain: Float = 1
    /// A volume ramp: from `rampFrom` to ``volume`` over `rampTotal` frames, `rampDone` so far.
    private var rampFrom: Float = 1
    private var rampTotal = 0
    private var rampDone = 0
    private var rampLeft: Int { rampTotal - rampDone }

    /// Buffers finished with, in order, waiting for their callbacks.
    var finished: [AudioQueueBuffer] = []
    /// The most recent decoding error (`kAudioQueueProperty_ConverterError`), 0 if none.
    private(set) var converterError: OSStatus = 0
    private(set) var badPackets = 0

    init(format: AudioStreamBasicDescription, magicCookie: [UInt8]?) throws(AudioQueueError) {
        guard format.sampleRate >= 1, format.sampleRate.isFinite, format.sampleRate < 1e7,
              format.channelsPerFrame > 0, format.channelsPerFrame <= 64 else {
            throw AudioQueueError(.invalidParameter, "the queue's format is not playable: \(format)")
        }
        if format.isPCM {
            // Linear PCM is played straight from the buffers: one frame per packet, frames
            // back to back.
            guard format.bytesPerFrame > 0, format.bytesPerPacket == format.bytesPerFrame, format.framesPerPacket == 1,
                  format.isInterleaved || format.channelsPerFrame == 1 else {
                throw AudioQueueError(.invalidParameter, "linear PCM for a queue is interleaved, one frame per packet: \(format)")
            }
        }
        input = format
        self.magicCookie = magicCookie
        let decoder: PacketDecoder?
        if format.isPCM {
            decoder = nil
        } else {
            guard AudioDecoders.canDecode(format.formatID) else {
                throw AudioQueueError(.codecNotFound, AudioDecoders.missingDecoderReason(format.formatID))
            }
            decoder = try Self.makeDecoder(format, magicCookie, error: .codecNotFound, "the \(format.formatID.messageName) decoder does not accept this stream")
        }
        let decodedFormat = decoder?.decodedFormat ?? format
        channels = Int(decodedFormat.channelsPerFrame)
        sampleRate = decodedFormat.sampleRate
        floatFormat = .linearPCM(sampleRate: sampleRate, channels: UInt32(channels), bitsPerChannel: 32, isFloat: true)
        if format.isPCM {
            do {
                converter = try PCMConverter(from: format, to: floatFormat)
            } catch {
                throw AudioQueueError(.codecNotFound, "cannot play \(format.formatID.messageName) data as described: \(error.reason)")
            }
        } else {
            converter = nil
        }
        isFrameStream = format.bytesPerPacket > 0 && format.framesPerPacket == 1 && format.bytesPerFrame == format.bytesPerPacket
            && (decoder?.maximumFramesPerPacket ?? 1) == 1
        framesPerPacket = max(decoder?.maximumFramesPerPacket ?? 1, 1)
        frameScale = decoder?.frameScale ?? 1
        let capacity = max(8192, framesPerPacket * 4)
        guard let scratch = PCMBuffer(format: floatFormat, frameCapacity: capacity) else {
            throw AudioQueueError(.invalidParameter, "cannot allocate the decode buffer")
        }
        self.scratch = scratch
        self.decoder = decoder
    }

    /// A decoder for `format` configured by `cookie`, its output converted to interleaved
    /// Float32; `code` and `reason` (with the codec's reason) when it cannot be made.
    private static func makeDecoder(
        _ format: AudioStreamBasicDescription, _ cookie: [UInt8]?, error code: AudioQueueError.Code, _ reason: String
    ) throws(AudioQueueError) -> PacketDecoder {
        do {
            return try PacketDecoder(format: format, magicCookie: cookie, convertingToFloat32: true)
        } catch {
            throw AudioQueueError(code, "\(reason): \(error.reason)")
        }
    }

    /// Replaces the decoder with one configured by `cookie`.
    func setMagicCookie(_ cookie: [UInt8]?) throws(AudioQueueError) {
        guard !input.isPCM else {
            magicCookie = cookie
            return
        }
        // The cookie may say what the description did not (an ALAC stream description whose
        // flags give no source depth decodes to 16-bit until its cookie says 24): the new
        // decoder converts its own format to Float32.
        let replacement = try Self.makeDecoder(
            input, cookie, error: .invalidPropertyValue, "the magic cookie does not configure the \(input.formatID.messageName) decoder")
        guard replacement.decodedFormat.sampleRate == sampleRate, Int(replacement.decodedFormat.channelsPerFrame) == channels,
              replacement.maximumFramesPerPacket == framesPerPacket else {
            throw AudioQueueError(.invalidPropertyValue, "the magic cookie describes a different stream (\(replacement.decodedFormat)) from the queue's format")
        }
        decoder = replacement
        magicCookie = cookie
    }

    var outputChannelLayout: AudioChannelLayout? { decoder?.outputChannelLayout }

    // MARK: Buffer queue

    /// True while a buffer is being played (decoded frames or scheduled silence remain).
    var isBusy: Bool { current != nil || scratchStart < scratchEnd || gap > 0 }

    /// Drops the buffer being played and all decoder and DSP state; the buffer goes to
    /// ``finished``. (The queue empties the buffer queue itself.)
    func reset() {
        if let current { finished.append(current.buffer) }
        current = nil
        scratchStart = 0
        scratchEnd = 0
        gap = 0
        entryPacket = 0
        entryFrame = 0
        decoder?.reset()
        gain = volume
        rampTotal = 0
        rampDone = 0
        published.busy.store(false, ordering: .releasing)
    }

    /// Back to time zero (after the queue stops).
    func rewind() {
        reset()
        position = 0
    }

    // MARK: Parameters

    static func check(_ id: AudioQueueParameterID, _ value: Float) throws(AudioQueueError) {
        let ok: Bool
        switch id {
        case .volume: ok = value >= 0 && value <= 1
        case .volumeRampTime: ok = value >= 0 && value <= 3600
        case .pan: ok = value >= -1 && value <= 1
        case .playRate: ok = value >= 0.5 && value <= 2
        case .pitch: ok = value >= -2400 && value <= 2400
        default: throw AudioQueueError(.invalidParameter, "no parameter \(id)")
        }
        guard ok else { throw AudioQueueError(.invalidParameter, "\(id) cannot be \(value)") }
    }

    func parameter(_ id: AudioQueueParameterID) throws(AudioQueueError) -> Float {
        switch id {
        case .volume: volume
        case .volumeRampTime: rampTime
        case .pan: pan
        case .playRate: playRate
        case .pitch: pitch
        default: throw AudioQueueError(.invalidParameter, "no parameter \(id)")
        }
    }

    /// Sets a parameter now (checked by the caller). A volume change ramps over the ramp time;
    /// a rate or pitch change applies from queue sample time `at` (default: the next frame).
    func set(_ id: AudioQueueParameterID, _ value: Float, at: Int64? = nil) {
        switch id {
        case .playRate, .pitch:
            if id == .playRate { playRate = value } else { pitch = value }
            guard tracksTimePitch else { break }
            let change = TimePitchChange(at: at ?? position, parameter: id, value: value)
            // A later change of the same parameter at the same frame replaces the earlier one
            // (a stopped queue's position does not move: the list stays short).
            if let i = timePitchChanges.lastIndex(where: { $0.parameter == id }), timePitchChanges[i].at == change.at {
                timePitchChanges[i] = change
            } else {
                timePitchChanges.append(change)
            }
        case .volume:
            volume = value
            let frames = Int((Double(rampTime) * sampleRate).rounded())
            if frames > 0 && value != gain {
                rampFrom = gain
                rampTotal = frames
                rampDone = 0
            } else {
                rampTotal = 0
                rampDone = 0
                gain = value
            }
        case .volumeRampTime: rampTime = value
        case .pan: pan = value
        default: break  // check(_:_:) refused it
        }
    }

    // MARK: Rendering

    /// Produces up to `frameCount` frames into `destination` (interleaved Float32); fewer when
    /// the buffer queue runs dry. Advances ``position`` by what it produced.
    /// `next` hands over the next buffer of the buffer queue (taking the queue's state lock).
    func produce(into destination: UnsafeMutablePointer<Float>, frameCount: Int, next: () -> QueueEntry?) -> Int {
        var done = 0
        while done < frameCount {
            if scratchStart < scratchEnd {
                let n = min(scratchEnd - scratchStart, frameCount - done)
                let source = scratch.region(0).baseAddress!.assumingMemoryBound(to: Float.self) + scratchStart * channels
                copyApplyingGain(from: source, to: destination + done * channels, frames: n)
                scratchStart += n
                done += n
                continue
            }
            if gap > 0 {
                let n = min(gap, frameCount - done)
                (destination + done * channels).update(repeating: 0, count: n * channels)
                advanceRamp(frames: n)
                gap -= n
                done += n
                continue
            }
            if let entry = current {
                if let n = directFrames(entry, limit: frameCount - done), let converter {
                    // Linear PCM at unity gain, past the start trim: convert straight into the
                    // destination, skipping the scratch buffer.
                    let bpf = Int(input.bytesPerFrame)
                    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(entry.buffer.audioData) + entryPacket * bpf, count: n * bpf)
                    let out = UnsafeMutableRawBufferPointer(start: destination + done * channels, count: n * channels * 4)
                    do throws(AudioCodecError) {
                        try converter.convert(bytes, frameCount: n, into: out)
                    } catch {
                        record(error)
                        out.initializeMemory(as: UInt8.self, repeating: 0)
                    }
                    entryPacket += n
                    entryFrame += n
                    done += n
                } else if entryPacket < entry.packetCount {
                    let before = entryPacket
                    decodeChunk(entry)
                    // Nothing decodable: the buffer ends here rather than looping.
                    if entryPacket == before { entryPacket = entry.packetCount }
                } else {
                    finished.append(entry.buffer)
                    current = nil
                }
                continue
            }
            guard let entry = next() else { break }
            activate(entry, at: position + Int64(done))
        }
        position += Int64(done)
        published.busy.store(isBusy, ordering: .releasing)
        return done
    }

    /// Frames of `entry` that can go straight from its bytes to the output: linear PCM, no gain,
    /// pan or ramp to apply, and inside the trimmed window; nil when the scratch path is needed.
    @inline(__always)
    private func directFrames(_ entry: QueueEntry, limit: Int) -> Int? {
        guard decoder == nil, isFrameStream, gain == 1, rampLeft == 0, pan == 0 || channels != 2,
              entryFrame >= entry.trimStart else { return nil }
        let n = min(limit, entry.nominalFrames - entry.trimEnd - entryFrame, entry.packetCount - entryPacket)
        return n > 0 ? n : nil
    }

    private func activate(_ entry: QueueEntry, at now: Int64) {
        current = entry
        entryPacket = 0
        entryFrame = 0
        scratchStart = 0
        scratchEnd = 0
        gap = Int(max(0, entry.startTime - now))
        for event in entry.events { set(event.parameter, event.value, at: now + Int64(gap)) }
    }

    /// Decodes the next packets of `entry` into the scratch buffer and sets the window of them
    /// that survives trimming.
    private func decodeChunk(_ entry: QueueEntry) {
        scratch.frameLength = 0
        let base = UnsafeRawPointer(entry.buffer.audioData)
        if isFrameStream {
            let n = min(scratch.frameCapacity, entry.packetCount - entryPacket)
            let bpf = Int(input.bytesPerFrame)
            let bytes = UnsafeRawBufferPointer(start: base + entryPacket * bpf, count: n * bpf)
            if let decoder {
                decodeAppending(bytes, frames: n, decoder: decoder)
            } else if let converter {
                do throws(AudioCodecError) {
                    try converter.convert(bytes, frameCount: n, appendingTo: scratch)
                } catch {
                    record(error)
                }
            }
            if scratch.frameLength != n {
                // Whatever failed plays as silence, so the timing holds.
                scratch.zero()
                scratch.frameLength = n
            }
            entryPacket += n
        } else if let decoder {
            while entryPacket < entry.packetCount && scratch.framesFree >= scratch.frameCapacity / 2 {
                let offset: Int, size: Int, frames: Int?
                if let d = entry.descriptions?[entryPacket] {
                    offset = Int(d.startOffset)
                    size = Int(d.dataByteSize)
                    frames = decoder.decodedFrames(d)
                } else {
                    size = Int(input.bytesPerPacket)
                    offset = entryPacket * size
                    frames = nil
                }
                entryPacket += 1
                decodeAppending(UnsafeRawBufferPointer(start: base + offset, count: size), frames: frames, decoder: decoder)
            }
        }
        let k = scratch.frameLength
        let keepFrom = entry.trimStart, keepTo = entry.nominalFrames - entry.trimEnd
        let lo = min(max(keepFrom - entryFrame, 0), k)
        let hi = max(min(keepTo - entryFrame, k), lo)
        scratchStart = lo
        scratchEnd = hi
        entryFrame += k
    }

    /// Decodes one packet (or a run of frames of a frame-stream format) and appends it to the
    /// scratch buffer as Float32. A packet that cannot be decoded leaves the decoder's
    /// concealment, and the error is recorded.
    @inline(__always)
    private func decodeAppending(_ packet: UnsafeRawBufferPointer, frames: Int?, decoder: PacketDecoder) {
        let concealed = decoder.badPackets
        do throws(AudioCodecError) {
            try decoder.decode(packet: packet, frames: frames, into: scratch)
        } catch {
            if decoder.badPackets != concealed, let bad = decoder.lastConcealment { record(bad) }
            record(error)
            return
        }
        if decoder.badPackets != concealed, let bad = decoder.lastConcealment { record(bad) }
    }

    private func record(_ error: AudioCodecError) {
        converterError = error.status
        if error.code == .badData { badPackets += 1 }
    }

    private func advanceRamp(frames: Int) {
        guard rampLeft > 0 else { return }
        rampDone += min(frames, rampLeft)
        updateRampGain()
    }

    /// The gain `rampDone` frames into the ramp, computed afresh (no accumulated error); the
    /// target exactly at the end.
    @inline(__always)
    private func updateRampGain() {
        if rampDone >= rampTotal {
            gain = volume
            rampTotal = 0
            rampDone = 0
        } else {
            gain = rampFrom + (volume - rampFrom) * Float(Double(rampDone) / Double(rampTotal))
        }
    }

    private func copyApplyingGain(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, frames: Int) {
        let ch = channels
        var left: Float = 1, right: Float = 1
        if ch == 2 && pan != 0 {
            left = pan > 0 ? 1 - pan : 1
            right = pan < 0 ? 1 + pan : 1
        }
        var i = 0
        while i < frames && rampLeft > 0 {
            rampDone += 1
            updateRampGain()
            let g = gain
            if ch == 2 {
                destination[2 * i] = source[2 * i] * g * left
                destination[2 * i + 1] = source[2 * i + 1] * g * right
            } else {
                for c in 0..<ch { destination[i * ch + c] = source[i * ch + c] * g }
            }
            i += 1
        }
        guard i < frames else { return }
        let g = gain
        let count = (frames - i) * ch
        let s = source + i * ch, d = destination + i * ch
        if ch == 2 && (left != 1 || right != 1) {
            let gl = g * left, gr = g * right
            var j = 0
            while j < count {
                d[j] = s[j] * gl
                d[j + 1] = s[j + 1] * gr
                j += 2
            }
        } else if g == 1 {
            d.update(from: s, count: count)
        } else {
            for j in 0..<count { d[j] = s[j] * g }
        }
    }
}

/// A rate or pitch change for the time/pitch stage: `parameter` becomes `value` from queue
/// sample time `at` on.
struct TimePitchChange {
    var at: Int64
    var parameter: AudioQueueParameterID
    var value: Float
}
