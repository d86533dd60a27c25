import AudioCore
import AudioCodecs
import CVorbis
import Locking

/// libvorbis's reading of a stream's three headers (`vorbis_info`), shared by the decoders of
/// one stream: the decoders of the pieces of a file read on several threads each start from the
/// same headers, and reading the setup header and building its codebooks' decode tables is
/// most of what making a decoder costs.
///
/// Immutable once made: libvorbis builds the decode tables into the `vorbis_info` at the first
/// `vorbis_synthesis_init`, which ``init(headers:)`` does before the setup is shared, and only
/// reads them afterwards. The most recently made setup is kept for the next decoder of the same
/// headers (``shared(for:)``).
final class VorbisSetup: @unchecked Sendable {
    let info: UnsafeMutablePointer<vorbis_info>
    private let comment: UnsafeMutablePointer<vorbis_comment>
    let headers: VorbisHeaders

    /// The last setup made, for the next decoder of the same headers.
    private static let recent = Guarded<VorbisSetup?>(nil)

    /// The setup of `headers`: the one kept when it is of the same headers, else a new one
    /// (which is then kept). Throws `badData` when libvorbis refuses a header.
    static func shared(for headers: VorbisHeaders) throws(AudioCodecError) -> VorbisSetup {
        if let kept = recent.withLock({ $0 }), kept.headers == headers { return kept }
        let made = try VorbisSetup(headers: headers)
        recent.withLock { $0 = made }
        return made
    }

    private init(headers: VorbisHeaders) throws(AudioCodecError) {
        info = .allocate(capacity: 1)
        comment = .allocate(capacity: 1)
        vorbis_info_init(info)
        vorbis_comment_init(comment)
        self.headers = headers
        var failure: String?
        for (i, packet) in [headers.identification, headers.comment, headers.setup].enumerated() where failure == nil {
            let rc = VorbisDecoder.withPacket(packet, number: Int64(i), first: i == 0) { vorbis_synthesis_headerin(info, comment, $0) }
            if rc != 0 { failure = "libvorbis refuses header \(i + 1): \(VorbisDecoder.message(rc))" }
        }
        if failure == nil {
            // The first start builds the codebooks' decode tables into `info`.
            var dsp = vorbis_dsp_state()
            if vorbis_synthesis_init(&dsp, info) != 0 { failure = "libvorbis cannot start decoding the stream" }
            vorbis_dsp_clear(&dsp)
        }
        if let failure {
            release()
            throw AudioCodecError(.badData, failure)
        }
    }

    deinit { release() }

    private var released = false

    private func release() {
        guard !released else { return }
        released = true
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        comment.deallocate()
        info.deallocate()
    }
}
