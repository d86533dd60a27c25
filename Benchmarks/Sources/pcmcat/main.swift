// pcmcat: reads every packet of each audio file with AudioFile, 32768 packets per call into one
// reused buffer, and writes nothing: the whole-process counterpart of `sox in.wav -t raw /dev/null`.
// Prints the bytes read to standard error with -v.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCore
import AudioFileServices

/// Writes `text` to standard error.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

var verbose = false
var paths: [String] = []
for argument in CommandLine.arguments.dropFirst() {
    if argument == "-v" { verbose = true } else { paths.append(argument) }
}
guard !paths.isEmpty else {
    printError("usage: pcmcat [-v] FILE...")
    exit(2)
}

let packetsPerRead = 32768
var status: Int32 = 0
for path in paths {
    do {
        let file = try AudioFile(path: path)
        let capacity = max(file.packetSizeUpperBound, 1) * packetsPerRead
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
        defer { buffer.deallocate() }
        let descriptions = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: packetsPerRead)
        defer { descriptions.deallocate() }
        var start: Int64 = 0
        var total = 0
        while start < file.packetCount {
            let (bytes, count) = try file.readPackets(
                from: start, count: packetsPerRead, into: buffer,
                descriptions: file.needsDescriptions ? descriptions : nil)
            if count == 0 { break }
            start += Int64(count)
            total += bytes
        }
        if verbose { printError("\(path): \(start) packets, \(total) bytes") }
    } catch {
        printError("pcmcat: \(path): \(error)")
        status = 1
    }
}
exit(status)
