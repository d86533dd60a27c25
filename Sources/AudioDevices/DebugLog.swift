#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The package's debug log: with `AUDIOQUEUE_DEBUG=1` in the environment (any value but empty
/// or `0`), one line per event on standard error, each starting `audioqueue: `; otherwise
/// nothing, and the message is not even built.
///
/// A line is built (allocated) and written with one `write(2)`, so lines from several threads
/// do not interleave. Real-time threads log only as they start or change their scheduling,
/// never per period.
package enum DebugLog {
    /// Whether `AUDIOQUEUE_DEBUG` asks for the log (read once).
    package static let isEnabled: Bool = {
        guard let value = getenv("AUDIOQUEUE_DEBUG") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Writes `message` as a line of the log when it is enabled.
    package static func log(_ message: @autoclosure () -> String) {
        guard isEnabled else { return }
        var line = "audioqueue: " + message() + "\n"
        line.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let n = write(2, rest.baseAddress, rest.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            }
        }
    }
}
