import Foundation
import ProcessSupport
import Testing

/// The header tree has Apple's 64-bit ABI: ABI/abi_check.c checks the size, alignment and field
/// offsets of every public struct, the widths of the scalar and enumeration types and the values
/// of a sample of constants against numbers worked out from Apple's SDK headers, compiled as C (c99,
/// c11) and as C++ (c++03, c++11, c++17) with GCC and Clang: the CF_ENUM and CF_OPTIONS types have
/// Apple's widths in every language mode. And the umbrella header compiles without warnings.
@Suite("C API ABI")
struct ABITests {
    static let source = "Tests/AudioToolboxTests/ABI/abi_check.c"
    static let cxxSource = "Tests/AudioToolboxTests/ABI/abi_check.cpp"
    static let clangC = "/opt/swift/usr/bin/clang"
    static let clangCxx = "/opt/swift/usr/bin/clang++"

    /// The "N passed, N failed" line abi_check prints last.
    static func summary(_ out: String) -> (passed: Int, failed: Int)? {
        guard let line = out.split(separator: "\n").last(where: { $0.hasSuffix("failed") }) else { return nil }
        let numbers = line.split(separator: " ").compactMap { Int(String($0).trimmingCharacters(in: .punctuationCharacters)) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Builds abi_check with `compiler` (with the flags CPrograms.build uses) and runs it.
    static func buildAndRun(_ name: String, compiler: String, source: String, std: String) throws -> (status: Int32, out: String) {
        guard !CPrograms.flags.isEmpty else { throw CPrograms.Failure(description: CPrograms.missingLibrary) }
        let output = CPrograms.scratch.appendingPathComponent(name).path
        let arguments = ["-std=\(std)", "-g", "-Wall", "-Wextra", "-Werror", CPrograms.path(source)] + CPrograms.flags + ["-o", output]
        let build = try runProcess(compiler, arguments)
        guard build.status == 0 else {
            throw CPrograms.Failure(description: "\(compiler) \(arguments.joined(separator: " ")) failed:\n\(build.err)\(build.out)")
        }
        let r = try runProcess(output, [])
        return (r.status, r.out + r.err)
    }

    static func expectAllPassed(_ r: (status: Int32, out: String)) throws {
        #expect(r.status == 0, "\(r.out)")
        let counts = try #require(summary(r.out), "\(r.out)")
        #expect(counts.failed == 0, "\(r.out)")
        #expect(counts.passed >= 510, "\(r.out)")
    }

    @Test("C (cc): every struct's layout, every type's width and the constants are Apple's", arguments: ["c99", "c11"])
    func c(_ std: String) throws {
        let program = try CPrograms.build("abi_check_\(std)", sources: [Self.source], extra: ["-std=\(std)"])
        let r = try runProcess(program, [])
        try Self.expectAllPassed((r.status, r.out + r.err))
    }

    @Test("C++ (c++): the same as C", arguments: ["c++03", "c++11", "c++17"])
    func cxx(_ std: String) throws {
        let program = try CPrograms.build("abi_check_\(std)", sources: [Self.cxxSource], cxx: true, extra: ["-std=\(std)"])
        let r = try runProcess(program, [])
        try Self.expectAllPassed((r.status, r.out + r.err))
    }

    @Test("Clang, as C and as C++: the same as GCC", arguments: ["c99", "c11", "c++03", "c++11", "c++17"])
    func clang(_ std: String) throws {
        let cxx = std.hasPrefix("c++")
        let r = try Self.buildAndRun(
            "abi_check_clang_\(std)", compiler: cxx ? Self.clangCxx : Self.clangC, source: cxx ? Self.cxxSource : Self.source, std: std)
        try Self.expectAllPassed(r)
    }

    /// A compiler and its flags for a translation unit that includes only the umbrella header, and
    /// the warnings it may give (markers of their lines).
    struct Compile: Sendable, CustomTestStringConvertible {
        let compiler: String
        let language: String
        let flags: [String]
        var allowed: [String] = []
        var testDescription: String { "\(compiler) -x \(language) \(flags.joined(separator: " "))" }
    }

    /// Compiles a file that includes only <AudioToolbox/AudioToolbox.h> (and uses a few of its
    /// types, so that nothing is unused) with `compile`; the compiler's status and output.
    static func compileUmbrella(_ compile: Compile) throws -> (status: Int32, out: String) {
        let file = CPrograms.scratch.appendingPathComponent("umbrella_only-\(UUID().uuidString).c")
        defer { try? FileManager.default.removeItem(at: file) }
        let text = """
            #include <AudioToolbox/AudioToolbox.h>

            int main(void) {
                AudioStreamBasicDescription format;
                AudioQueueRef queue = NULL;
                memset(&format, 0, sizeof format);
                format.mFormatID = kAudioFormatLinearPCM;
                return (int)(format.mFormatID != kAudioFormatLinearPCM) + (queue != NULL);
            }

            """
        try Data(text.utf8).write(to: file)
        let arguments = ["-x", compile.language] + compile.flags
            + ["-fsyntax-only"] + CPrograms.strictIncludeFlags + [file.path]
        let r = try runProcess(compile.compiler, arguments)
        return (r.status, r.err + r.out)
    }

    static let warningFreeCompiles: [Compile] = [
        Compile(compiler: "/usr/bin/gcc", language: "c", flags: ["-std=c99", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: "/usr/bin/gcc", language: "c", flags: ["-std=c11", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: clangC, language: "c", flags: ["-std=c11", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: "/usr/bin/g++", language: "c++", flags: ["-std=c++03", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: "/usr/bin/g++", language: "c++", flags: ["-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]),
        Compile(compiler: "/usr/bin/g++", language: "c++", flags: ["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]),
        Compile(compiler: clangCxx, language: "c++", flags: ["-std=c++03", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: clangCxx, language: "c++", flags: ["-std=c++11", "-Wall", "-Wextra", "-Werror"]),
        Compile(compiler: clangCxx, language: "c++", flags: ["-std=c++17", "-Wall", "-Wextra", "-Werror"]),
    ]

    @Test("The umbrella header compiles without a warning", arguments: warningFreeCompiles)
    func warningFree(_ compile: Compile) throws {
        let r = try Self.compileUmbrella(compile)
        #expect(r.status == 0, "\(r.out)")
        #expect(!r.out.contains("warning"), "\(r.out)")
    }

    /// With -Wpedantic, and the headers seen as ordinary ones (-I; `audiotoolbox-config` gives
    /// them as system headers, which hides all of it), C compilers may warn about what Apple's API
    /// itself is written with and ISO C (before C23) lacks: enumerators beyond int's range
    /// (0xFFFFFFFF labels and tags, 0x80000000 flags) and, with Clang, enumerations with a fixed
    /// underlying type (both declared with `__extension__`, which silences them) and the
    /// nullability qualifiers. Nothing else.
    static let pedanticCompiles: [Compile] = [
        Compile(compiler: "/usr/bin/gcc", language: "c", flags: ["-std=c11", "-Wall", "-Wextra", "-Wpedantic"],
                allowed: ["ISO C restricts enumerator values to range of"]),
        Compile(compiler: clangC, language: "c", flags: ["-std=c11", "-Wall", "-Wextra", "-Wpedantic"],
                allowed: ["[-Wc23-extensions]", "[-Wc2x-extensions]", "[-Wfixed-enum-extension]", "[-Wnullability-extension]"]),
        Compile(compiler: clangCxx, language: "c++", flags: ["-std=c++17", "-Wall", "-Wextra", "-Wpedantic"],
                allowed: ["[-Wnullability-extension]"]),
    ]

    @Test("-Wpedantic warns only about the extensions Apple's API is written with", arguments: pedanticCompiles)
    func pedanticWarnings(_ compile: Compile) throws {
        let r = try Self.compileUmbrella(compile)
        #expect(r.status == 0, "\(r.out)")
        let warnings = r.out.split(separator: "\n").filter { $0.contains("warning:") }
        let others = warnings.filter { line in !compile.allowed.contains { line.contains($0) } }
        #expect(others.isEmpty, "\(others.joined(separator: "\n"))")
    }
}
