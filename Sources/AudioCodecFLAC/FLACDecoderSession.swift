import AudioCore
import AudioCodecs
import CFLAC

/// One libFLAC stream decoder fed a packet at a time through its read callback.
///
/// At creation libFLAC reads `'fLaC'` and the STREAMINFO block (so frames whose headers refer
/// to STREAMINFO for their rate or depth decode); after that each ``decode(_:into:capacity:)``
/// hands it one packet, asks for one frame, and flushes its input. The write callback
/// interleaves and left-justifies the frame straight into the caller's buffer.
final class FLACDecoderSession {
    private var decoder: UnsafeMutablePointer<FLAC__StreamDecoder>?
    private let channels: Int
    private let bitsPerSample: Int
    private let outputBits: Int

    // Per packet, read by the callbacks.
    private var input: UnsafeRawPointer?
    private var inputRemaining = 0
    private var destination: UnsafeMutableRawPointer?
    private var capacity = 0
    private var written = 0
    private var failure: String?

    init(streamInfo: FLACStreamInfo, outputBits: Int) throws(AudioCodecError) {
        channels = streamInfo.channels
        bitsPerSample = streamInfo.bitsPerSample
        self.outputBits = outputBits
        guard let decoder = FLAC__stream_decoder_new() else {
            throw AudioCodecError(.unspecified, "libFLAC could not allocate a stream decoder")
        }
        self.decoder = decoder
        FLAC__stream_decoder_set_md5_checking(decoder, 0)
        FLAC__stream_decoder_set_metadata_ignore_all(decoder)
        let status = FLAC__stream_decoder_init_stream(
            decoder, flacRead, nil, nil, nil, nil, flacWrite, nil, flacError,
            Unmanaged.passUnretained(self).toOpaque())
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw AudioCodecError(.unspecified, "libFLAC could not initialise a stream decoder (status \(status.rawValue))")
        }
        // 'fLaC' and STREAMINFO as the last metadata block.
        let header: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, UInt8(FLACStreamInfo.size)] + streamInfo.body
        let ok = header.withUnsafeBytes { raw in
            input = raw.baseAddress
            inputRemaining = raw.count
            defer { input = nil; inputRemaining = 0 }
            return FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0
        }
        guard ok, FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC else {
            throw AudioCodecError(.formatNotSupported, "libFLAC refuses the STREAMINFO (\(failure ?? "state \(FLAC__stream_decoder_get_state(decoder).rawValue)"))")
        }
    }

    deinit {
        if let decoder { FLAC__stream_decoder_delete(decoder) }
    }

    /// Drops whatever libFLAC holds of earlier input; STREAMINFO is kept.
    func flush() {
        if let decoder { FLAC__stream_decoder_flush(decoder) }
    }

    /// Decodes the one frame in `packet` into `destination`, which has room for `capacity`
    /// frames; returns the frames written, or the error for a packet that did not decode.
    func decode(_ packet: UnsafeRawBufferPointer, into destination: UnsafeMutableRawPointer, capacity: Int) -> Result<Int, AudioCodecError> {
        guard let decoder else { return .failure(AudioCodecError(.unspecified, "no libFLAC decoder")) }
        guard let base = packet.baseAddress, packet.count > 0 else {
            return .failure(AudioCodecError(.badData, "empty FLAC packet"))
        }
        input = UnsafeRawPointer(base)
        inputRemaining = packet.count
        self.destination = destination
        self.capacity = capacity
        written = 0
        failure = nil
        let ok = FLAC__stream_decoder_process_single(decoder) != 0
        let state = FLAC__stream_decoder_get_state(decoder)
        input = nil
        inputRemaining = 0
        self.destination = nil
        FLAC__stream_decoder_flush(decoder)
        if let failure { return .failure(AudioCodecError(.badData, failure)) }
        guard ok else {
            return .failure(AudioCodecError(.badData, "libFLAC: \(Self.name(state))"))
        }
        guard written > 0 else {
            return .failure(AudioCodecError(.badData, "the packet holds no complete FLAC frame (\(packet.count) bytes)"))
        }
        return .success(written)
    }

    private static func name(_ state: FLAC__StreamDecoderState) -> String {
        switch state {
        case FLAC__STREAM_DECODER_END_OF_STREAM: "the frame ends before its end"
        case FLAC__STREAM_DECODER_OGG_ERROR: "Ogg error"
        case FLAC__STREAM_DECODER_SEEK_ERROR: "seek error"
        case FLAC__STREAM_DECODER_ABORTED: "decoding aborted"
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: "memory allocation error"
        default: "decoder state \(state.rawValue)"
        }
    }

    // MARK: Callbacks

    fileprivate func read(_ buffer: UnsafeMutablePointer<FLAC__byte>, _ bytes: UnsafeMutablePointer<Int>) -> FLAC__StreamDecoderReadStatus {
        guard let input, inputRemaining > 0 else {
            bytes.pointee = 0
            return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
        }
        let n = min(bytes.pointee, inputRemaining)
        UnsafeMutableRawPointer(buffer).copyMemory(from: input, byteCount: n)
        self.input = input + n
        inputRemaining -= n
        bytes.pointee = n
        return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
    }

    fileprivate func write(_ frame: UnsafePointer<FLAC__Frame>, _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> FLAC__StreamDecoderWriteStatus {
        let header = frame.pointee.header
        let frames = Int(header.blocksize)
        guard let destination else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
        guard written == 0 else {
            failure = "the packet holds more than one FLAC frame"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        guard Int(header.channels) == channels, Int(header.bits_per_sample) == bitsPerSample else {
            failure = "a FLAC frame of \(header.channels) channels and \(header.bits_per_sample) bits in a stream of \(channels) and \(bitsPerSample)"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        guard frames <= capacity else {
            failure = "a FLAC frame of \(frames) frames exceeds the stream's largest block size \(capacity)"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        if failure != nil {
            // A CRC mismatch: libFLAC hands over the frame anyway; it is replaced by silence.
            return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
        }
        let shift = outputBits - bitsPerSample
        if outputBits == 16 {
            FLACInterleave.samples(planes, channels: channels, frames: frames, shift: shift,
                                   into: destination.assumingMemoryBound(to: Int16.self))
        } else {
            FLACInterleave.samples(planes, channels: channels, frames: frames, shift: shift,
                                   into: destination.assumingMemoryBound(to: Int32.self))
        }
        written = frames
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    fileprivate func error(_ status: FLAC__StreamDecoderErrorStatus) {
        let text = switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "frame CRC-16 mismatch"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "unparseable stream"
        default: "error \(status.rawValue)"
        }
        if failure == nil { failure = "libFLAC: \(text)" }
    }
}

private func session(_ clientData: UnsafeMutableRawPointer?) -> FLACDecoderSession {
    Unmanaged<FLACDecoderSession>.fromOpaque(clientData!).takeUnretainedValue()
}

private let flacRead: FLAC__StreamDecoderReadCallback = { _, buffer, bytes, clientData in
    guard let buffer, let bytes else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    return session(clientData).read(buffer, bytes)
}

private let flacWrite: FLAC__StreamDecoderWriteCallback = { _, frame, planes, clientData in
    guard let frame, let planes else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    return session(clientData).write(frame, planes)
}

private let flacError: FLAC__StreamDecoderErrorCallback = { _, status, clientData in
    session(clientData).error(status)
}
