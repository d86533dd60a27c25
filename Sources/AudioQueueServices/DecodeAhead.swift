import AudioCore
import AudioCodecs

/// Everything behind an output queue's render lock: the render engine, the decode ring the
/// device reads, what ``AudioQueue/prime(frames:)`` decoded beyond the ring, and the level
/// meter. Held while decoding; enqueueing never waits for it.
struct DecodeAhead {
    let engine: RenderEngine
    /// The stages between the engine and the ring (taps, time/pitch); empty by default.
    let chain = OutputChain()
    /// The time/pitch properties (the unit itself is `chain.timePitch`).
    var timePitch = TimePitchSettings()
    /// The decode buffer (`kAudioQueueProperty_DecodeBufferSizeFrames`, twice over): written
    /// here, read by the device's I/O thread without a lock.
    var ring: FloatRing
    /// Frames primed beyond the ring's capacity, interleaved, from `primedHead` on; they move
    /// into the ring ahead of anything decoded later.
    private(set) var primed: [Float] = []
    private(set) var primedHead = 0
    var meter: LevelMeter
    /// The engine's error when last collected.
    var lastEngineError: OSStatus = 0

    init(engine: RenderEngine, decodeBufferFrames: Int) {
        self.engine = engine
        ring = Self.makeRing(decodeBufferFrames: decodeBufferFrames, channels: engine.channels)
        meter = LevelMeter(channels: engine.channels)
    }

    /// The decode ring for a decode buffer of `decodeBufferFrames`: twice that, because a device
    /// asks for a buffer of about that many frames when it starts (the size is its hint), and
    /// that many should still be decoded ahead after it has taken them. The render thread
    /// refills it once it is half empty.
    static func makeRing(decodeBufferFrames: Int, channels: Int) -> FloatRing {
        FloatRing(capacity: decodeBufferFrames * 2, channels: channels)
    }

    var channels: Int { engine.channels }

    /// Frames in the primed store.
    var primedFrames: Int { (primed.count - primedHead) / engine.channels }

    var hasPrimed: Bool { primedHead < primed.count }

    /// Frames decoded and waiting to play: the ring's and the primed store's.
    var decodedFrames: Int { ring.available + primedFrames }

    /// Fills the ring from the engine up to `target` frames, primed frames first; `next` hands
    /// the engine the next buffer of the buffer queue.
    mutating func fillRing(upTo target: Int = .max, next: () -> QueueEntry?, isStopping: () -> Bool = { false }) {
        movePrimedIntoRing()
        while primed.isEmpty && ring.available < target {
            let (pointer, room) = ring.writableRegion(max: min(target - ring.available, 4096))
            guard room > 0 else { break }
            let produced = chain.render(engine: engine, into: pointer, frameCount: room, next: next, isStopping: isStopping)
            meter.measure(pointer, frames: produced)
            ring.commit(produced)
            if produced < room { break }
        }
    }

    /// Decodes into the primed store, after what the ring holds, until `target` frames are
    /// prepared (ring included) or the buffer queue runs dry; returns the frames prepared.
    mutating func prime(upTo target: Int, next: () -> QueueEntry?, isStopping: () -> Bool = { false }) -> Int {
        var prepared = decodedFrames
        let channels = engine.channels
        var chunk: [Float] = []
        while prepared < target {
            let want = min(4096, target - prepared)
            if chunk.isEmpty { chunk = [Float](repeating: 0, count: 4096 * channels) }
            let produced = chunk.withUnsafeMutableBufferPointer { chunk in
                let produced = chain.render(engine: engine, into: chunk.baseAddress!, frameCount: want, next: next, isStopping: isStopping)
                meter.measure(chunk.baseAddress!, frames: produced)
                return produced
            }
            if produced == 0 { break }
            primed.append(contentsOf: chunk[0..<(produced * channels)])
            prepared += produced
            if produced < want { break }
        }
        return prepared
    }

    /// Copies up to `frames` primed frames to `destination`; returns how many.
    mutating func takePrimed(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let n = min(frames, primedFrames)
        guard n > 0 else { return 0 }
        primed.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + primedHead, count: n * channels) }
        primedHead += n * channels
        if primedHead == primed.count { discardPrimed() }
        return n
    }

    /// Moves primed frames into the ring while it has room.
    private mutating func movePrimedIntoRing() {
        let channels = engine.channels
        while primedHead < primed.count {
            let (pointer, room) = ring.writableRegion(max: (primed.count - primedHead) / channels)
            guard room > 0 else { return }
            primed.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress! + primedHead, count: room * channels) }
            ring.commit(room)
            primedHead += room * channels
        }
        discardPrimed()
    }

    private mutating func discardPrimed() {
        primed = []
        primedHead = 0
    }

    /// Drops every decoded frame waiting to play: the ring's (`live`: while the device reads
    /// it) and the primed store's.
    mutating func discardDecoded(live: Bool = false) {
        if live { ring.discardAll() } else { ring.clear() }
        discardPrimed()
    }
}
