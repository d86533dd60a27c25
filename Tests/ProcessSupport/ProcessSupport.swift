import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program (with `environment` applied to the test's own; an empty value removes a
/// variable) to its end and returns its status and what it wrote to standard output and error.
///
/// The program runs in a process group of its own, with standard input from /dev/null. A
/// program that hangs fails its test instead of holding up the whole run: once `timeout`
/// seconds have passed its whole group is killed (a compiler driver together with the compiler
/// it runs, which holds the same pipes open), and its status then says the signal.
@discardableResult
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 600
) throws -> (status: Int32, out: String, err: String) {
    let child = try SpawnedProcess(executable, arguments, environment: environment.isEmpty ? nil : mergedEnvironment(environment))
    let finished = DispatchSemaphore(value: 0)
    Thread {
        if finished.wait(timeout: .now() + timeout) == .timedOut { child.killGroup() }
    }.start()
    // Standard error is read on a thread of its own, so that a program writing more than a pipe
    // holds to one stream while the other is read (a compiler's warnings) does not block.
    let errBox = DataBox()
    let errRead = DispatchSemaphore(value: 0)
    let errDescriptor = child.err
    Thread {
        errBox.store(readToEnd(errDescriptor))
        errRead.signal()
    }.start()
    let outData = readToEnd(child.out)
    errRead.wait()
    let errData = errBox.load()
    let status = child.wait()
    finished.signal()
    var errText = String(decoding: errData, as: UTF8.self)
    if child.wasKilled { errText += "\nkilled after \(timeout) s: \(executable) did not end" }
    return (status, String(decoding: outData, as: UTF8.self), errText)
}

/// A program started with posix_spawn as the leader of a new process group, its standard output
/// and error on pipes (`out`, `err`: the reading ends, which ``readToEnd(_:)`` closes).
private final class SpawnedProcess: Sendable {
    let pid: pid_t
    let out: Int32
    let err: Int32
    /// Whether the program has been reaped (its group may then be gone and its id reused), and
    /// whether the time-out killed it.
    private let state = Mutex<(reaped: Bool, killed: Bool)>((false, false))

    /// `environment` nil: the test process's own.
    init(_ executable: String, _ arguments: [String], environment: [String: String]?) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard closeOnExecPipe(&outPipe) == 0 else { throw POSIXError(errno) }
        guard closeOnExecPipe(&errPipe) == 0 else {
            let error = POSIXError(errno)
            close(outPipe[0]); close(outPipe[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Nothing else the test process has open (another program's pipes) stays open in it.
        if let closeFrom = GNU.closeFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (the one the time-out kills), every signal's action the default
        // and none blocked, whatever the test process ignores or blocks.
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result: Int32
        if let envp {
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(result)
        }
        self.pid = pid
        out = outPipe[0]
        err = errPipe[0]
    }

    /// Kills the program's whole group, unless the program has already been reaped.
    func killGroup() {
        state.withLock { state in
            guard !state.reaped else { return }
            state.killed = true
            kill(-pid, SIGKILL)
        }
    }

    var wasKilled: Bool { state.withLock { $0.killed } }

    /// Waits for the program to end and reaps it; its exit status, or the signal that ended it.
    func wait() -> Int32 {
        // Until the program is reaped its id (and so its group's) stays taken, so the time-out
        // cannot kill another group: it is marked reaped first.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.withLock { $0.reaped = true }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}

/// The GNU functions the C module leaves out (it is imported without _GNU_SOURCE).
private enum GNU {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    static let pipe2 = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    static let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }
}

/// A pipe whose two ends are closed in programs the test process (any of its threads) starts,
/// made so at once where pipe2 is there; 0, or -1 and errno.
private func closeOnExecPipe(_ ends: inout [Int32]) -> Int32 {
    if let pipe2 = GNU.pipe2 { return pipe2(&ends, O_CLOEXEC) }
    guard pipe(&ends) == 0 else { return -1 }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return 0
}

extension POSIXError {
    fileprivate init(_ code: Int32) { self.init(POSIXErrorCode(rawValue: code) ?? .EIO) }
}

/// Everything read from `descriptor` until its end; closes it.
private func readToEnd(_ descriptor: Int32) -> Data {
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

/// Bytes one thread stores and another loads.
private final class DataBox: Sendable {
    private let value = Mutex<Data>(Data())
    func store(_ data: Data) { value.withLock { $0 = data } }
    func load() -> Data { value.withLock { $0 } }
}

/// The test's environment with `changes` applied; an empty value removes the variable.
public func mergedEnvironment(_ changes: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in changes {
        if value.isEmpty { env[key] = nil } else { env[key] = value }
    }
    return env
}
