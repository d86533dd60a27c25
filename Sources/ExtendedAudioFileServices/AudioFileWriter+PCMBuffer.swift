public import AudioCodecs
public import AudioFileServices

// Here because this module sees both the writer and PCMBuffer.

extension AudioFileWriter {
    /// Appends the frames of `buffer` — one packet each — to a file of linear PCM whose format
    /// is the buffer's, and returns how many were written: `AudioFileWritePackets` from a
    /// `PCMBuffer`, without pointers. A non-interleaved buffer of more than one channel cannot be
    /// written as packets: convert it with an `ExtAudioFileWriter`.
    ///
    /// Throws `unsupportedDataFormat` when the formats differ or the buffer is non-interleaved
    /// with several channels, and otherwise as `AudioFileWriter.writePackets(_:descriptions:)`.
    @discardableResult
    public func writePackets(_ buffer: PCMBuffer) throws(AudioFileError) -> Int {
        guard buffer.format == dataFormat, buffer.regionCount == 1 else {
            throw AudioFileError(.unsupportedDataFormat, "a buffer of \(buffer.format) for a file of \(dataFormat)")
        }
        return try writePackets(buffer.region(0)[0..<buffer.byteLength], descriptions: nil)
    }
}
