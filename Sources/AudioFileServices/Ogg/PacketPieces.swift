import AudioCore

/// One run of a packet's bytes in the file (see ``PacketTable/pieces``).
public struct PacketPiece: Sendable, Equatable {
    /// File offset of the run.
    public var offset: Int64
    /// Bytes in the run.
    public var size: UInt32
}

extension PacketTable {
    /// Appends a packet made of `pieces` (in order; at least one), recording them where there
    /// are several.
    mutating func append(pieces packetPieces: [PacketPiece], frames packetFrames: UInt32?) {
        var size: UInt32 = 0
        for piece in packetPieces { size &+= piece.size }
        if packetPieces.count > 1 { pieces[count] = packetPieces }
        append(offset: packetPieces.first?.offset ?? 0, size: size, frames: packetFrames)
    }
}

extension AudioFile {
    /// Reads `packets`, gathering each packet listed in ``PacketTable/pieces`` from its runs;
    /// nil, having read nothing, when none of them is split (the other paths read faster).
    func readPieces(
        of packets: Range<Int>, table: PacketTable, into buffer: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioFileError) -> Int? {
        guard packets.contains(where: { table.pieces[$0] != nil }) else { return nil }
        let variableFrames = !table.frames.isEmpty
        var written = 0
        for i in packets {
            let size = Int(table.sizes[i])
            descriptions?[i - packets.lowerBound] = AudioStreamPacketDescription(
                startOffset: Int64(written), variableFramesInPacket: variableFrames ? table.frames[i] : 0, dataByteSize: UInt32(size))
            let runs = table.pieces[i] ?? [PacketPiece(offset: table.offsets[i], size: UInt32(size))]
            for run in runs {
                let part = UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + Int(run.size))])
                let got = try source.read(at: run.offset, into: part)
                guard got == part.count else {
                    throw AudioFileError(.endOfFile, "the file ended after \(got) of \(part.count) bytes at offset \(run.offset)")
                }
                written += Int(run.size)
            }
        }
        return written
    }
}
