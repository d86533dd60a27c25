#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Locking

/// A joinable thread running one closure: device I/O loops and the queue's render thread.
package final class IOThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let name: String

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
        }
    }

    /// Starts `body` on a new thread called `name` (at most 15 bytes are shown by the system).
    package init(name: String, _ body: @escaping @Sendable () -> Void) throws(AudioDeviceError) {
        self.name = name
        let box = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        if status != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            throw AudioDeviceError(.openFailed, "cannot start thread \(name): error \(status)")
        }
    }

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
