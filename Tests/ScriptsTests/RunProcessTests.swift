import Foundation
import Testing
import ProcessSupport

/// The test support that runs the package's programs and the reference tools.
@Suite("Running programs")
struct RunProcessTests {
    /// A program that does not end is killed once its time-out has passed, and says so: a
    /// hang fails its test instead of holding up the whole run.
    @Test func aProgramThatHangsIsKilled() throws {
        let result = try runProcess("/bin/sleep", ["30"], timeout: 0.5)
        #expect(result.status == SIGKILL, "status \(result.status)")
        #expect(result.err.contains("killed after 0.5 s"), "\(result.err)")
    }

    /// One that ends in time is left alone, its output whole.
    @Test func aProgramThatEndsIsLeftAlone() throws {
        let result = try runProcess("/bin/sh", ["-c", "echo out; echo err >&2"], timeout: 30)
        #expect(result.status == 0)
        #expect(result.out == "out\n" && result.err == "err\n", "\(result)")
    }
}
