public import AudioCore

/// A file's priming and remainder frames as the trims an output queue takes
/// (``AudioQueue/enqueue(_:packetDescriptions:trimFramesAtStart:trimFramesAtEnd:parameterEvents:startTime:)``),
/// in `Int` as the queue's API counts frames; the struct's own fields keep Apple's `Int32`.
extension AudioFilePacketTableInfo {
    /// `primingFrames` as a frame count: what to trim from the start of a pass (negative
    /// values, which no valid file has, count as 0).
    public var primingFrameCount: Int { Int(max(primingFrames, 0)) }
    /// `remainderFrames` as a frame count: what to trim from the end of a pass.
    public var remainderFrameCount: Int { Int(max(remainderFrames, 0)) }
}
