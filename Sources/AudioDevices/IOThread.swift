#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Locking

/// A joinable thread running one closure: device I/O loops and the queue's render and capture
/// threads.
///
/// The thread is named (as `top -H` and `/proc/<pid>/task/<tid>/comm` show it) and, before
/// the closure runs, asks for the scheduling of its ``ThreadPriority`` (``ThreadScheduler``);
/// what it got is ``scheduling``.
package final class IOThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let name: String
    /// What the thread asked for and got; its own to change (``Schedule/change(to:)``).
    package let schedule: Schedule

    /// A thread's scheduling: what it asked for and what it got, recorded by the thread itself.
    package final class Schedule: Sendable {
        private let name: String
        private let state: Guarded<(asked: ThreadPriority, got: ThreadScheduling)?>

        init(name: String) {
            self.name = name
            state = Guarded(nil)
        }

        /// What the thread got; nil until it has started.
        package var scheduling: ThreadScheduling? { state.withLock { $0?.got } }

        /// What the thread asked for; nil until it has started.
        package var priority: ThreadPriority? { state.withLock { $0?.asked } }

        /// On the thread itself: asks for `priority` unless it is what the thread asked for
        /// last. Not for every period: it makes system calls, and logs.
        package func change(to priority: ThreadPriority) {
            if state.withLock({ $0?.asked }) == priority { return }
            let got: ThreadScheduling
            if priority == .normal && state.withLock({ $0 == nil || $0!.got == .normal }) {
                // Left as it was made (a program's own nice level stays).
                got = .normal
                DebugLog.log("thread \(name) [\(ThreadScheduler.currentThreadID)]: normal scheduling (not paced by a clock)")
            } else {
                got = ThreadScheduler.apply(priority, name: name)
            }
            state.withLock { $0 = (priority, got) }
        }
    }

    private final class Body {
        let run: @Sendable (Schedule) -> Void
        let name: String
        let priority: ThreadPriority
        let schedule: Schedule
        init(_ run: @escaping @Sendable (Schedule) -> Void, name: String, priority: ThreadPriority, schedule: Schedule) {
            self.run = run
            self.name = name
            self.priority = priority
            self.schedule = schedule
        }
    }

    /// Starts `body` on a new thread called `name` (at most 15 bytes are shown by the system)
    /// with `priority`.
    package convenience init(
        name: String, priority: ThreadPriority = .normal, _ body: @escaping @Sendable () -> Void
    ) throws(AudioDeviceError) {
        try self.init(name: name, priority: priority, scheduled: { _ in body() })
    }

    /// Starts `body` on a new thread called `name` with `priority`; `body` gets the thread's
    /// ``Schedule``, to change its priority later (a queue's thread whose device changes).
    package init(
        name: String, priority: ThreadPriority, scheduled body: @escaping @Sendable (Schedule) -> Void
    ) throws(AudioDeviceError) {
        self.name = name
        schedule = Schedule(name: name)
        let box = Unmanaged.passRetained(Body(body, name: name, priority: priority, schedule: schedule)).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            ThreadScheduler.nameCurrentThread(body.name)
            body.schedule.change(to: body.priority)
            body.run(body.schedule)
            return nil
        }, box)
        if status != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            throw AudioDeviceError(.openFailed, "cannot start thread \(name): error \(status)")
        }
    }

    /// What the thread got from the scheduler; nil until it has started (after ``join()``,
    /// never nil).
    package var scheduling: ThreadScheduling? { schedule.scheduling }

    /// True when called on this thread.
    package var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    private var settled = false

    /// Waits for the closure to return. Must not be called on the thread itself.
    package func join() {
        guard !settled else { return }
        settled = true
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, releasing its resources when it does.
    package func detach() {
        guard !settled else { return }
        settled = true
        pthread_detach(thread)
    }

    deinit { detach() }
}

extension Guarded where State == IOThread? {
    /// Takes the thread out and lets it end: waits for it, or, called from the thread itself,
    /// detaches it (it ends when its closure returns). Nothing when there is none.
    package func endThread() {
        let t = withLock { t -> IOThread? in
            defer { t = nil }
            return t
        }
        guard let t else { return }
        if t.isCurrent { t.detach() } else { t.join() }
    }
}
