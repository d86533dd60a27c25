import AudioCore

extension AudioFileStream {
    /// Where packet `packet` starts, as a byte offset from the start of the audio data
    /// (``dataOffset``), for a player to fetch the stream from there (Apple's
    /// `AudioFileStreamSeek`). Exact for constant-size packets and where the header lists the
    /// packets (CAF `pakt`, MPEG-4); estimated from the average frame size so far for ADTS and
    /// MPEG audio (`isEstimated`). The next ``parse(bytes:flags:)`` takes its bytes as starting at
    /// that offset.
    ///
    /// Throws `AudioFileStreamError.Code.dataUnavailable` before the parser is ready to produce
    /// packets, `AudioFileStreamError.Code.invalidPacketOffset` for a packet outside the stream,
    /// `AudioFileStreamError.Code.illegalOperation` after ``close()`` or from a callback.
    public func seek(toPacket packet: Int64) throws(AudioFileStreamError) -> (byteOffset: Int64, isEstimated: Bool) {
        guard !isClosed else { throw AudioFileStreamError(.illegalOperation, "the stream is closed") }
        guard !inCallback else { throw AudioFileStreamError(.illegalOperation, "seek called from inside a callback of the same stream") }
        guard known.ready, let cutter, let dataOffset = known.dataOffset else {
            throw AudioFileStreamError(.dataUnavailable, "the parser is not ready to produce packets yet")
        }
        guard packet >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is negative") }
        let result = try cutter.byteOffset(ofPacket: packet)
        let (target, overflow) = dataOffset.addingReportingOverflow(result.offset)
        guard !overflow else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) lies beyond any stream") }
        seekTarget = (target, packet)
        return (result.offset, result.isEstimated)
    }
}
