import AudioCore
import AudioCodecs
import CFLAC

/// One libFLAC stream encoder writing through callbacks: each FLAC frame it writes is kept as
/// a packet until taken, and the STREAMINFO it reports at the end (frame sizes, total samples,
/// MD5) is kept as ``streamInfo``.
final class FLACEncoderStream {
    /// The packets written and not yet taken: their bytes back to back, and each one's size.
    private(set) var bytes: [UInt8] = []
    private(set) var sizes: [Int] = []
    /// Frames of each packet.
    private(set) var frames: [Int] = []
    /// Packets already taken from the front of ``sizes``.
    private var taken = 0
    private var takenBytes = 0
    /// The STREAMINFO libFLAC gave at the end of the stream.
    private(set) var streamInfo: FLACStreamInfo?

    private var encoder: UnsafeMutablePointer<FLAC__StreamEncoder>?

    /// Opens libFLAC for `channels` channels of `bitsPerSample` bits at `sampleRate` Hz in blocks
    /// of `blockSize`, at compression `level`. Streams outside FLAC's subset (32-bit samples,
    /// large blocks, rates a frame header cannot name) are written as libFLAC allows them.
    init(channels: Int, bitsPerSample: Int, sampleRate: Int, blockSize: Int, level: Int) throws(AudioCodecError) {
        for subset in [true, false] {
            guard let made = FLAC__stream_encoder_new() else {
                throw AudioCodecError(.unspecified, "libFLAC could not allocate an encoder")
            }
            var ok = FLAC__stream_encoder_set_channels(made, UInt32(channels)) != 0
            ok = ok && FLAC__stream_encoder_set_bits_per_sample(made, UInt32(bitsPerSample)) != 0
            ok = ok && FLAC__stream_encoder_set_sample_rate(made, UInt32(sampleRate)) != 0
            ok = ok && FLAC__stream_encoder_set_compression_level(made, UInt32(level)) != 0
            ok = ok && FLAC__stream_encoder_set_blocksize(made, UInt32(blockSize)) != 0
            ok = ok && FLAC__stream_encoder_set_streamable_subset(made, subset ? 1 : 0) != 0
            guard ok else {
                FLAC__stream_encoder_delete(made)
                throw AudioCodecError(.unspecified, "libFLAC refused the encoder's settings")
            }
            let status = FLAC__stream_encoder_init_stream(
                made, flacWrite, nil, nil, flacMetadata, Unmanaged.passUnretained(self).toOpaque())
            if status == FLAC__STREAM_ENCODER_INIT_STATUS_OK {
                encoder = made
                return
            }
            FLAC__stream_encoder_delete(made)
            if status != FLAC__STREAM_ENCODER_INIT_STATUS_NOT_STREAMABLE || !subset {
                throw AudioCodecError(
                    .formatNotSupported,
                    "libFLAC cannot encode \(channels) channels of \(bitsPerSample) bits at \(sampleRate) Hz (init status \(status.rawValue))")
            }
        }
    }

    deinit {
        if let encoder {
            // Dropped without its end: libFLAC writes nothing more while deleting.
            FLAC__stream_encoder_delete(encoder)
        }
    }

    /// Encodes `frameCount` interleaved frames of right-justified samples.
    func process(_ samples: UnsafePointer<Int32>, frameCount: Int) throws(AudioCodecError) {
        guard let encoder else { throw AudioCodecError(.unspecified, "the FLAC stream has ended") }
        guard FLAC__stream_encoder_process_interleaved(encoder, samples, UInt32(frameCount)) != 0 else {
            let state = FLAC__stream_encoder_get_state(encoder)
            throw AudioCodecError(.unspecified, "libFLAC failed to encode (state \(state.rawValue))")
        }
    }

    /// Ends the stream: libFLAC writes the last, shorter frame and reports its STREAMINFO.
    func finish() throws(AudioCodecError) {
        guard let encoder else { return }
        let ok = FLAC__stream_encoder_finish(encoder) != 0
        FLAC__stream_encoder_delete(encoder)
        self.encoder = nil
        guard ok else { throw AudioCodecError(.unspecified, "libFLAC failed to end the stream") }
    }

    /// Packets written and not yet taken.
    var available: Int { sizes.count - taken }

    /// The next packet's bytes and frames (``available`` must be positive).
    var next: (bytes: ArraySlice<UInt8>, frames: Int) {
        let size = sizes[taken]
        return (bytes[takenBytes..<(takenBytes + size)], frames[taken])
    }

    /// Takes the next packet; when none are left, the storage is kept for the next ones.
    func takeNext() {
        takenBytes += sizes[taken]
        taken += 1
        if taken == sizes.count {
            bytes.removeAll(keepingCapacity: true)
            sizes.removeAll(keepingCapacity: true)
            frames.removeAll(keepingCapacity: true)
            taken = 0
            takenBytes = 0
        }
    }

    fileprivate func received(_ buffer: UnsafePointer<UInt8>, count: Int, samples: Int) {
        // Writes without samples are the stream's `fLaC` and metadata: the containers write their own.
        guard samples > 0 else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
        sizes.append(count)
        frames.append(samples)
    }

    fileprivate func received(_ metadata: UnsafePointer<FLAC__StreamMetadata>) {
        guard metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
        let info = metadata.pointee.data.stream_info
        let md5 = withUnsafeBytes(of: info.md5sum) { Array($0) }
        streamInfo = FLACStreamInfo(
            minimumBlockSize: Int(info.min_blocksize), maximumBlockSize: Int(info.max_blocksize),
            minimumFrameSize: Int(info.min_framesize), maximumFrameSize: Int(info.max_framesize), sampleRate: Int(info.sample_rate),
            channels: Int(info.channels), bitsPerSample: Int(info.bits_per_sample), totalSamples: Int64(info.total_samples), md5: md5)
    }
}

private func flacWrite(
    _ encoder: UnsafePointer<FLAC__StreamEncoder>?, _ buffer: UnsafePointer<FLAC__byte>?, _ bytes: Int, _ samples: UInt32,
    _ frame: UInt32, _ client: UnsafeMutableRawPointer?
) -> FLAC__StreamEncoderWriteStatus {
    guard let client, let buffer else { return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR }
    Unmanaged<FLACEncoderStream>.fromOpaque(client).takeUnretainedValue().received(buffer, count: bytes, samples: Int(samples))
    return FLAC__STREAM_ENCODER_WRITE_STATUS_OK
}

private func flacMetadata(
    _ encoder: UnsafePointer<FLAC__StreamEncoder>?, _ metadata: UnsafePointer<FLAC__StreamMetadata>?, _ client: UnsafeMutableRawPointer?
) {
    guard let client, let metadata else { return }
    Unmanaged<FLACEncoderStream>.fromOpaque(client).takeUnretainedValue().received(metadata)
}
