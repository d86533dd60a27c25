import Foundation
import Testing
import ProcessSupport

/// Every ```c block of README.md and the DocC catalogs compiles against the headers, as C11 with
/// the C programs' warnings as errors: each becomes the body of a function in a file that
/// includes `<AudioToolbox/AudioToolbox.h>` and `<stdlib.h>`, its lines numbered as the
/// document's. What a block uses and does not make is named on the line before it, as
/// Scripts/snippets reads it for Swift: `<!-- snippet: given AudioQueueRef queue -->` (the
/// function's parameters).
@Suite("Documentation C blocks")
struct DocumentationCBlockTests {
    struct Block: CustomStringConvertible {
        var document: String
        var line: Int
        var parameters: String
        var body: [String]
        var description: String { "\(document):\(line)" }
    }

    static func documents() -> [String] {
        let root = CPrograms.repository
        var paths = ["README.md"]
        let sources = root.appendingPathComponent("Sources")
        for module in (try? FileManager.default.contentsOfDirectory(atPath: sources.path))?.sorted() ?? [] {
            let folder = sources.appendingPathComponent(module)
            for catalog in (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? [] where catalog.hasSuffix(".docc") {
                let files = FileManager.default.enumerator(atPath: folder.appendingPathComponent(catalog).path)?.compactMap { $0 as? String } ?? []
                paths += files.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/\(module)/\(catalog)/\($0)" }
            }
        }
        return paths
    }

    static func blocks() throws -> [Block] {
        var found: [Block] = []
        for document in documents() {
            let text = try String(contentsOf: CPrograms.repository.appendingPathComponent(document), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < lines.count {
                let fence = lines[index].trimmingCharacters(in: .whitespaces)
                guard fence.hasPrefix("```"),
                      let close = lines[(index + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" })
                else { index += 1; continue }
                if fence == "```c" {
                    var parameters = "void"
                    if let previous = lines[..<index].lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                        let marker = lines[previous].trimmingCharacters(in: .whitespaces)
                        if marker.hasPrefix("<!-- snippet: given "), marker.hasSuffix("-->") {
                            parameters = marker.dropFirst("<!-- snippet: given ".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                        }
                    }
                    found.append(Block(document: document, line: index + 2, parameters: parameters, body: Array(lines[(index + 1)..<close])))
                }
                index = close + 1
            }
        }
        return found
    }

    @Test func everyCBlockCompiles() throws {
        let blocks = try Self.blocks()
        #expect(!blocks.isEmpty, "no ```c block found in the documents")
        for (number, block) in blocks.enumerated() {
            var source = "#include <AudioToolbox/AudioToolbox.h>\n#include <stdlib.h>\n\n"
            source += "void snippet\(number)(\(block.parameters));\nvoid snippet\(number)(\(block.parameters)) {\n"
            source += "#line \(block.line) \"\(block.document)\"\n" + block.body.joined(separator: "\n") + "\n}\n"
            let file = CPrograms.scratch.appendingPathComponent("doc-block-\(number).c")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let arguments = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations"]
                + CPrograms.includeFlags + ["-c", file.path, "-o", file.path + ".o"]
            let r = try runProcess("/usr/bin/cc", arguments)
            #expect(r.status == 0, "the C block at \(block) does not compile:\n\(r.err)")
        }
    }
}
