public import AudioCore

// Packets as a collection: what `AudioFile.readPackets`, the `AudioFileStream` packets callback
// and `AudioFileWriter.writePackets` pass around without pointers.

extension AudioFile.Packets: RandomAccessCollection {
    /// Packets of a constant-size format, `bytesPerPacket` bytes each, back to back in `data`
    /// (a trailing partial packet is not a packet).
    public init(data: [UInt8], bytesPerPacket: Int) {
        self.init(data: data, descriptions: nil, bytesPerPacket: Swift.max(bytesPerPacket, 0))
    }

    /// Packets of a variable-size format: `data` and one description per packet, whose offsets
    /// are relative to `data`.
    public init(data: [UInt8], descriptions: [AudioStreamPacketDescription]) {
        self.init(data: data, descriptions: descriptions, bytesPerPacket: 0)
    }

    /// The first packet's index: 0.
    public var startIndex: Int { 0 }
    /// One past the last packet: ``packetCount``.
    public var endIndex: Int { packetCount }

    /// The bytes of packet `index` (an empty slice where a description points outside `data`).
    public subscript(index: Int) -> ArraySlice<UInt8> {
        let range = byteRange(ofPacket: index)
        return data[range]
    }

    /// Where packet `index` lies in `data`, clamped to it.
    public func byteRange(ofPacket index: Int) -> Range<Int> {
        guard index >= 0, index < packetCount else { return data.endIndex..<data.endIndex }
        let start: Int, size: Int
        if let descriptions {
            let d = descriptions[index]
            guard d.startOffset >= 0, d.startOffset <= Int64(data.count) else { return data.endIndex..<data.endIndex }
            start = Int(d.startOffset)
            size = Swift.min(Int(d.dataByteSize), data.count - start)
        } else {
            start = index * bytesPerPacket
            size = bytesPerPacket
        }
        return start..<(start + size)
    }

    /// Frames in packet `index`: its description's variable frames, else `framesPerPacket` of
    /// the format (pass the format's).
    public func frameCount(ofPacket index: Int, framesPerPacket: Int) -> Int {
        guard let descriptions, index >= 0, index < descriptions.count, descriptions[index].variableFramesInPacket > 0 else {
            return framesPerPacket
        }
        return Int(descriptions[index].variableFramesInPacket)
    }
}
