import Foundation
import ProcessSupport
import Testing

/// The headers a Mac provides beside AudioToolbox's own: each compiles alone as C and as C++
/// with GCC and Clang without a warning — with -Wall -Wextra where the compiler sees them as the
/// package's own headers (-I), and with -pedantic too where it sees them as
/// `audiotoolbox-config` gives them (-isystem, as a Mac's SDK); <AudioToolbox/AudioToolbox.h>
/// brings in the C library headers a Mac's CoreFoundation includes; CFByteOrder.h converts as
/// Apple's does; <TargetConditionals.h> has macOS's values; a C++ program written as Apple's
/// AudioFileStreamExample (listener with `UInt32 *ioFlags`, parse flags `0`) compiles and runs in
/// every C++ language mode; and a program written as a macOS audio driver is (Availability
/// macros, Carbon, AudioUnit types, channel layout tags, OSAtomic, result codes) compiles with
/// -pedantic in every mode and finds Apple's values; and a program calling every audio unit,
/// AUGraph and Component Manager function compiles against Apple's prototypes.
@Suite("Mac headers")
struct HeaderTests {
    static let headers = [
        "CoreFoundation/CoreFoundation.h", "CoreFoundation/CFBase.h", "CoreFoundation/CFAvailability.h",
        "CoreFoundation/CFByteOrder.h", "CoreFoundation/CFString.h", "CoreFoundation/CFURL.h",
        "CoreFoundation/CFRunLoop.h", "CoreFoundation/CFDate.h", "CoreFoundation/CFNotificationCenter.h",
        "CoreFoundation/CFPreferences.h", "CoreFoundation/CFBundle.h", "CoreAudio/CoreAudio.h", "CoreAudio/CoreAudioTypes.h", "CoreAudio/HostTime.h",
        "CoreServices/CoreServices.h", "TargetConditionals.h", "MacTypes.h", "AudioToolbox/AudioToolbox.h",
        "AudioToolbox/CoreAudioTypes.h", "CoreAudioTypes/CoreAudioTypes.h", "CoreAudioTypes/CoreAudioBaseTypes.h", "AvailabilityMacros.h", "Availability.h", "AvailabilityInternal.h",
        "AvailabilityVersions.h", "os/availability.h", "CarbonCore/MacErrors.h", "CarbonCore/Components.h",
        "CarbonCore/CarbonCore.h", "Carbon/Carbon.h", "AudioUnit/AudioUnit.h", "AudioUnit/AUComponent.h",
        "AudioUnit/AudioComponent.h", "AudioUnit/AudioUnitProperties.h", "AudioUnit/AudioOutputUnit.h",
        "AudioUnit/AudioUnitParameters.h", "AudioUnit/MusicDevice.h", "AudioToolbox/AudioUnit.h",
        "AudioToolbox/AudioComponent.h", "AudioToolbox/AUComponent.h", "AudioToolbox/AudioUnitProperties.h",
        "AudioToolbox/AudioOutputUnit.h", "AudioToolbox/AudioUnitParameters.h", "AudioToolbox/MusicDevice.h",
        "AudioToolbox/AUGraph.h", "AudioUnit/AUGraph.h",
        "libkern/OSAtomic.h", "os/workgroup.h",
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

    /// Compiles `source` (a path) in `mode` with -Wall -Wextra -Werror (and -pedantic when
    /// `pedantic`, and `extra`); links against the library unless `syntaxOnly` or `objectOnly`
    /// (which stops at an object file: -c), which see the headers through `includeFlags`
    /// (audiotoolbox-config's -isystem by default). The compiler's status and output, and the
    /// program (or object file).
    static func compile(_ source: String, name: String, mode: Mode, syntaxOnly: Bool = false, objectOnly: Bool = false,
                        pedantic: Bool = false, extra: [String] = [],
                        includeFlags: [String] = CPrograms.includeFlags) throws -> (status: Int32, out: String, program: String) {
        let suffix = extra.joined().replacingOccurrences(of: "-", with: "")
        let program = CPrograms.scratch.appendingPathComponent(
            "\(name)-\(mode.std)-\((mode.compiler as NSString).lastPathComponent)\(suffix)\(objectOnly ? ".o" : "")").path
        var arguments = ["-x", mode.language, "-std=\(mode.std)", "-Wall", "-Wextra", "-Werror"] + (pedantic ? ["-pedantic"] : [])
            + extra + [source]
        if syntaxOnly {
            arguments = ["-fsyntax-only"] + arguments + includeFlags
        } else if objectOnly {
            arguments = ["-c"] + arguments + includeFlags + ["-o", program]
        } else {
            guard !CPrograms.flags.isEmpty else { throw CPrograms.Failure(description: CPrograms.missingLibrary) }
            arguments += CPrograms.flags + ["-o", program]
        }
        let r = try runProcess(mode.compiler, arguments)
        return (r.status, r.err + r.out, program)
    }

    @Test("Each header compiles alone without a warning: -Wall -Wextra as the package's, and -pedantic as the SDK's", arguments: headers)
    func alone(_ header: String) throws {
        let file = CPrograms.scratch.appendingPathComponent("alone-\(UUID().uuidString).c")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("#include <\(header)>\n\nint main(void) { return 0; }\n".utf8).write(to: file)
        for mode in Self.modes {
            let strict = try Self.compile(file.path, name: "alone", mode: mode, syntaxOnly: true, includeFlags: CPrograms.strictIncludeFlags)
            #expect(strict.status == 0 && !strict.out.contains("warning"), "\(mode.testDescription) -I <\(header)>:\n\(strict.out)")
            let pedantic = try Self.compile(file.path, name: "alone", mode: mode, syntaxOnly: true, pedantic: true)
            #expect(pedantic.status == 0 && !pedantic.out.contains("warning"), "\(mode.testDescription) -pedantic <\(header)>:\n\(pedantic.out)")
        }
    }

    /// Builds and runs one of the programs in C/ in `mode`; its status and output.
    static func run(_ program: String, mode: Mode, pedantic: Bool = false, arguments: [String] = []) throws -> (status: Int32, out: String) {
        let built = try compile(CPrograms.path("Tests/AudioToolboxTests/C/\(program)"), name: program, mode: mode, pedantic: pedantic)
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

    /// mac_audio_driver.c checks every value against Apple's (see the program): versions, result
    /// codes, audio unit types and constants, AAC descriptions, channel layout tags and their
    /// channels through Audio Format Services, OSAtomic, workgroups and the host clock.
    @Test("A program written as a macOS audio driver compiles with -pedantic and finds Apple's values", arguments: modes)
    func macAudioDriver(_ mode: Mode) throws {
        let r = try Self.run("mac_audio_driver.c", mode: mode, pedantic: true)
        #expect(r.status == 0 && r.out == "ok\n", "\(mode.testDescription):\n\(r.out)")
    }

    /// The functions of Apple's 64-bit audio unit headers (AudioComponent.h, AUComponent.h,
    /// AudioOutputUnit.h), AUGraph.h and the Component Manager calls of Components.h that find and
    /// open audio units, by the names a Mac's SDK declares them with.
    static let audioUnitFunctions: [String] = [
        "AudioComponentFindNext", "AudioComponentCount", "AudioComponentCopyName", "AudioComponentGetDescription",
        "AudioComponentGetVersion", "AudioComponentInstanceNew", "AudioComponentInstanceDispose",
        "AudioComponentInstanceGetComponent", "AudioComponentInstanceCanDo", "AudioComponentRegister",
        "AudioComponentCopyConfigurationInfo",
        "AudioUnitInitialize", "AudioUnitUninitialize", "AudioUnitGetPropertyInfo", "AudioUnitGetProperty",
        "AudioUnitSetProperty", "AudioUnitAddPropertyListener", "AudioUnitRemovePropertyListenerWithUserData",
        "AudioUnitAddRenderNotify", "AudioUnitRemoveRenderNotify", "AudioUnitGetParameter", "AudioUnitSetParameter",
        "AudioUnitScheduleParameters", "AudioUnitRender", "AudioUnitProcess", "AudioUnitProcessMultiple", "AudioUnitReset",
        "AudioOutputUnitStart", "AudioOutputUnitStop",
        "NewAUGraph", "DisposeAUGraph", "AUGraphAddNode", "AUGraphRemoveNode", "AUGraphGetNodeCount", "AUGraphGetIndNode",
        "AUGraphNodeInfo", "AUGraphOpen", "AUGraphClose", "AUGraphIsOpen", "AUGraphInitialize", "AUGraphUninitialize",
        "AUGraphIsInitialized", "AUGraphStart", "AUGraphStop", "AUGraphIsRunning", "AUGraphConnectNodeInput",
        "AUGraphSetNodeInputCallback", "AUGraphDisconnectNodeInput", "AUGraphClearConnections",
        "AUGraphGetNumberOfInteractions", "AUGraphGetInteractionInfo", "AUGraphCountNodeInteractions",
        "AUGraphGetNodeInteractions", "AUGraphUpdate", "AUGraphGetCPULoad", "AUGraphGetMaxCPULoad",
        "AUGraphAddRenderNotify", "AUGraphRemoveRenderNotify",
        "FindNextComponent", "CountComponents", "GetComponentInfo", "OpenAComponent", "OpenComponent",
        "OpenADefaultComponent", "CloseComponent", "CallComponentVersion",
    ]

    /// audio_unit_calls.c declares every one of ``audioUnitFunctions`` again with the prototype of
    /// Apple's header (so that a declaration of ours that differs is a compile error) and calls
    /// it; compiled to an object file only, with -pedantic, in every mode (and with -fblocks under
    /// Clang, which declares AudioComponentInstantiate too): the object's undefined symbols are
    /// the functions' plain C names, so C++ sees them as extern "C".
    @Test("A program calling every audio unit, AUGraph and Component Manager function compiles with Apple's signatures",
          arguments: modes)
    func audioUnitCalls(_ mode: Mode) throws {
        let source = CPrograms.path("Tests/AudioToolboxTests/C/audio_unit_calls.c")
        let clang = mode.compiler.hasPrefix("/opt/swift/")
        for extra in clang ? [[], ["-fblocks"]] : [[]] {
            let built = try Self.compile(source, name: "audio_unit_calls", mode: mode, objectOnly: true, pedantic: true, extra: extra)
            #expect(built.status == 0 && !built.out.contains("warning"), "\(mode.testDescription) \(extra):\n\(built.out)")
            guard built.status == 0 else { continue }
            let symbols = try runProcess("/usr/bin/nm", ["-u", built.program])
            #expect(symbols.status == 0, "\(symbols.err)")
            let undefined = Set(symbols.out.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
            let expected = Self.audioUnitFunctions + (extra.isEmpty ? [] : ["AudioComponentInstantiate"])
            let missing = expected.filter { !undefined.contains($0) }
            #expect(missing.isEmpty, "\(mode.testDescription) \(extra): not referenced by their C names: \(missing)")
        }
    }

    /// Every declared audio unit, AUGraph and Component Manager function is defined by the
    /// library, so a program that calls it links (a declaration without a definition would only
    /// fail at link time, in the program's build).
    @Test("libAudioToolbox.so defines every audio unit, AUGraph and Component Manager function")
    func audioUnitFunctionsDefined() throws {
        let flag = CPrograms.flags.first { $0.hasPrefix("-L") }
        let directory = try #require(flag.map { String($0.dropFirst(2)) }, "\(CPrograms.missingLibrary)")
        let symbols = try runProcess("/usr/bin/nm", ["-D", "--defined-only", directory + "/libAudioToolbox.so"])
        #expect(symbols.status == 0, "\(symbols.err)")
        let defined = Set(symbols.out.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        let missing = Self.audioUnitFunctions.filter { !defined.contains($0) }
        #expect(missing.isEmpty, "not defined: \(missing)")
    }

    /// A program on libdispatch, as Mac audio code uses it to hand work off the render thread:
    /// `audiotoolbox-config` gives its include path and library.
    @Test("<dispatch/dispatch.h> compiles and links with audiotoolbox-config's flags", arguments: modes)
    func dispatch(_ mode: Mode) throws {
        let r = try Self.run("dispatch_queue.c", mode: mode, pedantic: true)
        #expect(r.status == 0 && r.out == "ok\n", "\(mode.testDescription):\n\(r.out)")
    }
}
