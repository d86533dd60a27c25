// Runs the snippets of README.md and the DocC catalogs that Scripts/snippets copied into
// Generated/ (see there):
//   docsnippets NAME       runs the snippet in the current folder; a thrown error fails (exit 1)
//   docsnippets --list     the names of the snippets that run, one a line, followed by
//                          " sound-server" for those that need one
//   docsnippets --expected NAME   the lines its commented `print` calls must print, one a line
import Foundation

/// A snippet that runs: its name, the lines its commented `print` calls print, whether it needs
/// a sound server, and the function holding its code.
typealias RunnableSnippet = (
    name: String, expectedOutput: [String], needsSoundServer: Bool, run: @Sendable () async throws -> Void
)

let arguments = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}
func snippet(_ name: String) -> RunnableSnippet {
    guard let found = runnableSnippets.first(where: { $0.name == name }) else {
        let why = compileOnlySnippets.contains(name) ? "is compiled only" : "is no snippet"
        fail("docsnippets: \(name) \(why) (--list names those that run)", 2)
    }
    return found
}

switch arguments.first {
case "--list" where arguments.count == 1:
    for entry in runnableSnippets { print(entry.name + (entry.needsSoundServer ? " sound-server" : "")) }
case "--expected" where arguments.count == 2:
    for line in snippet(arguments[1]).expectedOutput { print(line) }
case let name? where arguments.count == 1 && !name.hasPrefix("-"):
    do {
        try await snippet(name).run()
    } catch {
        fail("\(name) threw \(error)", 1)
    }
default:
    fail("usage: docsnippets NAME | --list | --expected NAME", 2)
}
