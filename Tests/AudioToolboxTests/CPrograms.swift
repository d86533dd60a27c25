import Foundation
import ProcessSupport

/// Compiling and running C and C++ programs against the package's libAudioToolbox.so, with the
/// flags `Scripts/audiotoolbox-config` prints (the debug library `swift build` made before the
/// tests ran; the tests never build it themselves).
enum CPrograms {
    static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func path(_ relative: String) -> String { repository.appendingPathComponent(relative).path }

    /// The flags to compile and link against the library.
    static let flags: [String] = {
        guard let r = try? runProcess(path("Scripts/audiotoolbox-config"), ["--debug", "--no-build", "--cflags", "--libs"]),
              r.status == 0 else { return [] }
        return r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A scratch directory of the test run.
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aqtoolbox-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Compiles `sources` (paths relative to the repository, or absolute) into an executable
    /// named `name` in the scratch directory, with warnings as errors; C++ when `cxx`.
    static func build(_ name: String, sources: [String], cxx: Bool = false, extra: [String] = []) throws -> String {
        guard !flags.isEmpty else { throw Failure(description: "Scripts/audiotoolbox-config found no debug libAudioToolbox.so") }
        let output = scratch.appendingPathComponent(name).path
        let files = sources.map { $0.hasPrefix("/") ? $0 : path($0) }
        let compiler = cxx ? "/usr/bin/c++" : "/usr/bin/cc"
        let arguments = ["-std=" + (cxx ? "c++17" : "c11"), "-g", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations"]
            + extra + files + flags + ["-lm", "-o", output]
        let r = try runProcess(compiler, arguments)
        guard r.status == 0 else { throw Failure(description: "\(compiler) \(arguments.joined(separator: " ")) failed:\n\(r.err)\(r.out)") }
        return output
    }
}
