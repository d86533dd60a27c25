import AudioCore
import AudioFileServices

/// One fuzz input: every container parser on the raw bytes, then detection through AudioFile
/// and reads of the packets it finds. Any outcome but a typed error or success is a finding
/// (libFuzzer reports crashes, timeouts and runaway allocations).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemoryByteSource(bytes)
    for format in AudioFileFormats.all {
        if let parsed = try? format.init(reading: source) {
            _ = parsed.dataFormat.description
            _ = parsed.channelLayout?.name
        }
    }
    for ext in [nil, "wav", "aiff", "caf", "aac"] as [String?] {
        guard let file = try? AudioFile(source: source, fileExtension: ext) else { continue }
        exercise(file)
    }
    return 0
}

private func exercise(_ file: AudioFile) {
    _ = file.dataFormat.description
    _ = file.infoDictionary
    _ = file.bitRate
    _ = file.estimatedDuration
    _ = file.packetSizeUpperBound
    let count = file.packetCount
    for start in [0, count / 2, max(0, count - 3), count] {
        _ = try? file.readPackets(from: start, count: 4, maxBytes: 1 << 16)
    }
    _ = try? file.readBytes(at: 0, count: 64)
}

/// libFuzzer's driver, present when linking with -sanitize=fuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The package manager links an executable target's entry point under this name; hand control
/// to libFuzzer's driver with the fuzz function.
@_cdecl("AudioFileFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
