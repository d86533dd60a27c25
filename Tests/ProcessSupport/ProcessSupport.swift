import Foundation
import Synchronization

/// Runs a program (with `environment` applied to the test's own; an empty value removes a
/// variable) to its end and returns its status and what it wrote to standard output and error.
@discardableResult
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 600
) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = mergedEnvironment(environment) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // A program that hangs fails its test instead of holding up the whole run: it is killed
    // once `timeout` seconds have passed (its status then says the signal).
    let pid = process.processIdentifier
    let finished = DispatchSemaphore(value: 0)
    let killed = KilledFlag()
    Thread {
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            killed.set()
            kill(pid, SIGKILL)
        }
    }.start()
    // Both pipes are read at once: a program that fills one while the other is read first
    // (a compiler's 64 KB of warnings on standard error) would otherwise wait for ever.
    let errCollected = CollectedData()
    let errDone = DispatchSemaphore(value: 0)
    let errHandle = err.fileHandleForReading
    Thread {
        errCollected.store(errHandle.readDataToEndOfFile())
        errDone.signal()
    }.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    let errData = errCollected.data
    process.waitUntilExit()
    finished.signal()
    var errText = String(decoding: errData, as: UTF8.self)
    if killed.isSet { errText += "\nkilled after \(timeout) s: \(executable) did not end" }
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), errText)
}

/// Bytes one thread reads and another takes.
private final class CollectedData: Sendable {
    private let value = Mutex(Data())
    func store(_ data: Data) { value.withLock { $0 = data } }
    var data: Data { value.withLock { $0 } }
}

/// A flag one thread sets and another reads.
private final class KilledFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// The test's environment with `changes` applied; an empty value removes the variable.
public func mergedEnvironment(_ changes: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in changes {
        if value.isEmpty { env[key] = nil } else { env[key] = value }
    }
    return env
}
