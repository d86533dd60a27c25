import Foundation

/// Runs a program (with `environment` applied to the test's own; an empty value removes a
/// variable) to its end and returns its status and what it wrote to standard output and error.
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = mergedEnvironment(environment) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// The test's environment with `changes` applied; an empty value removes the variable.
public func mergedEnvironment(_ changes: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in changes {
        if value.isEmpty { env[key] = nil } else { env[key] = value }
    }
    return env
}
