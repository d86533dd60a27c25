/// The stages an output queue's audio passes between the render engine (decoded, trimmed,
/// volume applied, in queue time) and the decode ring the device reads:
///
/// ```
/// engine ─▶ pre-effects tap ─▶ time/pitch unit ─▶ post-effects tap ─▶ ring
/// ```
///
/// Each stage is optional; with none, the engine writes straight into the ring. A stage pulls
/// what it needs from the one before it (its `pull`) and returns fewer frames than asked
/// only when the buffer queue ran dry; its `ended` tells it the stream has ended
/// for good (an asynchronous stop with nothing left), so that it gives up what it holds.
///
/// Not thread-safe: used with the queue's render lock held.
final class OutputChain {
    var preTap: (any ChainStage)?
    var timePitch: (any ChainStage)?
    var postTap: (any ChainStage)?
    /// Set during a render once the engine has come back short with the stream ended.
    private var sourceEnded = false

    /// True when no stage is inserted.
    var isEmpty: Bool { preTap == nil && timePitch == nil && postTap == nil }

    /// True while a stage holds frames it has not yet given out (the stream has not ended yet).
    var holdsFrames: Bool {
        (preTap?.holdsFrames ?? false) || (timePitch?.holdsFrames ?? false) || (postTap?.holdsFrames ?? false)
    }

    /// Drops what every stage holds (reset, stop, flush): the next frames start a new stream.
    func reset() {
        preTap?.reset()
        timePitch?.reset()
        postTap?.reset()
    }

    /// Renders up to `frameCount` frames into `destination` (interleaved Float32) through the
    /// stages. `isStopping` says (taking the state lock) whether the queue is stopping with an
    /// empty buffer queue: asked only after the engine came back short.
    func render(
        engine: RenderEngine, into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        next: () -> QueueEntry?, isStopping: () -> Bool
    ) -> Int {
        if isEmpty { return engine.produce(into: destination, frameCount: frameCount, next: next) }
        // A stored flag, not a local one: a local captured by the closures below would be boxed
        // on the heap for every render.
        sourceEnded = false
        let pre = preTap, unit = timePitch
        func source(_ d: UnsafeMutablePointer<Float>, _ k: Int) -> Int {
            let n = engine.produce(into: d, frameCount: k, next: next)
            if n < k && !engine.isBusy && isStopping() { sourceEnded = true }
            return n
        }
        func afterPre(_ d: UnsafeMutablePointer<Float>, _ k: Int) -> Int {
            guard let pre else { return source(d, k) }
            return pre.render(into: d, frameCount: k, pull: source, ended: { sourceEnded })
        }
        func afterTimePitch(_ d: UnsafeMutablePointer<Float>, _ k: Int) -> Int {
            guard let unit else { return afterPre(d, k) }
            return unit.render(into: d, frameCount: k, pull: afterPre, ended: { sourceEnded && !(pre?.holdsFrames ?? false) })
        }
        guard let post = postTap else { return afterTimePitch(destination, frameCount) }
        return post.render(
            into: destination, frameCount: frameCount, pull: afterTimePitch,
            ended: { sourceEnded && !(pre?.holdsFrames ?? false) && !(unit?.holdsFrames ?? false) })
    }
}

/// One stage of an ``OutputChain``: interleaved Float32 in and out, the engine's channel
/// count and sample rate.
protocol ChainStage: AnyObject {
    /// Produces up to `frameCount` frames into `destination`, pulling its input from the stage
    /// before it with `pull` (which renders up to the count asked into the pointer, fewer when
    /// the buffer queue ran dry). Returns fewer than asked only when the upstream ran short.
    /// `ended`, asked after a short pull, is true once the stream has ended for good (an
    /// asynchronous stop or flush with nothing left): the stage then gives out what it holds.
    func render(
        into destination: UnsafeMutablePointer<Float>, frameCount: Int,
        pull: (UnsafeMutablePointer<Float>, Int) -> Int, ended: () -> Bool
    ) -> Int
    /// True while the stage holds input it has not yet turned into output.
    var holdsFrames: Bool { get }
    /// Drops all state: a discontinuity.
    func reset()
}
