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

    /// The include paths `Scripts/audiotoolbox-config --cflags` gives for the package's headers:
    /// the headers, and the directory of those only C and C++ see (TargetConditionals.h,
    /// Availability.h, …), as system directories, which is how a Mac's compiler sees its SDK.
    static let includeFlags: [String] = [
        "-isystem", path("Sources/CAudioToolbox/include"), "-isystem", path("Sources/CAudioToolbox/include-c"),
    ]

    /// The same directories as ordinary ones (-I), so that the compiler reports what it finds in
    /// the package's own headers: the strict check of ``HeaderTests``.
    static let strictIncludeFlags: [String] = [
        "-I" + path("Sources/CAudioToolbox/include"), "-I" + path("Sources/CAudioToolbox/include-c"),
    ]

    /// The flags to compile and link against the library.
    static let flags: [String] = {
        guard let r = try? runProcess(path("Scripts/audiotoolbox-config"), ["--debug", "--no-build", "--cflags", "--libs"]),
              r.status == 0 else { return [] }
        let library = r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard threadSanitized else { return library }
        guard let runtime = threadSanitizerRuntime else { return [] }
        // Loaded first, and every library after it kept whether or not the program calls it:
        // the runtime's libdispatch and blocks symbols come from the library's dependencies
        // (which clang's linker does not search for them). The runtime is an input file: `-x none`
        // before it ends the language a compile command gave its sources (HeaderTests' `-x c++`),
        // so that the compiler links it rather than compiling it as source. Without
        // ThreadSanitizer no input follows the flags, and Clang would warn of a `-x none` there.
        let directory = (runtime as NSString).deletingLastPathComponent
        return ["-Wl,--no-as-needed", "-Wl,--allow-shlib-undefined", "-x", "none", runtime, "-Wl,-rpath,\(directory)"] + library
    }()

    /// True when the tests (and so the library they built) run under ThreadSanitizer
    /// (`swift test --sanitize=thread`, `Scripts/test --tsan`). The library then needs the
    /// toolchain's ThreadSanitizer runtime, which programs link (their own code stays
    /// uninstrumented: the library's races are what the run looks for), and a program cannot
    /// also carry AddressSanitizer's runtime, so ``build(_:sources:cxx:extra:)`` leaves it out.
    static let threadSanitized = dlsym(nil, "__tsan_init") != nil

    /// The shared ThreadSanitizer runtime of the clang beside the Swift compiler.
    static let threadSanitizerRuntime: String? = {
        #if arch(x86_64)
        let name = "libclang_rt.tsan-x86_64.so"
        #else
        let name = "libclang_rt.tsan-aarch64.so"
        #endif
        guard let r = try? runProcess("/opt/swift/usr/bin/clang", ["-print-file-name=\(name)"]), r.status == 0 else { return nil }
        let path = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    /// `extra` without AddressSanitizer's flags under ThreadSanitizer (the two runtimes cannot
    /// share a process).
    static func compatible(_ extra: [String]) -> [String] {
        threadSanitized ? extra.filter { $0 != "-fsanitize=address" && $0 != "-fno-omit-frame-pointer" } : extra
    }

    /// Why ``flags`` is empty.
    static var missingLibrary: String {
        threadSanitized && threadSanitizerRuntime == nil
            ? "the library is built with ThreadSanitizer and /opt/swift/usr/bin/clang has no shared ThreadSanitizer runtime"
            : "Scripts/audiotoolbox-config found no debug libAudioToolbox.so"
    }

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
        guard !flags.isEmpty else { throw Failure(description: missingLibrary) }
        let output = scratch.appendingPathComponent(name).path
        let files = sources.map { $0.hasPrefix("/") ? $0 : path($0) }
        let compiler = cxx ? "/usr/bin/c++" : "/usr/bin/cc"
        let arguments = ["-std=" + (cxx ? "c++17" : "c11"), "-g", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations"]
            + compatible(extra) + files + flags + ["-o", output]
        let r = try runProcess(compiler, arguments)
        guard r.status == 0 else { throw Failure(description: "\(compiler) \(arguments.joined(separator: " ")) failed:\n\(r.err)\(r.out)") }
        return output
    }
}
