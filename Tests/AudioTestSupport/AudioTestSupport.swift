public import Foundation
@_exported public import ProcessSupport
public import Dispatch
import AudioCore
import AudioCodecs
import AudioCodecFAAD
public import AudioDevices
public import AudioFileServices
public import AudioQueueServices
import ExtendedAudioFileServices
import DecodeTestSupport

/// A failure of the test support itself.
public struct SupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// ExtAudioFile's decode of a whole file to interleaved Float32: what afconvert writes.
public func referenceDecode(_ path: String) throws -> (samples: [Float], channels: Int) {
    AACDecoder.register()
    let reader = try ExtAudioFile(path: path)
    let decoded = reader.decodedFormat
    let samples = try readAllFloat(reader, sampleRate: decoded.sampleRate, channels: decoded.channelsPerFrame, chunk: 4096)
    return (samples, Int(decoded.channelsPerFrame))
}

/// ffmpeg's own decode of an AAC fixture (Scripts/fixtures/make_aac_refs.sh writes it beside
/// the fixture's name in Tests/Fixtures/aac-refs), in the AAC decoder's channel order (5.1 as
/// C L R Ls Rs LFE), with the priming and remainder frames the file's packet table gives
/// trimmed: ffmpeg decodes every packet in full. Throws ``MissingFixture`` when there is no
/// such decode.
public func ffmpegAACReference(_ path: String) throws -> [Float] {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let decoded = try Fixtures.float32(Fixtures.aacRefs.appendingPathComponent(name + ".f32"))
    let file = try AudioFile(path: path)
    let channels = Int(file.dataFormat.channelsPerFrame)
    var frames = decoded.count / channels
    var first = 0
    if let table = file.packetTableInfo {
        first = min(Int(max(table.primingFrames, 0)), frames)
        frames = min(frames - first, Int(max(table.numberValidFrames, 0)))
    } else {
        frames -= first
    }
    // ffmpeg's 5.1 order is L R C LFE Ls Rs; the AAC decoder's is C L R Ls Rs LFE.
    let source = channels == 6 ? [2, 0, 1, 4, 5, 3] : Array(0..<channels)
    var out = [Float](repeating: 0, count: frames * channels)
    for f in 0..<frames {
        for c in 0..<channels { out[f * channels + c] = decoded[(first + f) * channels + source[c]] }
    }
    return out
}

/// Signal-to-noise ratio in dB of `test` against `reference` on one channel, over `frames`
/// frames starting at `from` in the reference, with `test` shifted by `lag` frames
/// (test frame = reference frame + lag). Infinity when they are identical.
public func snr(
    reference: [Float], refChannels: Int, refChannel: Int,
    test: [Float], testChannels: Int, testChannel: Int,
    lag: Int = 0, from: Int = 0, frames: Int? = nil
) -> Double {
    let refFrames = reference.count / refChannels
    let testFrames = test.count / testChannels
    let end = min(from + (frames ?? refFrames), refFrames, testFrames - lag)
    var signal = 0.0
    var noise = 0.0
    var f = max(from, -lag)
    while f < end {
        let r = Double(reference[f * refChannels + refChannel])
        let t = Double(test[(f + lag) * testChannels + testChannel])
        signal += r * r
        noise += (r - t) * (r - t)
        f += 1
    }
    if noise == 0 { return .infinity }
    if signal == 0 { return -.infinity }
    return 10 * log10(signal / noise)
}

/// The package's root directory (where `.build` is).
public let packageRoot = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
/// The debug `aqplay` that `swift build --build-tests` makes.
public let aqplay = packageRoot.appendingPathComponent(".build/debug/aqplay").path
/// The debug `aqrecord` that `swift build --build-tests` makes.
public let aqrecord = packageRoot.appendingPathComponent(".build/debug/aqrecord").path

/// Plays a file through a queue the way the guide's Listing 3-6 and QA1636 do: half-second
/// buffers refilled in the callback, priming trimmed from the first frames and remainder from
/// the last (priming longer than a buffer carries into the next), looping `loops` times,
/// stopping asynchronously at the end.
public final class FilePlayer: @unchecked Sendable {
    // Touched only by the queue's callbacks, which run one at a time.
    public let file: AudioFile
    public let packetsPerBuffer: Int
    private var packet: Int64 = 0
    private var loopsLeft: Int
    private var primingLeft: Int
    public private(set) var done = false
    private let priming: Int
    private let remainder: Int
    public var queue: AudioQueue!
    public var buffers: [AudioQueueBuffer] = []

    /// Callbacks that ran somewhere other than the callback queue given to the initializer.
    public private(set) var callbacksOffQueue = 0
    /// What went wrong in a callback, if anything.
    public private(set) var failure: (any Error)?
    private let onQueue: (() -> Bool)?

    /// `packetsPerBuffer` overrides Listing 3-7's sizing (buffers shorter than the priming make
    /// it span several).
    public init(path: String, loops: Int = 1, seconds: Double = 0.5, packetsPerBuffer: Int? = nil, device: (any AudioOutputDevice)? = nil,
         callbackQueue: DispatchQueue? = nil, onQueue: (() -> Bool)? = nil) throws {
        self.onQueue = onQueue
        AACDecoder.register()
        file = try AudioFile(path: path)
        let f = file.dataFormat
        let maxPacket = max(file.packetSizeUpperBound, 1)
        // Listing 3-7.
        var size: Int
        if f.framesPerPacket != 0 {
            size = Int(f.sampleRate / Double(f.framesPerPacket) * seconds) * maxPacket
        } else {
            size = max(0x50000, maxPacket)
        }
        if size > 0x50000 && size > maxPacket { size = 0x50000 } else if size < 0x4000 { size = 0x4000 }
        self.packetsPerBuffer = packetsPerBuffer ?? max(size / maxPacket, 1)
        loopsLeft = loops
        priming = Int(file.packetTableInfo?.primingFrames ?? 0)
        remainder = Int(file.packetTableInfo?.remainderFrames ?? 0)
        primingLeft = priming
        let descriptions = file.needsDescriptions ? self.packetsPerBuffer : 0
        queue = try AudioQueue(format: f, callbackQueue: callbackQueue, device: device) { [weak self] queue, buffer in
            guard let self else { return }
            if let onQueue = self.onQueue, !onQueue() { self.callbacksOffQueue += 1 }
            self.fill(buffer)
        }
        if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
        for _ in 0..<3 {
            buffers.append(try queue.allocateBuffer(byteCapacity: self.packetsPerBuffer * maxPacket, packetDescriptionCapacity: descriptions))
        }
    }

    deinit { try? queue.dispose(immediate: true) }

    public func frames(in buffer: AudioQueueBuffer, packets: Int) -> Int {
        let f = file.dataFormat
        if buffer.packetDescriptionCount > 0, let d = buffer.packetDescriptions {
            return (0..<buffer.packetDescriptionCount).reduce(0) {
                $0 + (d[$1].variableFramesInPacket > 0 ? Int(d[$1].variableFramesInPacket) : Int(f.framesPerPacket))
            }
        }
        return packets * Int(max(f.framesPerPacket, 1))
    }

    public func fill(_ buffer: AudioQueueBuffer) {
        if done { return }
        do {
            var result = try file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data,
                                              descriptions: buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer)
            if result.packetCount == 0 {
                loopsLeft -= 1
                if loopsLeft > 0 {
                    packet = 0
                    primingLeft = priming
                    result = try file.readPackets(from: packet, count: packetsPerBuffer, into: buffer.data,
                                                  descriptions: buffer.packetDescriptions == nil ? nil : buffer.packetDescriptionBuffer)
                }
            }
            guard result.packetCount > 0 else {
                done = true
                try queue.stop(immediate: false)
                return
            }
            buffer.audioDataByteSize = result.byteCount
            buffer.packetDescriptionCount = buffer.packetDescriptions == nil ? 0 : result.packetCount
            let frames = frames(in: buffer, packets: result.packetCount)
            let trimStart = min(primingLeft, frames)
            primingLeft -= trimStart
            packet += Int64(result.packetCount)
            let trimEnd = packet == file.packetCount ? remainder : 0
            try queue.enqueue(buffer, trimFramesAtStart: trimStart, trimFramesAtEnd: trimEnd)
        } catch {
            failure = error
            done = true
        }
    }

    /// Offline: primes through the callback, starts, renders to the end.
    public func renderOffline(chunk: Int = 4096) throws -> [Float] {
        try queue.setOfflineRenderFormat(queue.renderFormat)
        for b in buffers { fill(b) }
        try queue.start()
        let format = queue.renderFormat
        let bpf = Int(format.bytesPerFrame)
        let capture = try queue.allocateBuffer(byteCapacity: chunk * bpf)
        var out: [Float] = []
        var time = 0.0
        while true {
            try queue.offlineRender(at: .sampleTime(time), into: capture, frameCount: chunk)
            let frames = capture.audioDataByteSize / bpf
            out += UnsafeBufferPointer(start: capture.audioData.assumingMemoryBound(to: Float.self), count: frames * Int(format.channelsPerFrame))
            time += Double(frames)
            if frames < chunk { break }
        }
        if let failure { throw failure }
        return out
    }
}

