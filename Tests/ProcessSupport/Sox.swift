import Foundation

/// A reference tool that is missing or failed: the test that asked fails with this message.
public struct ReferenceToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// sox, the reference resampler.
public enum Sox {
    /// The path of sox, or nil.
    public static let path: String? = ["/usr/bin/sox", "/usr/local/bin/sox"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `samples` (mono, at `inputRate`) resampled by `sox … rate -v outputRate` (very high
    /// quality), as 32-bit float.
    public static func resample(_ samples: [Float], from inputRate: Double, to outputRate: Double) throws -> [Float] {
        guard let sox = path else { throw ReferenceToolError("sox is not installed (Scripts/test installs it)") }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sox-\(getpid())-\(UUID().uuidString)")
        let input = base.appendingPathExtension("in.f32"), output = base.appendingPathExtension("out.f32")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try samples.withUnsafeBytes { Data($0) }.write(to: input)
        let raw = ["-t", "raw", "-e", "floating-point", "-b", "32", "-c", "1"]
        let r = try runProcess(sox, ["-D"] + raw + ["-r", "\(Int(inputRate))", input.path] + raw + [output.path, "rate", "-v", "\(Int(outputRate))"])
        guard r.status == 0 else { throw ReferenceToolError("sox failed: \(r.err)") }
        return try Data(contentsOf: output).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
