import AudioCore

/// What ``AudioFileStream`` knows about its stream.
struct StreamProperties {
    var fileType: AudioFileType?
    var dataFormat: AudioStreamBasicDescription?
    var magicCookie: [UInt8]?
    var dataOffset: Int64?
    var byteCount: UInt64?
    var packetCount: UInt64?
    var packetTableInfo: AudioFilePacketTableInfo?
    var packetSizeUpperBound: UInt32?
    var maximumPacketSize: UInt32?
    var channelLayout: AudioChannelLayout?
    var info: [(key: String, value: String)] = []
    var ready = false
}

/// One call of a cutter: the bytes it used, and how many it needs from there on to go further
/// (more than it was left with, unless it used everything).
struct CutStep {
    var consumed: Int
    var need: Int
}

/// Cuts the packets out of a stream's audio data.
protocol StreamCutter: AnyObject {
    /// Parses `bytes`, which start at stream offset `base`, handing whole packets to `sink`.
    /// Stops where it needs more bytes than remain.
    func cut(_ bytes: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep
    /// The next bytes start at `offset`, with packet `packet` where a seek said so (nil: the
    /// bytes do not follow the previous ones, and it is not known where they come from).
    func restart(at offset: Int64, packet: Int64?)
    /// The byte offset of `packet` from the start of the audio data, and whether it is an estimate.
    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool)
}

/// Gathers variable-size packets into one contiguous batch for the packets callback (at most
/// 64 KiB, or one larger packet), and hands constant-size packets over where they lie.
final class PacketSink {
    weak var stream: AudioFileStream?
    private var data: [UInt8] = []
    private var descriptions: [AudioStreamPacketDescription] = []
    static let batchBytes = 1 << 16

    /// Adds one packet of `frames` frames (0: the format's frames per packet).
    func append(_ packet: UnsafeRawBufferPointer, frames: UInt32) {
        if !descriptions.isEmpty && data.count + packet.count > Self.batchBytes { flush() }
        descriptions.append(AudioStreamPacketDescription(
            startOffset: Int64(data.count), variableFramesInPacket: frames, dataByteSize: UInt32(packet.count)))
        data.append(contentsOf: packet)
    }

    /// Hands over constant-size packets in place.
    func direct(_ packets: UnsafeRawBufferPointer) {
        flush()
        stream?.deliver(packets, nil)
    }

    /// Hands over the batch.
    func flush() {
        guard !descriptions.isEmpty else { return }
        let batch = descriptions
        descriptions.removeAll(keepingCapacity: true)
        data.withUnsafeBytes { stream?.deliver($0, batch) }
        data.removeAll(keepingCapacity: true)
    }
}

/// Constant-size packets back to back from the data offset (linear PCM, IMA4, G.711).
final class ConstantCutter: StreamCutter {
    let bytesPerPacket: Int
    let dataOffset: Int64
    /// Where the audio data ends, where the header says.
    let dataEnd: Int64?

    init(bytesPerPacket: Int, dataOffset: Int64, dataEnd: Int64?) {
        self.bytesPerPacket = bytesPerPacket
        self.dataOffset = dataOffset
        self.dataEnd = dataEnd
    }

    func cut(_ bytes: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        if base < dataOffset {  // before the data (an AIFF SSND offset): skip
            c = Int(min(dataOffset - base, Int64(bytes.count)))
            if c == bytes.count { return CutStep(consumed: c, need: 1) }
        }
        var at = base + Int64(c)
        // Packets start at whole multiples from the data offset (a seek lands on one); bytes
        // that do not, after a discontinuity, are skipped to the next.
        let misaligned = Int((at - dataOffset) % Int64(bytesPerPacket))
        if misaligned != 0 {
            let skip = min(bytesPerPacket - misaligned, bytes.count - c)
            c += skip
            at += Int64(skip)
            if c == bytes.count { return CutStep(consumed: c, need: 1) }
        }
        var usable = bytes.count - c
        if let dataEnd {
            let left = dataEnd - at
            // After the data, or a last packet cut short by the end of the data: not audio.
            if left < Int64(bytesPerPacket) { return CutStep(consumed: bytes.count, need: 1) }
            usable = Int(min(Int64(usable), left))
        }
        let packets = usable / bytesPerPacket
        if packets > 0 {
            let n = packets * bytesPerPacket
            sink.direct(UnsafeRawBufferPointer(rebasing: bytes[c..<(c + n)]))
            c += n
        }
        if let dataEnd, dataEnd - (base + Int64(c)) < Int64(bytesPerPacket) {
            return CutStep(consumed: bytes.count, need: 1)  // the rest is not audio
        }
        return CutStep(consumed: c, need: bytesPerPacket)
    }

    func restart(at offset: Int64, packet: Int64?) {}

    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        let (offset, overflow) = packet.multipliedReportingOverflow(by: Int64(bytesPerPacket))
        guard !overflow, dataEnd.map({ offset <= $0 - dataOffset }) ?? true else {
            throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) lies beyond the audio data")
        }
        return (offset, false)
    }
}

/// A stream that has no packets for this parser: variable-size packets that neither a table nor
/// frame headers delimit, which ``AudioFile`` reads none of either.
final class NoPacketsCutter: StreamCutter {
    func cut(_ bytes: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        CutStep(consumed: bytes.count, need: 1)
    }
    func restart(at offset: Int64, packet: Int64?) {}
    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        throw AudioFileStreamError(.invalidPacketOffset, "the stream has no packets")
    }
}

/// Packets the header lists one by one (a CAF `pakt`, MPEG-4 sample tables): each is cut at its
/// offset, and the bytes between them are skipped.
final class TableCutter: StreamCutter {
    let table: PacketTable
    let dataOffset: Int64
    private var next = 0
    /// The largest packet a stream may hold (as ExtAudioFile decodes no larger): 16 MiB.
    static let maximumPacketBytes: UInt32 = 16 << 20

    /// A cutter for `table`, whose packets must lie in order without overlapping (`notOptimized`
    /// otherwise: a stream cannot go back).
    init(table: PacketTable, dataOffset: Int64) throws(AudioFileStreamError) {
        var end = Int64.min
        for i in 0..<table.count {
            // The parser holds a whole packet while it waits for it: no larger than a decoder takes.
            guard table.sizes[i] <= Self.maximumPacketBytes else {
                throw AudioFileStreamError(
                    .unsupportedDataFormat, "packet \(i) of \(table.sizes[i]) bytes is larger than \(Self.maximumPacketBytes) bytes", offset: table.offsets[i])
            }
            guard table.offsets[i] >= end else {
                throw AudioFileStreamError(.notOptimized, "packet \(i) lies before the end of packet \(i - 1): the packets are not in stream order", offset: table.offsets[i])
            }
            end = table.offsets[i] + Int64(table.sizes[i])
        }
        self.table = table
        self.dataOffset = dataOffset
    }

    func cut(_ bytes: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        let variableFrames = !table.frames.isEmpty
        while next < table.count {
            let at = base + Int64(c)
            let offset = table.offsets[next]
            if at < offset {
                let skip = Int(min(offset - at, Int64(bytes.count - c)))
                c += skip
                if c == bytes.count { return CutStep(consumed: c, need: 1) }
            } else if at > offset {
                // Bytes after a discontinuity that began inside a packet: find the next one.
                next += 1
                continue
            }
            let size = Int(table.sizes[next])
            guard bytes.count - c >= size else { return CutStep(consumed: c, need: size) }
            sink.append(UnsafeRawBufferPointer(rebasing: bytes[c..<(c + size)]), frames: variableFrames ? table.frames[next] : 0)
            c += size
            next += 1
        }
        return CutStep(consumed: bytes.count, need: 1)  // after the last packet
    }

    func restart(at offset: Int64, packet: Int64?) {
        if let packet {
            next = Int(clamping: max(0, packet))
        } else {
            // Not told where: the first packet at or after the offset.
            var low = 0, high = table.count
            while low < high {
                let mid = (low + high) / 2
                if table.offsets[mid] < offset { low = mid + 1 } else { high = mid }
            }
            next = low
        }
    }

    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        guard packet >= 0, packet < Int64(table.count) else {
            throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is outside the stream's \(table.count) packets")
        }
        return (table.offsets[Int(packet)] - dataOffset, false)
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` whose body throws `AudioFileStreamError` only.
    func withStreamBytes<R>(_ body: (UnsafeRawBufferPointer) throws(AudioFileStreamError) -> R) throws(AudioFileStreamError) -> R {
        let result: Result<R, AudioFileStreamError> = withUnsafeBytes { buffer in
            Result { () throws(AudioFileStreamError) in try body(buffer) }
        }
        return try result.get()
    }
}
