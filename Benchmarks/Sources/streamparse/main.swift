// Parsing throughput of AudioFileStream, in process: the file is read into memory once, then fed
// to a new parser in pieces of a fixed size, RUNS times; prints the median time and MB/s, and the
// packets and bytes delivered. With `copy`, the packets callback copies every byte it gets into
// a buffer, as a player filling queue buffers does. Usage: streamparse FILE PIECE_BYTES RUNS [copy]
import AudioCore
import AudioFileServices
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let piece = Int(arguments[2]), piece > 0, let runs = Int(arguments[3]), runs > 0 else {
    print("usage: streamparse FILE PIECE_BYTES RUNS [copy]")
    exit(2)
}
let source = try AudioFile(path: arguments[1]).source
var bytes = [UInt8](repeating: 0, count: Int(source.size))
_ = try bytes.withUnsafeMutableBytes { try source.read(at: 0, into: $0) }

let copying = arguments.count == 5 && arguments[4] == "copy"
let sink = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 21, alignment: 16)

final class Counts {
    var packets = 0
    var bytes = 0
}
var times: [Double] = []
var last = Counts()
for _ in 0..<runs {
    let counts = Counts()
    let stream = try AudioFileStream(
        propertyListener: { _, _, _ in },
        packets: { s, data, descriptions in
            counts.bytes += data.count
            if copying {
                var done = 0
                while done < data.count {
                    let n = min(sink.count, data.count - done)
                    sink.baseAddress!.copyMemory(from: data.baseAddress! + done, byteCount: n)
                    done += n
                }
            }
            counts.packets += descriptions?.count ?? data.count / Int(s.dataFormat!.bytesPerPacket)
        })
    let start = now()
    try bytes.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
            let n = min(piece, all.count - offset)
            try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)]))
            offset += n
        }
    }
    times.append(now() - start)
    last = counts
}
times.sort()
let median = times[times.count / 2]
print("file: \(arguments[1])")
print("bytes: \(bytes.count)")
print("pieces: \(piece) bytes" + (copying ? ", callback copies" : ""))
print("packets: \(last.packets)")
print("packet bytes: \(last.bytes)")
print("runs: \(runs)")
print("median seconds: \(median)")
print("min seconds: \(times[0])")
print("median MB/s: \(Double(bytes.count) / median / 1e6)")
