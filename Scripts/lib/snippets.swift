// Extracts every ```swift block of README.md and of the DocC catalogs (Sources/*/*.docc/**/*.md)
// into Tests/DocumentationSnippets/Generated/, one file per snippet, so that the build compiles
// each block verbatim with only the imports it shows. Run through Scripts/snippets; see there.
import Foundation

struct Failure: Error, CustomStringConvertible { var description: String }

/// One snippet: a block, with the blocks of the same document marked `continues` after it.
struct Snippet {
    var name: String
    var document: String
    var imports: [String] = []
    var givens: [String] = []
    var compileOnly = false
    var needsSoundServer = false
    var segments: [(line: Int, lines: [String])] = []
    var expectedOutput: [String] = []
}

let root = URL(fileURLWithPath: CommandLine.arguments[1])
let check = CommandLine.arguments.dropFirst(2).contains("--check")
let outputDirectory = root.appendingPathComponent("Tests/DocumentationSnippets/Generated")

/// README.md, then every article of every DocC catalog, in path order.
func documents() throws -> [String] {
    var paths = ["README.md"]
    let sources = root.appendingPathComponent("Sources")
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
        let modulePath = sources.appendingPathComponent(module)
        for catalog in (try? FileManager.default.contentsOfDirectory(atPath: modulePath.path))?.sorted() ?? []
        where catalog.hasSuffix(".docc") {
            let catalogPath = modulePath.appendingPathComponent(catalog)
            let files = FileManager.default.enumerator(atPath: catalogPath.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".md") {
                paths.append("Sources/\(module)/\(catalog)/\(file)")
            }
        }
    }
    return paths
}

/// `Sources/AudioCore/AudioCore.docc/AudioCore.md` → `AudioCore_AudioCore`.
func baseName(_ document: String) -> String {
    if document == "README.md" { return "README" }
    let parts = document.split(separator: "/")
    let article = parts.last!.replacingOccurrences(of: ".md", with: "")
    let name = article == parts[1] ? article : "\(parts[1])_\(article)"
    return String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
}

func snippets(in document: String) throws -> [Snippet] {
    let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var result: [Snippet] = []
    var index = 0
    while index < lines.count {
        let fence = lines[index].trimmingCharacters(in: .whitespaces)
        guard fence.hasPrefix("```") else { index += 1; continue }
        let indent = lines[index].prefix { $0 == " " }.count
        guard let close = lines[(index + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" }) else {
            throw Failure(description: "\(document):\(index + 1): a code block that does not end")
        }
        defer { index = close + 1 }
        guard fence == "```swift" else { continue }
        let location = "\(document):\(index + 1)"
        // The marker: an HTML comment on the line before the fence (blank lines between allowed).
        var directives: [String] = []
        if let previous = lines[..<index].lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            let line = lines[previous].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<!-- snippet:"), line.hasSuffix("-->") {
                let body = line.dropFirst("<!-- snippet:".count).dropLast(3)
                directives = body.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
        }
        if directives.contains(where: { $0.hasPrefix("skip") }) { continue }
        let body = lines[(index + 1)..<close].map { line in
            String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count)))
        }
        var snippet: Snippet
        if directives.contains("continues") {
            guard let last = result.popLast() else {
                throw Failure(description: "\(location): `continues`, but no snippet before it in the document")
            }
            snippet = last
        } else {
            snippet = Snippet(name: "\(baseName(document))_\(result.count + 1)", document: document)
        }
        for directive in directives where directive != "continues" {
            if directive == "compile-only" {
                snippet.compileOnly = true
            } else if directive == "sound-server" {
                snippet.needsSoundServer = true
            } else if directive.hasPrefix("import ") {
                snippet.imports.append(directive)
            } else if directive.hasPrefix("given ") {
                snippet.givens += directive.dropFirst("given ".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                snippet.compileOnly = true
            } else {
                throw Failure(description: "\(location): unknown snippet directive '\(directive)'")
            }
        }
        // Leading imports go to the top of the file; the rest is the function's body.
        var first = 0
        while first < body.count, body[first].hasPrefix("import ") || body[first].isEmpty {
            if body[first].hasPrefix("import ") { snippet.imports.append(body[first]) }
            first += 1
        }
        snippet.segments.append((index + 2 + first, Array(body[first...])))
        // `print(…)  // text` at the top level: the text is what the line prints (a trailing …: its beginning).
        for line in body {
            if line.hasPrefix("print("),
               let comment = line.range(of: "  // ") {
                snippet.expectedOutput.append(String(line[comment.upperBound...]).trimmingCharacters(in: .whitespaces))
            }
        }
        result.append(snippet)
    }
    return result
}

func literal(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

func source(of snippet: Snippet) -> String {
    var text = "// Generated by Scripts/snippets from \(snippet.document): edit the document, then run Scripts/snippets.\n"
    var seen = Set<String>()
    for line in snippet.imports where seen.insert(line).inserted { text += line + "\n" }
    // async only where the block awaits, as top-level code is.
    let async = snippet.segments.contains { $0.lines.contains { $0.contains("await ") } } ? "async " : ""
    text += "\nfunc snippet_\(snippet.name)(\(snippet.givens.joined(separator: ", "))) \(async)throws {\n"
    for segment in snippet.segments {
        text += "#sourceLocation(file: \(literal(snippet.document)), line: \(segment.line))\n"
        for line in segment.lines { text += line.isEmpty ? "\n" : "    \(line)\n" }
        text += "#sourceLocation()\n"
    }
    return text + "}\n"
}

func index(of all: [Snippet]) -> String {
    var text = "// Generated by Scripts/snippets: every snippet of the documents.\n\n"
    text += "/// The snippets that run, by name, with what their commented `print` lines print and\n"
    text += "/// whether they need a sound server.\n"
    text += "let runnableSnippets: [RunnableSnippet] = [\n"
    for snippet in all where !snippet.compileOnly {
        let expected = "[\(snippet.expectedOutput.map(literal).joined(separator: ", "))]"
        text += "    (\(literal(snippet.name)), \(expected), \(snippet.needsSoundServer), snippet_\(snippet.name)),\n"
    }
    text += "]\n\n/// The snippets that are compiled only.\nlet compileOnlySnippets: [String] = [\n"
    for snippet in all where snippet.compileOnly { text += "    \(literal(snippet.name)),\n" }
    return text + "]\n"
}

do {
    var files: [String: String] = [:]
    var all: [Snippet] = []
    for document in try documents() {
        for snippet in try snippets(in: document) {
            all.append(snippet)
            files["\(snippet.name).swift"] = source(of: snippet)
        }
    }
    files["Snippets.swift"] = index(of: all)
    let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: outputDirectory.path)) ?? [])
    var stale: [String] = []
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        let url = outputDirectory.appendingPathComponent(name)
        if (try? String(contentsOf: url, encoding: .utf8)) != text { stale.append(name) }
    }
    let extra = existing.subtracting(files.keys).sorted()
    if check {
        if stale.isEmpty && extra.isEmpty { exit(0) }
        for name in stale { print("out of date: Tests/DocumentationSnippets/Generated/\(name)") }
        for name in extra { print("no longer in the documents: Tests/DocumentationSnippets/Generated/\(name)") }
        print("run Scripts/snippets and commit what it writes")
        exit(1)
    }
    try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    for name in stale { try files[name]!.write(to: outputDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    for name in extra { try FileManager.default.removeItem(at: outputDirectory.appendingPathComponent(name)) }
    print("\(all.count) snippets (\(all.filter(\.compileOnly).count) compile only); \(stale.count) files written, \(extra.count) removed")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
