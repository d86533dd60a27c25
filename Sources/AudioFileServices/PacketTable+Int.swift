// The packet table in the Swift API's integers: its arrays keep Apple's 32-bit widths (four bytes
// a packet for a table of millions), and these read them as `Int`.

extension PacketTable {
    /// Bytes in packet `index` (0 for an index the table does not have).
    public func size(ofPacket index: Int) -> Int {
        index >= 0 && index < sizes.count ? Int(sizes[index]) : 0
    }

    /// Frames in packet `index` (0 for an index the table does not have).
    public func frameCount(ofPacket index: Int) -> Int {
        index >= 0 && index < count ? Int(framesInPacket(index)) : 0
    }

    /// Bytes in the largest packet.
    public var largestPacketSize: Int { Int(maximumSize) }
}
