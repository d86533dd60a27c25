#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AudioCore

/// Finds the frames of a FLAC stream without decoding them.
///
/// A frame starts at a header (``FLACFrameHeader``: sync code, valid fields, CRC-8) that fits
/// STREAMINFO and carries the next number in sequence — the frame number one more than the last
/// one's (fixed block size) or the sample number the last one's block size further on
/// (variable), or a number up to three frames further where damaged headers were passed over —
/// and ends where the next such header starts. The numbers make a false sync
/// inside frame data as unlikely as a matching CRC-8 *and* a 31-bit sequence number. The last
/// frame ends where a CRC-16 taken from its start comes to zero last before the end of the
/// data (so a trailing tag is not audio); one with no such point was cut short and is left out.
///
/// The data is read through a 1 MiB window and searched for the 0xFF sync byte with `memchr`.
struct FLACFrameScan {
    struct Result {
        var table: PacketTable
        var firstFrame: Int64
        var end: Int64
        var firstHeader: FLACFrameHeader
        var truncatedLast: Bool
    }

    private let source: any AudioByteSource
    private let end: Int64
    private var window: [UInt8]
    private var windowStart: Int64 = 0
    private var windowCount = 0
    private static let windowSize = 1 << 20

    init(_ source: any AudioByteSource, end: Int64) {
        self.source = source
        self.end = end
        window = [UInt8](repeating: 0, count: Self.windowSize)
    }

    /// Makes `[offset, offset + count)` resident where the data holds it; returns the index of
    /// `offset` in the window and the bytes available from there (up to the window's end).
    private mutating func load(_ offset: Int64, _ count: Int) throws(AudioFileError) -> (index: Int, available: Int) {
        if offset >= windowStart, offset + Int64(count) <= windowStart + Int64(windowCount) {
            let i = Int(offset - windowStart)
            return (i, windowCount - i)
        }
        if offset >= windowStart, windowStart + Int64(windowCount) == end, offset <= end {
            let i = Int(offset - windowStart)
            return (i, windowCount - i)
        }
        let n = Int(min(Int64(Self.windowSize), end - offset))
        let source = self.source
        let got = try window.withMutableBytes { buffer throws(AudioFileError) in
            try source.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]))
        }
        guard got == n else {
            throw AudioFileError(.invalidFile, "short read: \(got) of \(n) bytes", chunk: "frame", offset: offset)
        }
        windowStart = offset
        windowCount = n
        return (0, n)
    }

    /// The header at `offset`, if one starts there.
    private mutating func header(at offset: Int64) throws(AudioFileError) -> FLACFrameHeader? {
        let (i, available) = try load(offset, FLACFrameHeader.maximumLength)
        let n = min(available, FLACFrameHeader.maximumLength)
        return window.withUnsafeBytes { raw in FLACFrameHeader(UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)])) }
    }

    /// The first offset at or after `from` where a header that `accept` takes starts, with it.
    private mutating func next(
        from: Int64, _ accept: (FLACFrameHeader) -> Bool
    ) throws(AudioFileError) -> (offset: Int64, header: FLACFrameHeader)? {
        var position = from
        while position < end - 1 {
            let (i, available) = try load(position, FLACFrameHeader.maximumLength)
            let hit: Int? = window.withUnsafeBytes { raw in
                guard let p = memchr(raw.baseAddress! + i, 0xFF, available) else { return nil }
                return p - UnsafeMutableRawPointer(mutating: raw.baseAddress!)
            }
            guard let hit else {
                position = windowStart + Int64(windowCount)
                continue
            }
            let offset = windowStart + Int64(hit)
            if hit + 1 < windowCount, window[hit + 1] & 0xFE != 0xF8 {
                position = offset + 1
                continue
            }
            if let h = try header(at: offset), accept(h) { return (offset, h) }
            position = offset + 1
        }
        return nil
    }

    /// Walks the frames in `[start, end)`.
    mutating func scan(from start: Int64, info: FLACStreamInfo) throws(AudioFileError) -> Result? {
        guard let (first, firstHeader) = try next(from: start, { $0.fits(info) }) else { return nil }
        let framesPerPacket = UInt32(info.maximumBlockSize)
        let bytes = end - first
        let expected = info.totalSamples > 0 && info.minimumBlockSize >= 16 ? info.totalSamples / Int64(info.minimumBlockSize) + 1 : bytes / 64
        var table = PacketTable(framesPerPacket: framesPerPacket, capacity: Int(max(0, min(expected, bytes / 8, 1 << 20))))
        var offset = first
        var current = firstHeader
        while true {
            // The next number, or up to three frames further where headers were damaged.
            let variable = current.variableBlockSize
            let number = variable ? current.number + Int64(current.blockSize) : current.number + 1
            let slack = Int64(variable ? 3 * max(info.maximumBlockSize, current.blockSize) : 3)
            guard let (nextOffset, nextHeader) = try next(from: offset + Int64(current.length), {
                $0.number >= number && $0.number <= number + slack && $0.variableBlockSize == variable && $0.fits(info)
            }) else { break }
            table.append(offset: offset, size: UInt32(clamping: nextOffset - offset), frames: UInt32(current.blockSize))
            offset = nextOffset
            current = nextHeader
        }
        // The last frame: up to the last point where the CRC-16 from its start is zero.
        guard let last = try lastFrameEnd(from: offset, headerLength: current.length) else {
            return Result(table: table, firstFrame: first, end: offset, firstHeader: firstHeader, truncatedLast: true)
        }
        table.append(offset: offset, size: UInt32(clamping: last - offset), frames: UInt32(current.blockSize))
        return Result(table: table, firstFrame: first, end: last, firstHeader: firstHeader, truncatedLast: false)
    }

    /// Where the frame at `offset` ends: the last point before ``end`` (past the header and at
    /// least the 2-byte footer) where the CRC-16 of the bytes from `offset` is zero.
    private mutating func lastFrameEnd(from offset: Int64, headerLength: Int) throws(AudioFileError) -> Int64? {
        var crc: UInt16 = 0
        var position = offset
        var found: Int64?
        let minimum = offset + Int64(headerLength) + 3
        while position < end {
            let (i, available) = try load(position, 1)
            let n = min(available, Int(end - position))
            guard n > 0 else { break }
            window.withUnsafeBytes { raw in
                FLACCRC.table16.withUnsafeBufferPointer { t in
                    for k in 0..<n {
                        crc = (crc << 8) ^ t[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ raw[i + k])]
                        if crc == 0, position + Int64(k) + 1 >= minimum { found = position + Int64(k) + 1 }
                    }
                }
            }
            position += Int64(n)
        }
        return found
    }
}
