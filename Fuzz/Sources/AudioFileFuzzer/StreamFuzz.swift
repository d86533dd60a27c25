import AudioCore
import AudioFileServices

/// AudioFileStream over one fuzz input, in pieces the input itself chooses: whole, a byte at a
/// time (small inputs), and sizes from a generator seeded by the input's hash. Every chunking
/// must deliver the same packets, properties and outcome; where AudioFile opens the same bytes,
/// the stream ends without an error and both put the audio data at the same offset, the packets
/// must be AudioFile's (for ADTS and MPEG audio, one list a prefix of the other: a file's last
/// frame after junk, or before a trailing tag, is where a stream that cannot see the end differs;
/// and up to a change of format, which the stream follows and AudioFile does not).
func fuzzStream(_ bytes: [UInt8]) {
    var seed: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes.prefix(4096) { seed = (seed ^ UInt64(b)) &* 0x100_0000_01B3 }
    var state = seed
    func random() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    let whole = streamOnce(bytes) { bytes.count }
    if bytes.count <= 4096 {
        let single = streamOnce(bytes) { 1 }
        check(single, whole, "one byte at a time")
    }
    let pieces = streamOnce(bytes) { 1 + Int(random() % (random() & 1 == 0 ? 64 : 8192)) }
    check(pieces, whole, "random pieces")

    guard whole.error == nil, let file = try? AudioFile(source: MemoryByteSource(bytes)),
          whole.dataOffset == file.dataOffset, let read = try? file.readPackets(from: 0, count: Int(min(file.packetCount, 1 << 20)))
    else { return }
    var reference: [[UInt8]] = []
    if let descriptions = read.descriptions {
        for d in descriptions { reference.append(Array(read.data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])) }
    } else if file.dataFormat.bytesPerPacket > 0 {
        let size = Int(file.dataFormat.bytesPerPacket)
        for p in stride(from: 0, to: read.data.count - size + 1, by: size) { reference.append(Array(read.data[p..<(p + size)])) }
    }
    if file.fileType == .adts || file.fileType == .mp3 || file.fileType == .mp2 || file.fileType == .mp1 {
        // Past a change of format the stream goes on where AudioFile, which reads one format,
        // passes the other format's frames over.
        let n = min(reference.count, whole.packetsBeforeChange ?? whole.packets.count)
        guard Array(reference.prefix(n)) == Array(whole.packets.prefix(n)) else {
            fatalError("stream and AudioFile disagree on the first \(n) frames")
        }
    } else if reference != whole.packets {
        fatalError("stream delivered \(whole.packets.count) packets, AudioFile reads \(reference.count)")
    }
}

private struct StreamOutcome: Equatable {
    var packets: [[UInt8]] = []
    var properties: [UInt32] = []
    var error: AudioFileStreamError.Code?
    var dataOffset: Int64?
    /// Packets delivered before the data format changed (MPEG audio of another format joined on).
    var packetsBeforeChange: Int?
}

private func check(_ a: StreamOutcome, _ b: StreamOutcome, _ what: String) {
    guard a == b else {
        fatalError("\(what): \(a.packets.count) packets, error \(String(describing: a.error)); whole: \(b.packets.count), \(String(describing: b.error))")
    }
}

private func streamOnce(_ bytes: [UInt8], pieces next: () -> Int) -> StreamOutcome {
    final class Box { var outcome = StreamOutcome() }
    let box = Box()
    guard let stream = try? AudioFileStream(
        propertyListener: { _, id, _ in
            if id == .dataFormat, box.outcome.properties.contains(id.rawValue), box.outcome.packetsBeforeChange == nil {
                box.outcome.packetsBeforeChange = box.outcome.packets.count
            }
            box.outcome.properties.append(id.rawValue)
        },
        packets: { s, data, descriptions in
            if let descriptions {
                for d in descriptions {
                    precondition(d.startOffset >= 0 && Int(d.startOffset) + Int(d.dataByteSize) <= data.count)
                    box.outcome.packets.append(Array(data[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))]))
                }
            } else {
                let size = Int(s.dataFormat?.bytesPerPacket ?? 0)
                precondition(size > 0 && data.count % size == 0)
                for p in stride(from: 0, to: data.count, by: size) { box.outcome.packets.append(Array(data[p..<(p + size)])) }
            }
        })
    else { return box.outcome }
    bytes.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
            let n = min(max(1, next()), all.count - offset)
            do {
                try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)]))
            } catch {
                box.outcome.error = (error as? AudioFileStreamError)?.code
                break
            }
            offset += n
        }
    }
    if box.outcome.error == nil {
        do { try stream.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) } catch { box.outcome.error = error.code }
    }
    _ = stream.packetSizeUpperBound
    _ = stream.bitRate
    _ = try? stream.seek(toPacket: 1)
    _ = try? stream.packet(forByteOffset: 100)
    _ = try? stream.packet(forFrame: 5000)
    box.outcome.dataOffset = stream.dataOffset
    stream.close()
    return box.outcome
}
