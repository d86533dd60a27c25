import AudioCore
import AudioCodecs
import CAVCodec

/// One libavcodec decoder opened through the CAVCodec shim, as the package's decoders over
/// libavcodec use it: open a decoder by name with its extradata, send a packet, take the planar
/// float frames it gives, flush after a seek.
final class AVCodecDecoderSession {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    /// The frame ``receive(_:)`` fills; valid inside its body.
    let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>

    private static let quietLog: Void = cavcodec_quiet_decoder_log()

    /// True when libavcodec can be loaded (it is loaded by the first call, once per process).
    static var libraryLoads: Bool { cavcodec_load() != 0 }

    /// Opens libavcodec's decoder `name` (`"ac3"`, `"vorbis"`, ...) with `extradata`, and
    /// `channels` and `rate` where above 0. `formatNotSupported` when libavcodec cannot be loaded
    /// or has no such decoder, or the decoder refuses its configuration (`what` names it).
    init(decoder name: String, what: String, extradata: [UInt8] = [], channels: Int = 0, rate: Int = 0) throws(AudioCodecError) {
        guard cavcodec_load() != 0 else {
            throw AudioCodecError(.formatNotSupported, "libavcodec could not be loaded: \(String(cString: cavcodec_load_error()))")
        }
        Self.quietLog
        guard extradata.count <= Int(Int32.max) else { throw AudioCodecError(.badData, "\(what): configuration too large") }
        guard let frame = cavcodec_frame_alloc() else { throw AudioCodecError(.unspecified, "libavcodec could not allocate a frame") }
        guard let packet = cavcodec_packet_alloc() else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            cavcodec_frame_free(&f)
            throw AudioCodecError(.unspecified, "libavcodec could not allocate a packet")
        }
        self.frame = frame
        self.packet = packet
        context = extradata.withUnsafeBufferPointer { bytes in
            cavcodec_open_decoder(name, bytes.baseAddress, Int32(bytes.count), Int32(clamping: channels), Int32(clamping: rate))
        }
        guard context != nil else {
            throw AudioCodecError(.formatNotSupported, "libavcodec has no \(what) decoder, or it refuses the stream's configuration")
        }
    }

    deinit {
        cavcodec_free_context(&context)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        cavcodec_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        cavcodec_packet_free(&p)
    }

    /// Sends `bytes` as one packet (libavcodec copies them): libavcodec's status (negative for
    /// an error; -1 for an empty or oversized packet, which is not sent).
    func send(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let context, let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(Int32.max) else { return -1 }
        return cavcodec_send_bytes(context, packet, base.assumingMemoryBound(to: UInt8.self), Int32(bytes.count))
    }

    /// Calls `body` with each frame the decoder has ready, in ``frame``, then releases it.
    func receive(_ body: (UnsafeMutablePointer<AVFrame>) -> Void) {
        guard let context else { return }
        while cavcodec_receive_frame(context, frame) >= 0 {
            body(frame)
            cavcodec_frame_unref(frame)
        }
    }

    /// Drops the decoder's state, as after a seek.
    func reset() {
        if let context { cavcodec_flush_buffers(context) }
    }

    /// The planes of ``frame`` as Float32 (planar float output), `count` of them; nil when the
    /// frame has no data.
    func planes(_ count: Int) -> [UnsafePointer<Float>]? {
        guard let data = frame.pointee.extended_data, count > 0 else { return nil }
        var result: [UnsafePointer<Float>] = []
        result.reserveCapacity(count)
        for c in 0..<count {
            guard let plane = data[c] else { return nil }
            result.append(UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self))
        }
        return result
    }
}

extension AVCodecDecoderSession {
    /// Interleaves `count` frames of `planes` (one per channel) into `destination`.
    static func interleave(_ planes: [UnsafePointer<Float>], _ count: Int, into destination: UnsafeMutablePointer<Float>) {
        let channels = planes.count
        switch channels {
        case 1:
            destination.update(from: planes[0], count: count)
        case 2:
            let (a, b) = (planes[0], planes[1])
            for i in 0..<count {
                destination[2 * i] = a[i]
                destination[2 * i + 1] = b[i]
            }
        default:
            for (c, plane) in planes.enumerated() {
                var out = destination + c
                for i in 0..<count {
                    out.pointee = plane[i]
                    out += channels
                }
            }
        }
    }
}
