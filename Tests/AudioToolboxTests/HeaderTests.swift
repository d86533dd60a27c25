import Foundation
import ProcessSupport
import Testing

/// The headers a Mac provides beside AudioToolbox's own: each compiles alone as C and as C++
/// with GCC and Clang without a warning; <AudioToolbox/AudioToolbox.h> brings in the C library
/// headers a Mac's CoreFoundation includes; CFByteOrder.h converts as Apple's does;
/// <TargetConditionals.h> has macOS's values; and a C++ program written as Apple's
/// AudioFileStreamExample is (listener with `UInt32 *ioFlags`, parse flags `0`) compiles and runs
/// in every C++ language mode.
@Suite("Mac headers")
struct HeaderTests {
    static let headers = [
        "CoreFoundation/CoreFoundation.h", "CoreFoundation/CFBase.h", "CoreFoundation/CFAvailability.h",
        "CoreFoundation/CFByteOrder.h", "CoreFoundation/CFString.h", "CoreFoundation/CFURL.h",
        "CoreFoundation/CFRunLoop.h", "CoreAudio/CoreAudio.h", "CoreAudio/CoreAudioTypes.h",
        "CoreServices/CoreServices.h", "TargetConditionals.h", "MacTypes.h", "AudioToolbox/AudioToolbox.h",
        "CoreAudio/AudioHardwareBase.h", "CoreAudio/AudioHardware.h", "CoreAudio/AudioHardwareDeprecated.h",
    ]

    /// A compiler, the language it compiles and its standard.
    struct Mode: Sendable, CustomTestStringConvertible {
        let compiler: String
        let language: String
        let std: String
        var testDescription: String { "\((compiler as NSString).lastPathComponent) -std=\(std)" }
        var cxx: Bool { language == "c++" }
    }

    static let modes: [Mode] = [
        Mode(compiler: "/usr/bin/gcc", language: "c", std: "c99"),
        Mode(compiler: "/usr/bin/gcc", language: "c", std: "c11"),
        Mode(compiler: ABITests.clangC, language: "c", std: "c99"),
        Mode(compiler: ABITests.clangC, language: "c", std: "c11"),
        Mode(compiler: "/usr/bin/g++", language: "c++", std: "c++03"),
        Mode(compiler: "/usr/bin/g++", language: "c++", std: "c++11"),
        Mode(compiler: "/usr/bin/g++", language: "c++", std: "c++17"),
        Mode(compiler: ABITests.clangCxx, language: "c++", std: "c++03"),
        Mode(compiler: ABITests.clangCxx, language: "c++", std: "c++11"),
        Mode(compiler: ABITests.clangCxx, language: "c++", std: "c++17"),
    ]
    static let cxxModes = modes.filter(\.cxx)

    /// Compiles `source` (a path, or text when `text`) in `mode` with -Wall -Wextra -Werror; links
    /// against the library unless `syntaxOnly`. The compiler's status and output, and the program.
    static func compile(_ source: String, name: String, mode: Mode, syntaxOnly: Bool = false) throws -> (status: Int32, out: String, program: String) {
        let program = CPrograms.scratch.appendingPathComponent("\(name)-\(mode.std)-\((mode.compiler as NSString).lastPathComponent)").path
        var arguments = ["-x", mode.language, "-std=\(mode.std)", "-Wall", "-Wextra", "-Werror", source]
        if syntaxOnly {
            arguments = ["-fsyntax-only"] + arguments + CPrograms.includeFlags
        } else {
            guard !CPrograms.flags.isEmpty else { throw CPrograms.Failure(description: CPrograms.missingLibrary) }
            arguments += CPrograms.flags + ["-lm", "-o", program]
        }
        let r = try runProcess(mode.compiler, arguments)
        return (r.status, r.err + r.out, program)
    }

    @Test("Each header compiles alone without a warning", arguments: headers)
    func alone(_ header: String) throws {
        let file = CPrograms.scratch.appendingPathComponent("alone-\(UUID().uuidString).c")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("#include <\(header)>\n\nint main(void) { return 0; }\n".utf8).write(to: file)
        for mode in Self.modes {
            let r = try Self.compile(file.path, name: "alone", mode: mode, syntaxOnly: true)
            #expect(r.status == 0 && !r.out.contains("warning"), "\(mode.testDescription) <\(header)>:\n\(r.out)")
        }
    }

    /// Builds and runs one of the programs in C/ in `mode`; its status and output.
    static func run(_ program: String, mode: Mode, arguments: [String] = []) throws -> (status: Int32, out: String) {
        let built = try compile(CPrograms.path("Tests/AudioToolboxTests/C/\(program)"), name: program, mode: mode)
        guard built.status == 0 else {
            throw CPrograms.Failure(description: "\(mode.testDescription) \(program) failed to build:\n\(built.out)")
        }
        let r = try runProcess(built.program, arguments)
        return (r.status, r.out + r.err)
    }

    @Test("A program that includes only AudioToolbox.h uses isprint, bool, errno, va_list, time, INT_MAX, PRIu32, assert",
          arguments: modes)
    func cLibrary(_ mode: Mode) throws {
        let r = try Self.run("umbrella_libc.c", mode: mode)
        #expect(r.status == 0 && r.out == "ok\n", "\(r.out)")
    }

    @Test("CFByteOrder.h's functions give Apple's byte orders", arguments: modes)
    func byteOrder(_ mode: Mode) throws {
        let r = try Self.run("byte_order.c", mode: mode)
        #expect(r.status == 0 && r.out == "ok\n", "\(r.out)")
    }

    @Test("TargetConditionals.h: TARGET_OS_OSX is 1, TARGET_OS_IPHONE 0, the CPU the real one", arguments: modes)
    func targetConditionals(_ mode: Mode) throws {
        let r = try Self.run("target_conditionals.c", mode: mode)
        #if arch(x86_64)
        let cpu = "TARGET_CPU_X86_64"
        #else
        let cpu = "TARGET_CPU_ARM64"
        #endif
        #expect(r.status == 0 && r.out == "ok \(cpu)\n", "\(r.out)")
    }

    /// chime.caf holds 88200 frames with 2112 priming and 824 remainder frames (what afinfo
    /// reports, see SwiftSignatureTests): 91136 frames, 89 AAC packets of 1024.
    @Test("A C++ program in the style of Apple's AudioFileStreamExample compiles and streams a file", arguments: cxxModes)
    func streamExample(_ mode: Mode) throws {
        let r = try Self.run("stream_example.cpp", mode: mode, arguments: [CPrograms.path("Examples/Sounds/chime.caf")])
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.hasPrefix("packets 89 ready 1 format 1 "), "\(r.out)")
        #expect(r.out.hasSuffix("ok\n"), "\(r.out)")
    }
}
