import Foundation
import Testing
import ProcessSupport

/// The AudioFileServices article's program that parses standard input, run on the five MP3
/// files joined end to end (Tests/Fixtures/mp3-concat): it reports each format and the packet
/// count ffprobe gives.
@Suite struct StandardInputSnippetTests {
    @Test func parsesFiveFormatsFromStandardInput() throws {
        let root = Fixtures.packageRoot
        let program = root.appendingPathComponent(".build/debug/docsnippets").path
        let input = Fixtures.root.appendingPathComponent("mp3-concat/five-formats.mp3").path
        let reference = try String(contentsOfFile: input + ".ffprobe.txt", encoding: .utf8).split(separator: "\n")
        let r = try runProcess(
            "/bin/bash", ["-c", "exec \"$1\" AudioFileServices_ParsingStandardInput_1 <\"$2\"", "snippet", program, input], timeout: 120)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.last?.hasPrefix("\(reference[0]) packets, ") == true, "\(r.out)")
        // One line per format: rate, channels, packets (each part after the first with its Info frame).
        let formats = lines.dropLast().map { $0.split(separator: " ").map(String.init) }
        let parts = reference.dropFirst().map { $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
        #expect(formats.count == parts.count)
        for (i, (line, part)) in zip(formats, parts).enumerated() {
            #expect(Double(line[0]) == Double(part[0]) && line[1] == part[1], "\(line) vs \(part)")
            #expect(Int(line[2]) == (Int(part[2]) ?? 0) + (i > 0 ? 1 : 0), "\(line) vs \(part)")
        }
    }
}
