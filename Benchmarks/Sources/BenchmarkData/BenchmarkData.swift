// Where the benchmarks find their data files.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data file named by the environment variable `name`, else `Benchmarks/.data/<file>` from the
/// repository root or `.data/<file>` from `Benchmarks/`, whichever exists.
public func benchmarkPath(environment name: String, default file: String) -> String {
    if let value = getenv(name), let path = String(validatingCString: value), !path.isEmpty { return path }
    let candidates = ["Benchmarks/.data/\(file)", ".data/\(file)"]
    return candidates.first { access($0, R_OK) == 0 } ?? candidates[0]
}
