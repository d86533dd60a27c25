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

    @Test("Each part", arguments: ["timer", "notify", "prefs", "bundle", "misuse"])
    func part(_ mode: String) throws {
        let r = try runProcess(try Self.program.get(), [mode])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed") && !r.out.hasPrefix("0 passed"), "\(r.out)")
    }
}
