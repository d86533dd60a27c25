// swiftrender FILE: what C/crender.c does, through the Swift API: the same callback reading
// packets, three buffers of 64 KiB, 4096-frame offline renders into 32-bit float. Prints the
// frames rendered and a checksum, which must equal crender's.
import AudioQueueKit
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: swiftrender FILE\n".utf8))
    exit(2)
}
AudioQueueKit.registerAll()
let file = try AudioFile(path: CommandLine.arguments[1])
let format = file.dataFormat
let bufferBytes = 65536
let packetsPerBuffer = bufferBytes / max(file.packetSizeUpperBound, 1)

final class State: @unchecked Sendable {
    var packet: Int64 = 0
    var done = false
}
let state = State()
let queue = try AudioQueue(format: format) { queue, buffer in
    if state.done { return }
    guard let read = try? file.readPackets(
        from: state.packet, count: packetsPerBuffer, into: buffer.data, descriptions: buffer.packetDescriptionBuffer),
        read.packetCount > 0
    else {
        state.done = true
        try? queue.stop(immediate: false)
        return
    }
    buffer.audioDataByteSize = read.byteCount
    buffer.packetDescriptionCount = format.bytesPerPacket == 0 ? read.packetCount : 0
    try? queue.enqueue(buffer)
    state.packet += Int64(read.packetCount)
}
if let cookie = file.magicCookie { try queue.setMagicCookie(cookie) }
let out = AudioStreamBasicDescription.linearPCM(
    sampleRate: format.sampleRate, channels: format.channelsPerFrame, bitsPerChannel: 32, isFloat: true)
try queue.setOfflineRenderFormat(out)
for _ in 0..<3 {
    let buffer = try queue.allocateBuffer(
        byteCapacity: bufferBytes, packetDescriptionCapacity: format.bytesPerPacket == 0 ? packetsPerBuffer : 0)
    // The callback itself fills the first buffers, as the guide primes its queue.
    if !state.done, let read = try? file.readPackets(
        from: state.packet, count: packetsPerBuffer, into: buffer.data, descriptions: buffer.packetDescriptionBuffer),
        read.packetCount > 0 {
        buffer.audioDataByteSize = read.byteCount
        buffer.packetDescriptionCount = format.bytesPerPacket == 0 ? read.packetCount : 0
        try queue.enqueue(buffer)
        state.packet += Int64(read.packetCount)
    }
}
try queue.start()
let rendered = try queue.allocateBuffer(byteCapacity: 4096 * Int(out.bytesPerFrame))
var time = AudioTimeStamp(sampleTime: 0, flags: .sampleTimeValid)
try queue.offlineRender(at: time, into: rendered, frameCount: 0)
var frames = 0
var checksum = 0.0
while true {
    do { try queue.offlineRender(at: time, into: rendered, frameCount: 4096) } catch { break }
    let n = rendered.audioDataByteSize / Int(out.bytesPerFrame)
    let samples = rendered.audioData.assumingMemoryBound(to: Float.self)
    for i in stride(from: 0, to: n * Int(out.channelsPerFrame), by: 64) { checksum += Double(samples[i]) }
    frames += n
    time.sampleTime += Double(n)
    if n < 4096 { break }
}
print("\(frames) frames, checksum \(String(format: "%.6f", checksum))")
try queue.dispose(immediate: true)
