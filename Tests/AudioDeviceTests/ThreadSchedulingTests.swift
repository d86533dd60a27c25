import Foundation
import Testing
import AudioDevices
import AudioTestSupport
import Locking

/// What the device and queue threads ask of the scheduler and get (`ThreadScheduler`): each
/// report is checked against what the kernel says from inside the thread. No sound server
/// needed.
@Suite("Thread scheduling")
struct ThreadSchedulingTests {
    /// Linux's resource limits that Glibc's module does not name (`<bits/resource.h>`).
    enum Limit {
        static let nice = __rlimit_resource_t(13)
        static let rtprio = __rlimit_resource_t(14)
        static let rttime = __rlimit_resource_t(15)
    }

    /// What the kernel says of the calling thread: its policy (without SCHED_RESET_ON_FORK),
    /// real-time priority and nice level, and the policy in /proc/self/task/TID/stat.
    struct Observed: Sendable, Equatable {
        var policy: Int32
        var priority: Int32
        var nice: Int32
        var procPolicy: Int32?

        static func current() -> Observed {
            let raw = sched_getscheduler(0)
            var param = sched_param()
            _ = sched_getparam(0, &param)
            let tid = ThreadScheduler.currentThreadID
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid))
            return Observed(
                policy: raw & ~ThreadScheduler.resetOnFork, priority: param.sched_priority, nice: nice, procPolicy: procPolicy(tid))
        }

        /// Field 41 of the thread's stat line (fields after the command's closing parenthesis).
        static func procPolicy(_ tid: UInt64) -> Int32? {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Field 3 (state) is the first after the command; field 41 is 38 further on.
            guard fields.count > 38 else { return nil }
            return Int32(fields[38])
        }

        /// Whether the kernel agrees with `report`.
        func agrees(with report: ThreadScheduling) -> Bool {
            guard procPolicy == nil || procPolicy == policy else { return false }
            switch report {
            case .realTime(let p, _): return policy == report.policy && priority == p
            case .raisedPriority(let n, _): return policy == SCHED_OTHER && nice == n
            case .normal: return policy == SCHED_OTHER
            }
        }
    }

    /// Whether this process may set SCHED_FIFO at `priority` itself: CAP_SYS_NICE (bit 23 of
    /// the effective set) or an RLIMIT_RTPRIO at least that high.
    static func kernelGrants(priority: Int32) -> Bool {
        var limit = rlimit()
        if getrlimit(Limit.rtprio, &limit) == 0, limit.rlim_cur >= rlim_t(priority) { return true }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let caps = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return caps & (1 << 23) != 0
    }

    /// Runs `body` on an IOThread with `priority` and returns what the thread reported and
    /// what `body` observed, after joining it.
    static func run(
        _ priority: ThreadPriority, _ body: @escaping @Sendable (IOThread.Schedule) -> Observed = { _ in .current() }
    ) throws -> (reported: ThreadScheduling?, observed: Observed?) {
        let seen = Guarded<Observed?>(nil)
        let thread = try IOThread(name: "aq.test", priority: priority, scheduled: { schedule in
            let o = body(schedule)
            seen.withLock { $0 = o }
        })
        thread.join()
        return (thread.scheduling, seen.withLock { $0 })
    }

    /// A thread that asks for real-time reports what it got, the kernel agrees, and where the
    /// kernel grants it to this process it is SCHED_FIFO at the I/O loops' priority.
    @Test func realTimeReportMatchesTheKernel() throws {
        let (reported, observed) = try Self.run(.deviceIO)
        let report = try #require(reported)
        let seen = try #require(observed)
        #expect(seen.agrees(with: report), "reported \(report), the kernel says \(seen)")
        if ThreadScheduler.isEnabled && Self.kernelGrants(priority: 4) {
            #expect(report == .realTime(priority: 4, grantedBy: .kernel))
            #expect(seen.policy == SCHED_FIFO)
        }
    }

    /// A thread that asks for nothing is left as it was made: SCHED_OTHER, reported normal.
    @Test func normalThreadAsksForNothing() throws {
        let (reported, observed) = try Self.run(.normal)
        #expect(reported == .normal)
        #expect(observed?.policy == SCHED_OTHER)
    }

    /// A queue thread changes its scheduling as its device changes: real-time, back to normal
    /// (SCHED_OTHER at nice 0), and real-time again, the kernel agreeing each time.
    @Test func changingBackAndForth() throws {
        let (_, observed) = try Self.run(.pipeline) { schedule in
            let first = Observed.current()
            let firstReport = schedule.scheduling
            schedule.change(to: .normal)
            let normal = Observed.current()
            let normalReport = schedule.scheduling
            schedule.change(to: .pipeline)
            let again = Observed.current()
            let agreed = firstReport.map(first.agrees) == true && normalReport == .normal && normal.policy == SCHED_OTHER
                && normal.nice == 0 && schedule.scheduling.map(again.agrees) == true && schedule.priority == .pipeline
            return agreed ? again : Observed(policy: -1, priority: -1, nice: -1)
        }
        let seen = try #require(observed)
        #expect(seen.policy != -1, "a report disagreed with the kernel")
        if ThreadScheduler.isEnabled && Self.kernelGrants(priority: 3) {
            #expect(seen.policy == SCHED_FIFO && seen.priority == 3)
        }
    }

    /// A thread a real-time thread makes (a libdispatch worker, a library's thread) does not
    /// inherit real-time scheduling: SCHED_RESET_ON_FORK.
    @Test func threadsMadeByARealTimeThreadAreNormal() throws {
        let child = Guarded<Observed?>(nil)
        let (reported, _) = try Self.run(.deviceIO) { _ in
            var inner = pthread_t()
            let box = Unmanaged.passRetained(child).toOpaque()
            _ = pthread_create(&inner, nil, { raw in
                let child = Unmanaged<Guarded<Observed?>>.fromOpaque(raw!).takeRetainedValue()
                let o = Observed.current()
                child.withLock { $0 = o }
                return nil
            }, box)
            pthread_join(inner, nil)
            return .current()
        }
        let seen = try #require(child.withLock { $0 })
        #expect(seen.policy == SCHED_OTHER, "the parent got \(String(describing: reported))")
        #expect(seen.nice == 0)
    }

    /// rtkit over a bus that is not there: a failure that says so, and the process's
    /// RLIMIT_RTTIME untouched (it is set only once rtkit has given its limits).
    @Test func rtkitWithoutABusFailsCleanly() {
        var before = rlimit(), after = rlimit()
        _ = getrlimit(Limit.rttime, &before)
        let result = RealtimeKit.makeRealtime(
            bus: "unix:path=/nonexistent/aq-test-bus", threadID: ThreadScheduler.currentThreadID, priority: 3)
        _ = getrlimit(Limit.rttime, &after)
        guard case .failure(let failure) = result else {
            Issue.record("rtkit granted real-time over a bus that does not exist")
            return
        }
        #expect(failure.message.contains("no bus"), "\(failure.message)")
        #expect(before.rlim_cur == after.rlim_cur && before.rlim_max == after.rlim_max)
        let nice = RealtimeKit.makeHighPriority(bus: "unix:path=/nonexistent/aq-test-bus", threadID: ThreadScheduler.currentThreadID, nice: -11)
        if case .success = nice { Issue.record("rtkit granted a nice level over a bus that does not exist") }
    }

    /// rtkit asked on a private bus where it does not run: the bus answers that no one
    /// provides the name, and the call fails (as on a machine without rtkit).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
    func rtkitAbsentFromTheBusFailsCleanly() throws {
        // Forked, the daemon prints its address and pid into a file and its first process exits.
        let printed = FileManager.default.temporaryDirectory.appendingPathComponent("aq-dbus-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: printed) }
        let started = try runProcess(
            "/bin/sh", ["-c", "exec /usr/bin/dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 >'\(printed.path)' 2>/dev/null </dev/null"],
            timeout: 60)
        try #require(started.status == 0, "dbus-daemon did not start: \(started.err)")
        let lines = try String(contentsOf: printed, encoding: .utf8).split(separator: "\n").map(String.init)
        let pid = try #require(lines.count >= 2 ? pid_t(lines[1]) : nil, "dbus-daemon printed \(lines)")
        // SIGKILL: a child of the test process may have inherited other signals blocked.
        defer { kill(pid, SIGKILL) }
        let bus = lines[0]
        let result = RealtimeKit.makeRealtime(bus: bus, threadID: ThreadScheduler.currentThreadID, priority: 3)
        guard case .failure(let failure) = result else {
            Issue.record("rtkit answered on a private bus that has no rtkit")
            return
        }
        #expect(failure.message.contains("org.freedesktop.RealtimeKit1"), "\(failure.message)")
    }

    /// The null device's loop asks for real-time only when paced by the clock: unpaced, it
    /// never sleeps.
    @Test(arguments: [AudioDevicePacing.realTime, .unpaced])
    func nullDeviceLoop(pacing: AudioDevicePacing) throws {
        let device = try NullDevice(sampleRate: 48000, channels: 1, pacing: pacing, periodFrames: 480)
        let source = EndlessSilence()
        try device.start(source: source)
        defer { device.stop(drain: false) }
        #expect(eventually { device.ioThreadScheduling != nil })
        let got = try #require(device.ioThreadScheduling)
        if pacing == .unpaced {
            #expect(got == .normal)
        } else if ThreadScheduler.isEnabled && Self.kernelGrants(priority: 4) {
            #expect(got == .realTime(priority: 4, grantedBy: .kernel))
        }
    }

    /// Without a privilege to give up, the chain that falls through to normal scheduling runs
    /// in a child without CAP_SYS_NICE (RLIMIT_RTPRIO and RLIMIT_NICE as they are, 0 here),
    /// and its debug log says what each attempt got.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getuid() == 0))
    func unprivilegedChildLogsEachRefusal() throws {
        var rtprio = rlimit(), nice = rlimit()
        _ = getrlimit(Limit.rtprio, &rtprio)
        _ = getrlimit(Limit.nice, &nice)
        let chime = packageRoot.appendingPathComponent("Examples/Sounds/chime.caf").path
        let result = try runProcess(
            "/usr/bin/setpriv", ["--inh-caps=-sys_nice", "--bounding-set=-sys_nice", aqplay, "--backend", "null", chime],
            environment: ["AUDIOQUEUE_DEBUG": "1", "AUDIOQUEUE_REALTIME": "1", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/aq-test-bus"],
            timeout: 120)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.err.split(separator: "\n").filter { $0.hasPrefix("audioqueue: thread aq.") }
        let render = lines.first { $0.contains("aq.render") }
        let io = lines.first { $0.contains("aq.null") }
        #expect(render != nil && io != nil, "\(result.err)")
        for line in [render, io].compactMap({ $0 }) {
            if rtprio.rlim_cur >= 4 {
                #expect(line.contains("real-time (SCHED_FIFO"), "\(line)")
            } else if nice.rlim_cur >= 31 {
                #expect(line.contains("raised priority (nice -11)"), "\(line)")
                #expect(line.contains("SCHED_FIFO: Operation not permitted"), "\(line)")
            } else {
                #expect(line.contains("normal scheduling (refused: SCHED_FIFO: Operation not permitted; rtkit real-time: no bus"), "\(line)")
                #expect(line.contains("nice -11: Permission denied; rtkit nice: no bus"), "\(line)")
            }
        }
    }
}

/// A source that never ends and never runs dry.
private final class EndlessSilence: AudioRenderSource, @unchecked Sendable {
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        buffer.update(repeating: 0, count: frameCount)
        return frameCount
    }

    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {}
}
