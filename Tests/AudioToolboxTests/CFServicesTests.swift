import AudioToolbox
import Foundation
import ProcessSupport
import Testing

/// The CoreFoundation services an engine's audio driver uses beside audio (C/cf_services.c,
/// under AddressSanitizer): run loop timers that fire on their loop's thread in their modes and
/// stop it after a counted number of fires; the local and Darwin notification centres;
/// preferences falling back to defaults and keeping what the process sets; the main bundle as
/// the executable's directory; and misuse, which never crashes.
@Suite("C API: CoreFoundation services")
struct CFServicesTests {
    static let program = Result {
        try CPrograms.build(
            "cf_services", sources: ["Tests/AudioToolboxTests/C/cf_services.c"],
            extra: ["-pthread", "-fsanitize=address", "-fno-omit-frame-pointer"])
    }

    /// The same program as C++ (engines are mostly written in it).
    static let cxxProgram = Result {
        try CPrograms.build("cf_services_cxx", sources: ["Tests/AudioToolboxTests/C/cf_services.c"], cxx: true, extra: ["-pthread"])
    }

    @Test("Each part", arguments: ["timer", "notify", "prefs", "bundle", "misuse"], [false, true])
    func part(_ mode: String, cxx: Bool) throws {
        let r = try runProcess(try (cxx ? Self.cxxProgram : Self.program).get(), [mode])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed") && !r.out.hasPrefix("0 passed"), "\(r.out)")
    }

    @Test("From Swift under Apple's names: a one-shot timer fires on the current run loop; an unset preference reads as its default")
    func swiftNames() throws {
        let fired = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { fired.deallocate() }
        fired.pointee = 0
        var context = CFRunLoopTimerContext(version: 0, info: UnsafeMutableRawPointer(fired), retain: nil, release: nil, copyDescription: nil)
        let timer = try #require(CFRunLoopTimerCreate(nil, CFAbsoluteTimeGetCurrent(), 0, 0, 0, { _, info in
            info!.assumingMemoryBound(to: Int.self).pointee += 1
        }, &context))
        let mode = CFStringCreateWithCString(nil, "swift-names-\(UUID().uuidString)", CFStringBuiltInEncodings.UTF8.rawValue)!
        CFRunLoopAddTimer(CFRunLoopGetCurrent(), timer, mode)
        CFRunLoopRunInMode(mode, 5, false)
        #expect(fired.pointee == 1 && !CFRunLoopTimerIsValid(timer))
        CFRelease(UnsafeRawPointer(timer))
        CFRelease(UnsafeRawPointer(mode))
        var valid = true
        let key = CFStringCreateWithCString(nil, "swift-names-unset", CFStringBuiltInEncodings.UTF8.rawValue)!
        #expect(CFPreferencesGetAppIntegerValue(key, kCFPreferencesCurrentApplication, &valid) == 0 && !valid)
        CFRelease(UnsafeRawPointer(key))
    }
}
