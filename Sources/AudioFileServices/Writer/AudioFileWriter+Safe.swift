public import AudioCore

// Writing packets without pointers.

extension AudioFileWriter {
    /// Appends `packets` — read from another file, delivered by an ``AudioFileStream``, or
    /// built with ``AudioFile/Packets/init(data:descriptions:)`` — after those written, and
    /// returns how many were written. Variable-size formats need the descriptions; constant-size
    /// formats take whole packets of the file's `bytesPerPacket`.
    ///
    /// Throws `invalidPacketOffset` when variable-size packets come without descriptions, and
    /// otherwise as ``writePackets(startingPacket:bytes:descriptions:packetCount:)-(_,UnsafeRawBufferPointer,_,_)``.
    @discardableResult
    public func writePackets(_ packets: AudioFile.Packets) throws(AudioFileError) -> Int {
        try writePackets(packets.data, descriptions: packets.descriptions)
    }

    /// Appends the packets in `bytes` after those written and returns how many were written:
    /// for a constant-size format (linear PCM, IMA4, G.711) every packet `bytes` holds, which
    /// must be whole packets; for a variable-size format one per description, whose offsets are
    /// relative to `bytes`. Contiguous bytes (`[UInt8]`, `ArraySlice`, `Data`) are written
    /// without a copy.
    ///
    /// Throws `badPropertySize` when `bytes` ends inside a packet of a constant-size format,
    /// `invalidPacketOffset` when a variable-size format has no descriptions or one runs past
    /// `bytes`, `notOpen` after ``close()``.
    @discardableResult
    public func writePackets(
        _ bytes: some Collection<UInt8>, descriptions: [AudioStreamPacketDescription]? = nil
    ) throws(AudioFileError) -> Int {
        try withContiguousBytes(of: bytes) { (raw: UnsafeRawBufferPointer) throws(AudioFileError) -> Int in
            try state.withLock { s throws(AudioFileError) -> Int in
                try s.checkOpen()
                if s.isDescribed {
                    guard let descriptions else {
                        throw AudioFileError(
                            .invalidPacketOffset, "'\(s.format.formatID)' packets vary in size or duration and need packet descriptions")
                    }
                    return try descriptions.withBuffer { d throws(AudioFileError) -> Int in
                        try s.writePackets(startingPacket: s.packets, bytes: raw, descriptions: d, packetCount: d.count)
                    }
                }
                let size = Int(s.format.bytesPerPacket)
                guard raw.count % size == 0 else {
                    throw AudioFileError(.badPropertySize, "\(raw.count) bytes are not whole packets of \(size) bytes")
                }
                return try s.writePackets(startingPacket: s.packets, bytes: raw, descriptions: nil, packetCount: raw.count / size)
            }
        }
    }
}
