import AudioCore

/// A native FLAC stream's header: `'fLaC'` and its metadata blocks, walked as they arrive.
enum StreamFLACHeader {
    /// Where the metadata ends in `held` (the first frame's offset), or the bytes needed to
    /// know; `position` is where the next block header starts, kept between calls.
    ///
    /// ID3v2 tags before `'fLaC'` (a stream the type hint says is FLAC) are passed over first.
    static func locateAudio(_ held: UnsafeRawBufferPointer, position: inout Int64) throws(AudioFileStreamError) -> (end: Int?, need: Int) {
        if position == 0 {
            var start = 0
            while true {
                guard held.count >= start + 10 else { return (nil, start + 10) }
                guard let size = MP3Tags.id3v2Size(Array(held[start..<(start + 10)])) else { break }
                guard Int64(start) + size + 4 <= Int64(AudioFileStream.maximumHeaderBytes) else {
                    throw AudioFileStreamError(.invalidFile, "ID3v2 tags before 'fLaC' run past the header limit", offset: Int64(start))
                }
                start += Int(size)
            }
            guard held.count >= start + 4 else { return (nil, start + 4) }
            guard held[start] == 0x66, held[start + 1] == 0x4C, held[start + 2] == 0x61, held[start + 3] == 0x43 else {
                throw AudioFileStreamError(.invalidFile, "no 'fLaC' marker", offset: Int64(start))
            }
            position = Int64(start) + 4
        }
        while position <= Int64(held.count) - 4 {
            let p = Int(position)
            let last = held[p] & 0x80 != 0
            let length = Int64(held[p + 1]) << 16 | Int64(held[p + 2]) << 8 | Int64(held[p + 3])
            let end = position + 4 + length
            guard end <= Int64(AudioFileStream.maximumHeaderBytes) else {
                throw AudioFileStreamError(
                    .invalidFile, "FLAC metadata runs past the \(AudioFileStream.maximumHeaderBytes)-byte header limit", offset: position)
            }
            if last {
                return end <= Int64(held.count) ? (Int(end), 0) : (nil, Int(end))
            }
            position = end
        }
        return (nil, Int(position) + 4)
    }

    /// What the metadata says, and the cutter for the frames after it.
    static func parse(_ header: [UInt8]) throws(AudioFileStreamError) -> (StreamProperties, FLACStreamCutter) {
        let metadata: FLACMetadata
        do {
            metadata = try FLACMetadata(reading: MemoryByteSource(header))
        } catch {
            throw AudioFileStreamError(error)
        }
        let info = metadata.streamInfo
        var facts = StreamProperties()
        facts.fileType = .flac
        facts.dataFormat = FLACFormat.streamDescription(info)
        facts.magicCookie = info.magicCookie
        facts.dataOffset = metadata.audioStart
        // The largest frame a stream of this kind can hold (verbatim subframes, a side channel's
        // extra bit, headers), where STREAMINFO does not say.
        let bound = info.maximumBlockSize * info.channels * (info.bitsPerSample + 1) / 8 + 64 + 8 * info.channels
        let upper = info.maximumFrameSize > 0 ? info.maximumFrameSize : bound
        facts.packetSizeUpperBound = UInt32(clamping: upper)
        facts.maximumPacketSize = UInt32(clamping: upper)
        facts.ready = true
        return (facts, FLACStreamCutter(info: info, dataOffset: metadata.audioStart))
    }
}

/// Cuts FLAC frames out of a stream as `FLACFrameScan` walks a file: a frame starts at a valid
/// header that fits STREAMINFO and, after the first, carries the next number (or one up to
/// three frames on), and ends where the next one starts. The last frame ends where the stream
/// does (``finish(_:at:sink:)``), at the last point its CRC-16 comes to zero.
final class FLACStreamCutter: StreamCutter {
    let info: FLACStreamInfo
    let dataOffset: Int64
    /// The header of the frame that starts at the cutter's position; nil while searching.
    private var current: FLACFrameHeader?
    /// Frames delivered and their bytes, for estimated seek offsets.
    private var frames: Int64 = 0
    private var bytes: Int64 = 0
    /// A frame this far from its start without a next header is not a frame.
    static let maximumFrameBytes = Int(TableCutter.maximumPacketBytes)

    init(info: FLACStreamInfo, dataOffset: Int64) {
        self.info = info
        self.dataOffset = dataOffset
    }

    /// The first header in `b[from..<b.count]` that `accept` takes, with its index.
    private func find(_ b: UnsafeRawBufferPointer, from: Int, _ accept: (FLACFrameHeader) -> Bool) -> (Int, FLACFrameHeader)? {
        var i = from
        let n = b.count
        while i < n - 1 {
            if b[i] == 0xFF, b[i + 1] & 0xFE == 0xF8 {
                // Near the end a header may lack bytes: it is looked at again with more.
                let end = min(n, i + FLACFrameHeader.maximumLength)
                if let h = FLACFrameHeader(UnsafeRawBufferPointer(rebasing: b[i..<end])), accept(h) {
                    return (i, h)
                }
            }
            i += 1
        }
        return nil
    }

    func cut(_ b: UnsafeRawBufferPointer, at base: Int64, sink: PacketSink) throws(AudioFileStreamError) -> CutStep {
        var c = 0
        while true {
            guard let header = current else {
                // Searching: the first header that fits (a header may straddle the end).
                let info = self.info
                guard let (i, h) = find(b, from: c, { $0.fits(info) }), b.count - i >= FLACFrameHeader.maximumLength else {
                    let keep = min(b.count - c, FLACFrameHeader.maximumLength - 1)
                    return CutStep(consumed: b.count - keep, need: FLACFrameHeader.maximumLength)
                }
                c = i
                current = h
                continue
            }
            let variable = header.variableBlockSize
            let number = variable ? header.number + Int64(header.blockSize) : header.number + 1
            let slack = Int64(variable ? 3 * max(info.maximumBlockSize, header.blockSize) : 3)
            let info = self.info
            let next = find(b, from: c + header.length) {
                $0.number >= number && $0.number <= number + slack && $0.variableBlockSize == variable && $0.fits(info)
            }
            guard let (q, h) = next else {
                let held = b.count - c
                guard held < Self.maximumFrameBytes else {
                    throw AudioFileStreamError(
                        .invalidFile, "no FLAC frame header within \(Self.maximumFrameBytes) bytes of the frame at \(base + Int64(c))",
                        offset: base + Int64(c))
                }
                return CutStep(consumed: c, need: held + max(4096, held / 2))
            }
            deliver(UnsafeRawBufferPointer(rebasing: b[c..<q]), frames: header.blockSize, sink: sink)
            c = q
            current = h
        }
    }

    /// The end of the stream: the frame being gathered ends at the last point where its
    /// CRC-16 is zero; one with none was cut short and is dropped.
    func finish(_ b: UnsafeRawBufferPointer, sink: PacketSink) {
        guard let header = current, b.count > header.length + 2, b[0] == 0xFF else { return }
        var crc: UInt16 = 0
        var end: Int?
        FLACCRC.table16.withUnsafeBufferPointer { t in
            for k in 0..<b.count {
                crc = (crc << 8) ^ t[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ b[k])]
                if crc == 0, k + 1 >= header.length + 3 { end = k + 1 }
            }
        }
        if let end { deliver(UnsafeRawBufferPointer(rebasing: b[0..<end]), frames: header.blockSize, sink: sink) }
        current = nil
    }

    private func deliver(_ packet: UnsafeRawBufferPointer, frames count: Int, sink: PacketSink) {
        sink.append(packet, frames: UInt32(count) == UInt32(info.maximumBlockSize) ? 0 : UInt32(count))
        frames += 1
        bytes += Int64(packet.count)
    }

    func restart(at offset: Int64, packet: Int64?) {
        current = nil
    }

    /// An estimate from the frames seen so far (else STREAMINFO's frame sizes): FLAC frames
    /// vary in size and a stream has no table.
    func byteOffset(ofPacket packet: Int64) throws(AudioFileStreamError) -> (offset: Int64, isEstimated: Bool) {
        guard packet >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is negative") }
        let average: Double
        if frames > 0 {
            average = Double(bytes) / Double(frames)
        } else if info.maximumFrameSize > 0 {
            average = Double(info.minimumFrameSize + info.maximumFrameSize) / 2
        } else {
            throw AudioFileStreamError(.invalidPacketOffset, "no FLAC frame seen yet to estimate packet \(packet)'s offset from")
        }
        let estimate = Double(packet) * average
        guard estimate < Double(Int64.max / 4) else {
            throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) lies beyond any stream")
        }
        return (Int64(estimate), true)
    }
}
