import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioFileServices
import AudioCodecs
import ExtendedAudioFileServices
import AudioCodecMPG123

/// Files that open for their metadata but whose codec the package does not decode
/// (Tests/Fixtures/metadata-only): decoding fails with Apple's kAudioFileUnsupportedDataFormatError
/// and a message naming the format as people know it.
@Suite("Undecoded formats")
struct UndecodedFormatTests {
    @Test(arguments: [
        ("gsm-sox.wav", "GSM 6.10"), ("gsm-ffmpeg.wav", "GSM 6.10"), ("adpcm-ms.wav", "Microsoft ADPCM"),
        ("dts.mov", "DTS"), ("gsm.mov", "GSM 6.10"), ("samr.3gp", "AMR"), ("dts.mp4", "MPEG-4 audio"), ("als.m4a", "MPEG-4 audio"),
    ])
    func decodingNamesTheFormat(name: String, format: String) throws {
        let path = Fixtures.metadataOnly.appendingPathComponent(name).path
        let file = try AudioFile(path: path)  // opens
        #expect(file.packetCount > 0)
        #expect {
            _ = try ExtAudioFile(file: file)
        } throws: { error in
            guard let error = error as? ExtAudioFileError else { return false }
            return error.status == 0x666D_743F  // 'fmt?'
                && error.description.contains("cannot decode \(format)")
                && !error.description.contains("\\x")
        }
    }

    /// MPEG audio in MP4 (`'mp4a'`, objectTypeIndication 0x6B, which names no layer) and in
    /// QuickTime (`'.mp2'`) is Layer II by its frames: `'.mp2'`, decoded to the frames ffprobe's
    /// edit list gives (ffmpeg's own decode applies the priming but not the end: `NAME.frames`).
    @Test(arguments: ["mp2.mp4", "mp2.mov"])
    func mpegAudioInMPEG4Decodes(name: String) throws {
        MP3Decoder.register()
        let url = Fixtures.metadataOnly.appendingPathComponent(name)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.data(url.appendingPathExtension("ffprobe.json"))) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        // ffprobe names MP4's codec by its objectTypeIndication (0x6B, MPEG-1 audio: "mp3"); the
        // frames are ffmpeg's MP2 encoder's (Layer II), as it names them in QuickTime.
        #expect(stream["codec_name"] as? String == (name.hasSuffix(".mp4") ? "mp3" : "mp2"))
        let edited = try #require(stream["duration_ts"] as? Int)
        let decoded = try #require(Int(String(decoding: Fixtures.data(url.appendingPathExtension("frames")), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let file = try AudioFile(path: url.path)
        #expect(file.dataFormat.formatID == .mpegLayer2 && file.dataFormat.framesPerPacket == 1152)
        let reader = try ExtAudioFile(file: file)
        let client = AudioStreamBasicDescription.float32(sampleRate: file.dataFormat.sampleRate, channels: 2)
        try reader.setClientDataFormat(client)
        let buffer = try #require(PCMBuffer(format: client, frameCapacity: 4096))
        var frames = 0
        while true {
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 4096)
            if n == 0 { break }
            frames += n
        }
        #expect(frames == edited, "\(name): \(frames) frames, ffprobe's edit \(edited), ffmpeg's decode \(decoded)")
        #expect(frames <= decoded)
    }
}
