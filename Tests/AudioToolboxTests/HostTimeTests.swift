import Foundation
import ProcessSupport
import Testing

/// <CoreAudio/HostTime.h> and <mach/mach_time.h>, which Mac audio code reads host times with:
/// checked by C/host_time.c against clock_gettime and a queue's own time stamps.
@Suite("Host time")
struct HostTimeTests {
    @Test("The host clock is CLOCK_MONOTONIC in nanoseconds, mach_absolute_time reads it, and queue time stamps count it")
    func hostClock() throws {
        let program = try CPrograms.build("host_time", sources: ["Tests/AudioToolboxTests/C/host_time.c"])
        let r = try runProcess(program, [], environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("12 passed, 0 failed"), "\(r.out)\(r.err)")
    }
}
