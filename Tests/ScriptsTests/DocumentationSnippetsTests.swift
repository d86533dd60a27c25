import Foundation
import Testing
import ProcessSupport

/// Every Swift block of README.md and the DocC catalogs is compiled into `docsnippets` (see
/// Scripts/snippets for how blocks are marked and regenerated): these tests check that the
/// compiled copies are the documents' blocks, and run each snippet that runs in a folder of its
/// own holding the files it names, as a program of its own.
@Suite("Documentation snippets")
struct DocumentationSnippetsTests {
    static let root = Fixtures.packageRoot
    static let docsnippets = root.appendingPathComponent(".build/debug/docsnippets").path

    /// The files the snippets open, by the names the documents give them → the files copied
    /// there. A snippet's folder holds all of them.
    static let files: [String: String] = [
        "Examples/Sounds/chime.caf": "Examples/Sounds/chime.caf",
        "loop.caf": "Examples/Sounds/chime.caf",
        "sound.caf": "Examples/Sounds/chime.caf",
        "song.mp3": "Tests/Fixtures/tags/ape.mp3",
        "song.flac": "Tests/Fixtures/flac/flac-2ch-44100-s16.flac",
        "voice.opus": "Tests/Fixtures/opus/opusenc-stereo-44100.opus",
        "music.ogg": "Tests/Fixtures/vorbis/ffmpeg-stereo-48000.ogg",
    ]

    @Test func theCompiledSnippetsAreTheDocumentsBlocks() throws {
        let r = try runProcess("/bin/bash", [Self.root.appendingPathComponent("Scripts/snippets").path, "--check"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
    }

    @Test func everySnippetRunsAndPrintsWhatItsCommentsSay() throws {
        let list = try runProcess(Self.docsnippets, ["--list"])
        try #require(list.status == 0, "\(Self.docsnippets) --list: \(list.err)")
        let entries = list.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(!entries.isEmpty)
        for entry in entries {
            let name = entry[0]
            if entry.contains("sound-server") && !AudioServer.runTests {
                print("snippet \(name) not run: \(AudioServer.skipReason)")
                continue
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aq-snippet-\(getpid())-\(name)")
            try? FileManager.default.removeItem(at: folder)
            defer { try? FileManager.default.removeItem(at: folder) }
            for (path, source) in Self.files {
                let target = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: Self.root.appendingPathComponent(source), to: target)
            }
            // Standard input is empty (a snippet that reads it reads nothing). Playback goes where the default chain finds: the test's sound server, else ALSA,
            // else a WAVE file in $TMPDIR, here the snippet's folder.
            let run = try runProcess("/bin/bash", ["-c", "cd \"$1\" && exec \"$2\" \"$3\" </dev/null", "snippet", folder.path, Self.docsnippets, name],
                                     environment: ["TMPDIR": folder.path], timeout: 120)
            #expect(run.status == 0, "snippet \(name) failed (\(run.status)): \(run.err)")
            let expected = try runProcess(Self.docsnippets, ["--expected", name]).out
                .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            let problem = Self.mismatch(expected: expected, printed: run.out.split(separator: "\n").map(String.init))
            #expect(problem == nil, "snippet \(name): \(problem ?? "")\nit printed:\n\(run.out)")
        }
    }

    /// Each expected line, in order, among the printed ones: equal, or, ending in "…", the
    /// beginning of one. nil when all are found, else the first missing one.
    static func mismatch(expected: [String], printed: [String]) -> String? {
        var remaining = printed[...]
        for line in expected {
            let matches: (String) -> Bool = line.hasSuffix("…")
                ? { $0.hasPrefix(line.dropLast().trimmingCharacters(in: .whitespaces)) } : { $0 == line }
            guard let found = remaining.firstIndex(where: matches) else { return "no line printed \"\(line)\"" }
            remaining = remaining[(found + 1)...]
        }
        return nil
    }

    @Test func theMatchingOfPrintedLines() {
        #expect(Self.mismatch(expected: ["a", "b…"], printed: ["x", "a", "bcd"]) == nil)
        #expect(Self.mismatch(expected: ["b…", "a"], printed: ["a", "bcd"]) != nil)
        #expect(Self.mismatch(expected: ["a"], printed: ["ab"]) != nil)
    }
}
