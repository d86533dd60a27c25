import Foundation
import ProcessSupport
import Testing

/// Programs written the way other people's AudioToolbox code is written (Tests/AudioToolboxTests/
/// Corpus): a C++ stream player in the style of Apple's AudioFileStreamExample, and a recorder,
/// an ExtAudioFile converter and a stream-format tester in the style of a well-known Core Audio
/// book. Each is compiled unchanged against the headers and run with the file backend; what it
/// plays or writes is checked with ffmpeg and ffprobe.
@Suite("Programs written for a Mac")
struct CorpusTests {
    static func source(_ name: String) -> String { "Tests/AudioToolboxTests/Corpus/\(name)" }

    /// Built as `cc` and `c++` build them by default (GNU dialects, so POSIX functions such as
    /// usleep are declared, as a Mac's headers declare them in every mode).
    static func build(_ name: String, _ file: String, cxx: Bool = false, std: String? = nil) throws -> String {
        try CPrograms.build(name, sources: [source(file)], cxx: cxx, extra: ["-std=" + (std ?? (cxx ? "gnu++17" : "gnu11"))])
    }

    static let streamClient = Result { try build("corpus-stream-client", "stream_client.cpp", cxx: true) }
    static let streamClient03 = Result { try build("corpus-stream-client-03", "stream_client.cpp", cxx: true, std: "c++03") }
    static let recorder = Result { try build("corpus-recorder", "book_recorder.c") }
    static let extConverter = Result { try build("corpus-ext-converter", "book_ext_converter.c") }
    static let formatTester = Result { try build("corpus-format-tester", "book_format_tester.c") }

    static let mediaOutput = Result { try build("corpus-media-output", "media_output.c") }

    static let pcmFixture = CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-2ch-44100.wav")
    static let adtsFixture = CPrograms.path("Tests/Fixtures/valid/adts-aac-2ch-44100.aac")

    // MARK: The stream player (C++)

    /// Apple's sample declares its listener with `UInt32 *ioFlags` and parses with flags `0`:
    /// that compiles in C++ only when the flag types are plain integers, as Apple's CF_OPTIONS
    /// makes them. Played through the file backend, the stream is every ADTS packet decoded.
    @Test("The AudioFileStreamExample-style C++ player (C++03 and C++17) plays an ADTS stream as ffmpeg decodes it",
          arguments: ["c++17", "c++03"])
    func streamPlayer(_ std: String) throws {
        let program = try (std == "c++03" ? Self.streamClient03 : Self.streamClient).get()
        let out = GuideTests.scratchPath("stream.wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try GuideTests.run(program, [Self.adtsFixture], environment: GuideTests.fileOutput(out))
        try #require(r.status == 0, "stream_client exited with \(r.status): \(r.out)\(r.err)")
        #expect(r.out.contains("found property 'redy'"), "\(r.out)")
        let played = try GuideTests.ffmpegDecode(out)
        let reference = try GuideTests.ffmpegDecode(Self.adtsFixture)
        #expect(played.channels == reference.channels)
        #expect(played.frames == reference.frames, "played \(played.frames) frames, ffmpeg decodes \(reference.frames)")
        for channel in 0..<reference.channels {
            let db = GuideTests.snr(reference, played, channel: channel)
            #expect(db > 100, "channel \(channel): \(db) dB against ffmpeg's decode")
        }
    }

    // MARK: The ExtAudioFile converter

    /// The book passes the frame count as AudioFileWritePackets' byte count; a Mac writes
    /// `ioNumPackets × mBytesPerPacket` bytes for constant-size packets, so the whole file arrives.
    @Test("The book's ExtAudioFile converter writes an AIFF file holding every sample of its input")
    func extConverter() throws {
        let program = try Self.extConverter.get()
        let out = GuideTests.scratchPath("converted.aif")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try GuideTests.run(program, [Self.pcmFixture, out])
        try #require(r.status == 0, "book_ext_converter exited with \(r.status): \(r.out)\(r.err)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16be,44100,2", "\(probe.out)\(probe.err)")
        let written = try GuideTests.ffmpegDecode(out)
        let reference = try GuideTests.ffmpegDecode(Self.pcmFixture)
        #expect(written.frames == reference.frames, "wrote \(written.frames) frames of \(reference.frames)")
        let first = GuideTests.firstDifference(written.samples, reference.samples)
        #expect(first == nil, "the first sample that differs is \(first ?? -1)")
    }

    // MARK: The stream-format tester

    static func formats(_ type: String, _ format: String) throws -> [String] {
        let r = try GuideTests.run(try Self.formatTester.get(), [type, format])
        try #require(r.status == 0, "book_format_tester exited with \(r.status): \(r.out)\(r.err)")
        return r.out.split(separator: "\n").map { line in
            // "0: mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: 16" without the index
            String(line.drop { $0 != ":" }.dropFirst(2))
        }
    }

    /// The book prints, for AIFF and linear PCM on a Mac, big-endian signed packed integers
    /// (flags 14) of 8, 16, 24 and 32 bits.
    @Test("The book's stream-format tester lists AIFF's linear PCM formats as a Mac does")
    func formatTesterAIFF() throws {
        let lines = try Self.formats("AIFF", "lpcm")
        #expect(lines == [8, 16, 24, 32].map { "mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: \($0)" }, "\(lines)")
    }

    /// WAVE holds 8-bit unsigned (flags 8), 16/24/32-bit little-endian signed (12) and 32/64-bit
    /// float (9) linear PCM.
    @Test("The stream-format tester lists WAVE's linear PCM formats: unsigned 8-bit, signed 16/24/32, float 32/64")
    func formatTesterWAVE() throws {
        let lines = Set(try Self.formats("WAVE", "lpcm"))
        let expected = ["8,8", "12,16", "12,24", "12,32", "9,32", "9,64"].map { pair in
            let p = pair.split(separator: ",")
            return "mFormatId: lpcm, mFormatFlags: \(p[0]), mBitsPerChannel: \(p[1])"
        }
        #expect(lines.isSuperset(of: expected), "\(lines.sorted())")
    }

    // MARK: The recorder

    /// Records from the file backend's input device, which plays `input` into the queue in real
    /// time, until the program reads <return> (sent after `seconds`).
    static func record(_ codec: String, input: String, seconds: Int = 2) throws -> (out: String, log: String) {
        let out = GuideTests.scratchPath("recording-\(codec).caf")
        let script = "(sleep \(seconds); echo) | \"$0\" \"$1\" \"$2\""
        let r = try GuideTests.run("/bin/sh", ["-c", script, try Self.recorder.get(), out, codec],
                                   environment: ["AUDIOQUEUE_BACKEND": "file", "AUDIOQUEUE_INPUT_DEVICE": input])
        try #require(r.status == 0, "book_recorder exited with \(r.status): \(r.out)\(r.err)")
        return (out, r.out + r.err)
    }

    static func makeInput(_ source: String) throws -> String {
        let path = GuideTests.scratchPath("input.wav")
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source,
                                                   "-ac", "2", "-ar", "44100", "-c:a", "pcm_s16le", path])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        return path
    }

    /// Where `recorded`'s first frames appear in `input` (exactly), if they do.
    static func offset(of recorded: GuideTests.Audio, in input: GuideTests.Audio) -> Int? {
        let c = input.channels, probe = 32
        guard recorded.frames > probe, recorded.channels == c else { return nil }
        let head = Array(recorded.samples[0..<(probe * c)])
        for start in 0...max(input.frames - probe, 0) where input.samples[start * c] == head[0] {
            if Array(input.samples[(start * c)..<((start + probe) * c)]) == head { return start }
        }
        return nil
    }

    @Test("The book's recorder writes linear PCM in CAF: every recorded frame is the input's, in order")
    func recorderPCM() throws {
        let input = try Self.makeInput("anoisesrc=color=white:sample_rate=44100:amplitude=0.3:seed=3:duration=20")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let (out, log) = try Self.record("lpcm", input: input)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,44100,2", "\(probe.out)\(probe.err)\n\(log)")
        let recorded = try GuideTests.ffmpegDecode(out)
        let reference = try GuideTests.ffmpegDecode(input)
        #expect(recorded.frames >= 22_050, "recorded \(recorded.frames) frames in about 2 s\n\(log)")
        let start = try #require(Self.offset(of: recorded, in: reference), "the recording's first frames are not in the input\n\(log)")
        let end = min(start + recorded.frames, reference.frames)
        let first = GuideTests.firstDifference(recorded.samples, Array(reference.samples[(start * 2)..<(end * 2)]))
        #expect(first == nil, "recorded sample \(first ?? -1) differs from the input's")
    }

    @Test("The book's recorder encodes IMA4 in CAF through AudioFormatGetProperty and the queue's converter properties")
    func recorderIMA4() throws {
        let input = try Self.makeInput("sine=frequency=441:sample_rate=44100:duration=20")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let (out, log) = try Self.record("ima4", input: input)
        defer { try? FileManager.default.removeItem(atPath: out) }
        // The book prints the format ID through `%4.4s` of its address: on a little-endian
        // machine (every Mac since 2006) that reads "4ami".
        #expect(log.contains("format 4ami, 68 bytes per packet, 64 frames per packet"), "\(log)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "adpcm_ima_qt,44100,2", "\(probe.out)\(probe.err)\n\(log)")
        let recorded = try GuideTests.ffmpegDecode(out)
        #expect(recorded.frames >= 22_050, "recorded \(recorded.frames) frames in about 2 s\n\(log)")
        // A 441 Hz sine repeats every 100 frames; IMA4 keeps it well above 20 dB once its step
        // size has adapted (the first packet).
        let reference = try GuideTests.ffmpegDecode(input)
        let best = (0..<100).map { lag -> Double in
            let shifted = GuideTests.Audio(samples: Array(reference.samples[(lag * 2)...]), channels: 2)
            return GuideTests.snr(shifted, recorded, channel: 0, from: 64, frames: recorded.frames - 128)
        }.max() ?? -.infinity
        #expect(best > 20, "the recording is \(best) dB from the input sine at its best alignment")
    }

    /// The book's own format: AAC. A private PulseAudio sink plays two tones (a period of 100
    /// frames) while the recorder records its monitor; ffmpeg decodes the CAF (its packet count
    /// and the cookie the recorder copied from the queue), and the recording, at its best
    /// alignment with what was played, is within 20 dB of it.
    @Test("The book's recorder records AAC in CAF from a PulseAudio sink's monitor: ffmpeg decodes it within 20 dB of what was played",
          .enabled(if: AudioServer.runTests, Comment(rawValue: AudioServer.skipReason)))
    func recorderAACFromServer() throws {
        try #require(AudioServer.available, "no PulseAudio server answers")
        let sink = "bookaac\(getpid())"
        let load = try runProcess("/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=\(sink)", "rate=44100", "channels=2"])
        try #require(load.status == 0, "pactl load-module: \(load.err)")
        let module = load.out.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? runProcess("/usr/bin/pactl", ["unload-module", module]) }
        let input = try Self.makeInput("aevalsrc=0.4*sin(2*PI*441*t)+0.2*sin(2*PI*882*t):s=44100:d=30")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--device=\(sink)", input]
        try player.run()
        defer { player.terminate() }
        // The monitor carries the tones once paplay's stream runs.
        Thread.sleep(forTimeInterval: 0.5)
        let out = GuideTests.scratchPath("recording-aac-server.caf")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try GuideTests.run("/bin/sh", ["-c", "(sleep 3; echo) | \"$0\" \"$1\" aac", try Self.recorder.get(), out],
                                   environment: ["AUDIOQUEUE_BACKEND": "pulse", "AUDIOQUEUE_INPUT_DEVICE": "\(sink).monitor"])
        try #require(r.status == 0, "book_recorder exited with \(r.status): \(r.out)\(r.err)")
        let log = r.out + r.err
        #expect(log.contains("format caa , 0 bytes per packet, 1024 frames per packet") || log.contains("format  caa"), "\(log)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,channels,sample_rate", "-of", "csv=p=0", out])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "aac,LC,44100,2", "\(probe.out)\(probe.err)\n\(log)")
        let recorded = try GuideTests.ffmpegDecode(out)
        #expect(recorded.frames >= 44_100, "recorded \(recorded.frames) frames in about 3 s\n\(log)")
        let reference = try GuideTests.ffmpegDecode(input)
        // Past the encoder's priming (2112 frames) and the monitor's first blocks.
        let from = 8192, frames = recorded.frames - from - 4096
        try #require(frames > 22_050, "too short to compare: \(recorded.frames) frames\n\(log)")
        let best = (0..<100).map { lag -> Double in
            let shifted = GuideTests.Audio(samples: Array(reference.samples[(lag * 2)...]), channels: 2)
            return min(GuideTests.snr(shifted, recorded, channel: 0, from: from, frames: frames),
                       GuideTests.snr(shifted, recorded, channel: 1, from: from, frames: frames))
        }.max() ?? -.infinity
        #expect(best >= 20, "the recording is \(best) dB from what was played at its best alignment\n\(log)")
    }

    // MARK: The media library's output module

    /// 16-bit stereo PCM made by ffmpeg (a sweep, so that a lost or repeated buffer shows).
    static func makeRaw(rate: Int) throws -> String {
        let path = GuideTests.scratchPath("sweep.raw")
        let r = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                                                   "aevalsrc=0.4*sin(2*PI*(200+400*t)*t)|0.3*sin(2*PI*(900-300*t)*t):s=\(rate):d=1.5",
                                                   "-f", "s16le", "-c:a", "pcm_s16le", path])
        try #require(r.status == 0, "ffmpeg: \(r.err)")
        return path
    }

    static func rawSamples(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 2)).map { Float(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
        }
    }

    /// The module lists devices through the HAL with scope Output and element wildcard, picks
    /// one by UID (or the default), moves its queue there with kAudioQueueProperty_CurrentDevice
    /// and a channel bitmap layout, and pushes buffers from its own thread: every sample arrives.
    @Test("A media library's output module finds the file device through the HAL and plays every sample it pushes")
    func mediaOutput() throws {
        let program = try Self.mediaOutput.get()
        let out = GuideTests.scratchPath("media.wav")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let list = try GuideTests.run(program, ["--list"], environment: GuideTests.fileOutput(out))
        try #require(list.status == 0, "media_output --list exited with \(list.status): \(list.out)\(list.err)")
        let devices = list.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let file = try #require(devices.first { $0.count == 3 && $0[2] != "0" }, "no output device with channels in \(list.out)")
        let raw = try Self.makeRaw(rate: 48_000)
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let reference = try Self.rawSamples(raw)
        for uid in ["default", file[0]] {
            let r = try GuideTests.run(program, [uid, raw, "48000"], environment: GuideTests.fileOutput(out))
            try #require(r.status == 0, "media_output \(uid) exited with \(r.status): \(r.out)\(r.err)")
            let played = try GuideTests.ffmpegDecode(out)
            #expect(played.channels == 2)
            #expect(played.samples.count == reference.count, "\(uid): played \(played.frames) frames of \(reference.count / 2)")
            let first = GuideTests.firstDifference(played.samples, reference)
            #expect(first == nil, "\(uid): the first sample that differs is \(first ?? -1)")
        }
    }
}
