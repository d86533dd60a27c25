import Foundation
import Testing
import DecodeTestSupport
import ProcessSupport
import AudioCore
import AudioCodecMPG123
import AudioFileServices
import ExtendedAudioFileServices

/// The MPEG audio edge cases of Scripts/fixtures/make_mp3_edge_fixtures.sh, decoded through
/// ExtAudioFile and compared with ffmpeg's decodes of them.
///
/// Agreement: ffmpeg's `mp3float`/`mp2float` and libmpg123 are two float implementations of
/// the same synthesis, so a frame decoded from the same bits at the same place agrees to
/// 117–125 dB SNR (Layer III) and 87 dB (Layer II; largest difference 3.3e-5) in these files.
/// A frame decoded from other bits (a granule silent in one and not the other, a wrong
/// reservoir) or one sample out of place falls below 20 dB. The threshold, 80 dB, lies between.
/// The first 100 ms — where priming, the Xing frame and the first frame's reservoir act — are
/// checked on their own, so a difference there cannot hide in the rest of the file.
@Suite("MP3 edge cases against ffmpeg")
struct EdgeFixtureTests {
    static let directory = Fixtures.mp3Edge
    static let threshold = 80.0

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".mp2") }.sorted()

    /// Packets whose decode may differ from ffmpeg's timeline, and why: ffmpeg 5.1's parser
    /// hands junk (bytes other than 0 between frames; a frame whose header was destroyed is
    /// junk) over in front of the next frame, whose decoder then finds no header and drops
    /// that frame; the frames after it miss its bytes in their reservoir. Here that frame
    /// decodes and the frames after it read what it left. Every other packet of these files —
    /// a frame ffmpeg rejects (big_values above 288) and the frames after it included — agrees
    /// with ffmpeg.
    static let knownDifferences: [String: Int] = [
        "damaged-cbr.mp3": 2,  // the frame after the destroyed header and the one after that
        "damaged-crc.mp3": 0,  // side information garbled in one frame, main data in another
        "damaged-vbr.mp3": 4,  // as damaged-cbr, with stereo frames reaching two frames back
        "junk-between.mp3": 7,  // two frames with junk before them, and their successors
    ]

    /// Files whose last frame is cut short (see MP3EdgeTagTests in AudioFileServicesTests).
    static let cutLastFrame: Set<String> = ["cbr-cut-last-frame-id3v1.mp3"]

    @Test(arguments: names)
    func decodesAsFFmpeg(name: String) throws {
        MP3Decoder.register()
        let url = Self.directory.appendingPathComponent(name)
        let timeline = Self.directory.appendingPathComponent(name + ".timeline.f32")
        let referenceURL = FileManager.default.fileExists(atPath: timeline.path) ? timeline : Self.directory.appendingPathComponent(name + ".f32")
        let reference = try Fixtures.float32(referenceURL)
        let reader = try ExtAudioFile(path: url.path)
        let channels = Int(reader.fileDataFormat.channelsPerFrame)
        let rate = Int(reader.fileDataFormat.sampleRate)
        let samples = try readAllFloat(reader)
        if Self.cutLastFrame.contains(name) {
            // ffmpeg decodes what is there of a last frame cut short; the packet table leaves it
            // out, so the decode ends up to a packet earlier and agrees before that.
            let missing = reference.count - samples.count
            #expect(missing > 0 && missing < Int(reader.fileDataFormat.framesPerPacket) * channels, "\(name): \(missing / channels) frames fewer")
        } else {
            #expect(samples.count == reference.count, "\(name): \(samples.count / channels) frames, ffmpeg \(reference.count / channels)")
        }
        let count = min(samples.count, reference.count)
        let head = min(count, rate / 10 * channels)
        if let allowed = Self.knownDifferences[name] {
            // Windows on the packets' boundaries: the first is what priming leaves of a packet.
            let perPacket = Int(reader.fileDataFormat.framesPerPacket)
            let firstWindow = (perPacket - Int(reader.primingFrames) % perPacket) % perPacket
            var bounds = [0] + Array(stride(from: firstWindow * channels, to: count, by: perPacket * channels))
            bounds = Array(Set(bounds)).sorted() + [count]
            var differing = 0
            for (start, end) in zip(bounds, bounds.dropFirst()) where start < end {
                if Self.snr(reference[start..<end], samples[start..<end]) < Self.threshold { differing += 1 }
            }
            print("\(name): \(differing) of \(bounds.count - 1) packets differ from ffmpeg's timeline (\(allowed) known)")
            #expect(differing <= allowed, "\(name): \(differing) packets differ")
            return
        }
        let first = Self.snr(reference[0..<head], samples[0..<head])
        let rest = Self.snr(reference[head..<count], samples[head..<count])
        let worst = zip(reference[0..<count], samples[0..<count]).map { abs($0 - $1) }.max() ?? 0
        print("\(name): \(samples.count / channels) frames, first 100 ms \(first) dB, rest \(rest) dB, max difference \(worst)")
        #expect(first >= Self.threshold, "\(name): first 100 ms at \(first) dB")
        #expect(rest >= Self.threshold, "\(name): after 100 ms at \(rest) dB")
    }

    /// ffmpeg's raw decode of a damaged file is shorter than its timeline by the frames it
    /// could not decode; ours keeps the timeline with silence, so the packet table holds.
    @Test func damagedFilesKeepTheTimeline() throws {
        MP3Decoder.register()
        for name in ["damaged-cbr.mp3", "damaged-crc.mp3"] {
            let raw = try Fixtures.float32(Self.directory.appendingPathComponent(name + ".f32"))
            let timeline = try Fixtures.float32(Self.directory.appendingPathComponent(name + ".timeline.f32"))
            let reader = try ExtAudioFile(path: Self.directory.appendingPathComponent(name).path)
            let samples = try readAllFloat(reader)
            #expect(raw.count < timeline.count && samples.count == timeline.count)
            #expect(reader.badPackets >= 1)
        }
    }

    /// SNR in dB of `test` against `reference`; infinite when they are equal.
    static func snr(_ reference: ArraySlice<Float>, _ test: ArraySlice<Float>) -> Double {
        var signal = 0.0, noise = 0.0
        for (r, t) in zip(reference, test) {
            signal += Double(r) * Double(r)
            noise += (Double(r) - Double(t)) * (Double(r) - Double(t))
        }
        if noise == 0 { return .infinity }
        return signal == 0 ? -.infinity : 10 * log10(signal / noise)
    }
}
