/// A processor whose output waits in a ``FrameQueue``: reading it, and how much input it takes
/// to fill it, are the same for every algorithm.
protocol FrameQueueOutput: TimePitchProcessor {
    /// Where the processor's output waits to be read.
    var queue: FrameQueue { get }
    /// Input frames the processor holds back beyond what the rate asks (its hop, a filter's
    /// reach).
    var inputSlack: Int { get }
}

extension FrameQueueOutput {
    var availableFrames: Int { queue.available }

    func read(into output: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        queue.read(into: output, frames: frames)
    }

    func inputFramesNeeded(forOutput outputFrames: Int) -> Int {
        let missing = max(0, outputFrames - queue.available)
        return max(1, Int((Double(missing) * rate).rounded(.up)) + inputSlack)
    }
}
