public import AudioCodecs
import AudioCore
import AudioFileServices
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension ExtAudioFile {
    /// The processors online: the default for ``readAll(maximumThreads:packetsPerPiece:_:)``'s
    /// `maximumThreads`.
    public static var processorCount: Int {
        #if canImport(Glibc)
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        return 1
        #endif
    }

    /// Reads from the read position to the end of the file in ``clientDataFormat``, handing the
    /// frames to `body` in order, decoding on up to `maximumThreads` threads.
    ///
    /// Apple has no such call; it is what repeated ``read(into:frameCount:)`` calls until one
    /// returns 0 would deliver, frame for frame and byte for byte, and leaves the file positioned
    /// at its end in the same way. A compressed file is split at packet boundaries into pieces of
    /// `packetsPerPiece` packets (by default about 256 Ki frames, at least 32 times the
    /// pre-roll). Each piece is decoded by a decoder of its own, made from the registry, starting
    /// the codec's pre-roll packets before the piece (AAC 2; MPEG Layer III 10 for the bit
    /// reservoir, rounded down to a multiple of 8 packets for libmpg123's filter bank; none for
    /// ALAC and G.711) and dropping their frames, and is converted to the client format on the
    /// thread that decoded it. The pieces are joined in order on the calling thread, where the
    /// packet table's priming and remainder frames are trimmed once, from the joined whole. At
    /// most two pieces per thread are held at a time, so memory stays bounded whatever the
    /// file's length.
    ///
    /// Where the pre-roll cannot rebuild a decoder's state, every read restarts the decoder at
    /// the same places: faad2 draws the noise of AAC's perceptual noise substitution from a
    /// generator that runs through the whole stream, so an AAC decoder is reset (and pre-rolled)
    /// every 512 packets in any read, and the default pieces are those 512 packets. IMA4's
    /// decoder carries its predictors across packets, and HE-AAC's SBR decoding its envelopes
    /// and header, so IMA4 and HE-AAC (SBR signalled or implicit) are decoded on the calling
    /// thread.
    ///
    /// `maximumThreads` is capped at 64. `body` is called on the calling thread with a buffer in
    /// the client format that is reused once `body` returns; returning false stops the read,
    /// leaving the read position just after the frames handed out. Linear PCM, IMA4, HE-AAC, a
    /// `maximumThreads` of 1 and files of a single piece are read on the calling thread alone.
    /// An error is the one the single-threaded read would throw: the pieces' errors are raised
    /// in file order, and frames before the failing piece have been handed out. Packets
    /// concealed by their decoders are counted in ``badPackets``.
    ///
    /// - Returns: the number of frames handed to `body`.
    @discardableResult
    public func readAll(
        maximumThreads: Int = ExtAudioFile.processorCount, packetsPerPiece: Int? = nil, _ body: (PCMBuffer) -> Bool
    ) throws(ExtAudioFileError) -> Int64 {
        let client = clientDataFormat
        let frameBytes = max(Int(client.bytesPerFrame), 1)
        let chunk = max(decoded.frameCapacity, (1 << 20) / frameBytes)
        guard let buffer = PCMBuffer(format: client, frameCapacity: chunk) else {
            throw .codec(AudioCodecError(.formatNotSupported, "client format \(client) is not linear PCM"))
        }
        var delivered: Int64 = 0
        func readHere() throws(ExtAudioFileError) -> Int64 {
            while true {
                buffer.frameLength = 0
                let n = try read(into: buffer, frameCount: chunk)
                if n == 0 { break }
                delivered += Int64(n)
                if !body(buffer) { break }
            }
            return delivered
        }
        // Another rate or channel count: one converter, on this thread.
        if clientStage != nil { return try readHere() }
        // What is left of the batch decoded before this call (after a seek or a read), on this
        // thread; afterwards the read position is where packet `nextPacket` starts.
        while decodedStart < decoded.frameLength {
            buffer.frameLength = 0
            let n = try read(into: buffer, frameCount: min(chunk, decoded.frameLength - decodedStart))
            if n == 0 { return delivered }
            delivered += Int64(n)
            if !body(buffer) { return delivered }
        }
        let remaining = file.packetCount - nextPacket
        let framesPerPacket = max(Int(fileDataFormat.framesPerPacket), decoder.maximumFramesPerPacket, 1)
        // By default about 256 Ki frames and at least 32 times the pre-roll, or, where the
        // decoder is reset at an interval, that interval (a piece starting elsewhere decodes
        // from the reset point before it).
        let byDefault = planner.interval ?? Int64(max((256 << 10) / framesPerPacket, 32 * Int(planner.preroll)))
        let piece = min(max(1, packetsPerPiece.map(Int64.init) ?? byDefault), max(1, remaining))
        let pieces = remaining / piece + (remaining % piece > 0 ? 1 : 0)
        // At most 64 threads (and two pieces in memory per thread), whatever is asked.
        let threads = Int(min(Int64(min(max(1, maximumThreads), 64)), pieces))
        // Linear PCM needs no decoding; IMA4's decoder carries each channel's full-precision
        // predictor from packet to packet as long as the headers agree with it, and HE-AAC's SBR
        // state is never restarted, so there a piece's first packet can only be decoded right
        // after all before it.
        if isPCM || !traits.restartsExactly || threads < 2 { return try readHere() }
        let job = PieceDecoding(
            file: file, converter: converter, decodedFormat: decodedFormat, batchFrames: decoded.frameCapacity,
            planner: planner, firstPacket: nextPacket,
            packetsPerPiece: piece, pieceCount: Int(pieces), slotCount: 2 * threads)
        defer { job.finish() }
        guard job.start(threads: threads) > 0 else { return try readHere() }
        let end = primingFrames + fileLengthFrames
        for index in 0..<Int(pieces) {
            let slot = job.wait(for: index)
            if let error = slot.error {
                badPackets += slot.badPackets
                job.cancel()
                _ = try? stop(at: position, delivered: delivered, piecePacket: job.pieceStart(index))
                throw error
            }
            for output in slot.outputs[0..<slot.used] {
                // The piece's frames cover position ..< position + n of the decoded timeline;
                // what lies before the priming's end or after the last valid frame is dropped.
                let n = Int64(output.frameLength)
                let low = Int(min(max(primingFrames - position, 0), n))
                let high = Int(max(min(end - position, n), 0))
                position += n
                guard high > low else { continue }
                if low > 0 {
                    for region in 0..<output.regionCount {
                        let bytes = output.region(region)
                        let stride = Int(client.bytesPerFrame)
                        (bytes.baseAddress!).copyMemory(from: bytes.baseAddress! + low * stride, byteCount: (high - low) * stride)
                    }
                }
                output.frameLength = high - low
                delivered += Int64(high - low)
                if !body(output) {
                    job.cancel()
                    badPackets += slot.badPackets
                    return try stop(at: position - n + Int64(high), delivered: delivered)
                }
            }
            badPackets += slot.badPackets
            if let last = slot.endedAt {
                // The file gave no more packets: the end, as for a single-threaded read.
                nextPacket = last
                job.cancel()
                return delivered
            }
            nextPacket = job.pieceEnd(index)
            job.release(index)
        }
        decoded.frameLength = 0
        decodedStart = 0
        return delivered
    }

    /// Leaves the read position at `frame` of the decoded timeline after an early stop: at the
    /// start of the failed piece's first packet, or (for a stop by the caller) where the frames
    /// handed out end, by a sample-exact seek.
    private func stop(at frame: Int64, delivered: Int64, piecePacket: Int64? = nil) throws(ExtAudioFileError) -> Int64 {
        decoded.frameLength = 0
        decodedStart = 0
        decoder.reset()
        if let piecePacket {
            nextPacket = piecePacket
            position = frame
        } else {
            try seek(toFrame: max(0, min(frame - primingFrames, fileLengthFrames)))
        }
        return delivered
    }
}
