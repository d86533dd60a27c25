import AudioCore

/// Finding AC-3 and E-AC-3 syncframes in a file and grouping them into packets: one AC-3
/// frame, or an E-AC-3 independent frame of substream 0 with the frames after it up to the next
/// one (its dependent substreams, so a 7.1 stream decodes whole, and any other programs'
/// substreams, which decoders skip).
enum AC3FrameScan {
    /// The most junk skipped in one place while looking for a frame: 1 MiB, as for ADTS.
    static let maximumJunk: Int64 = 1 << 20

    /// A walk's result.
    struct Walk {
        var table: PacketTable
        /// The headers of the first packet's frames.
        var firstPacket: [AC3FrameHeader]
        /// Where the first packet starts.
        var firstOffset: Int64
        /// Where the last packet ends.
        var lastEnd: Int64
        /// Bytes skipped between packets.
        var junk: Int64
        /// True when the last packet is cut short by the end.
        var truncated: Bool
    }

    /// The first header of a packet's start (an AC-3 frame or an independent E-AC-3 frame) at
    /// or after `from`, before `end`, that the next header (or `end`) confirms.
    static func resync(_ reader: inout WindowReader, from: Int64, end: Int64, like: AC3FrameHeader?) throws(AudioFileError) -> (
        offset: Int64, header: AC3FrameHeader
    )? {
        var position = from
        let limit = min(end, from + maximumJunk)
        while position <= limit - 6 {
            guard let i = try reader.load(position, 6) else { return nil }
            let w = reader.window
            var j = i
            let last = w.count - 1
            while j < last && !(w[j] == 0x0B && w[j + 1] == 0x77) { j += 1 }
            if j >= last {
                position = reader.windowStart + Int64(max(last, i + 1))
                continue
            }
            position = reader.windowStart + Int64(j)
            guard position <= limit - 6 else { return nil }
            if let header = header(try reader.peek(position, AC3FrameHeader.parsedLength), end: end - position),
               header.streamType != .dependent, header.substreamID == 0, like.map({ header.sameStream(as: $0) }) ?? true
            {
                let next = position + Int64(header.frameSize)
                if next >= end { return (position, header) }
                if next <= end - 6, let following = Self.header(try reader.peek(next, AC3FrameHeader.parsedLength), end: end - next),
                   following.isEnhanced == header.isEnhanced, following.sampleRate == header.sampleRate
                {
                    return (position, header)
                }
            }
            position += 1
        }
        return nil
    }

    /// The header in `bytes` (read at a place `available` bytes before the end), nil where none.
    static func header(_ bytes: [UInt8], end available: Int64) -> AC3FrameHeader? {
        guard bytes.count >= 6 else { return nil }
        return AC3FrameHeader(bytes, 0)
    }

    /// The packets of the stream whose first packet starts at `start` with `first`, up to `end`.
    /// Junk where a frame should start is skipped by ``resync(_:from:end:like:)``; a last packet
    /// cut short by `end` is kept (as ffmpeg reads it: the decoder conceals what is missing).
    static func walk(
        _ reader: inout WindowReader, from start: Int64, end: Int64, first: AC3FrameHeader
    ) throws(AudioFileError) -> Walk {
        var table = PacketTable(framesPerPacket: UInt32(first.frameCount), capacity: Int(min((end - start) / 128 + 1, 1 << 24)))
        var walk = Walk(table: table, firstPacket: [], firstOffset: start, lastEnd: start, junk: 0, truncated: false)
        var position = start
        // The packet being gathered: its start, size and frames.
        var packetStart: Int64 = -1
        var packetFrames = 0
        func close(at position: Int64) {
            guard packetStart >= 0 else { return }
            let frames = UInt32(packetFrames)
            table.append(offset: packetStart, size: UInt32(position - packetStart), frames: frames == table.framesPerPacket ? nil : frames)
            walk.lastEnd = position
            packetStart = -1
        }
        while position <= end - 6 {
            guard let i = try reader.load(position, Int(min(Int64(AC3FrameHeader.parsedLength), end - position))) else { break }
            let w = reader.window
            let header = AC3FrameHeader(w, i)
            guard let header, header.isEnhanced == first.isEnhanced, header.sampleRate == first.sampleRate else {
                close(at: position)
                guard let next = try resync(&reader, from: position + 1, end: end, like: first) else { break }
                walk.junk += next.offset - position
                position = next.offset
                continue
            }
            let startsPacket = !header.isEnhanced || (header.streamType != .dependent && header.substreamID == 0)
            if startsPacket {
                close(at: position)
                packetStart = position
                packetFrames = header.frameCount
            } else if packetStart < 0 {
                // A dependent or other substream with no packet open: junk to this stream.
                position += Int64(header.frameSize)
                walk.junk += Int64(header.frameSize)
                continue
            }
            if table.count == 0 { walk.firstPacket.append(header) }
            if Int64(header.frameSize) > end - position {
                walk.truncated = true
                position = end
                break
            }
            position += Int64(header.frameSize)
        }
        close(at: min(position, end))
        walk.table = table
        return walk
    }

    /// The stream description, channel layout and magic cookie (the `dac3` or `dec3` body) of a
    /// stream whose first packet holds the frames `frames`.
    static func describe(_ frames: [AC3FrameHeader], chunk: String, offset: Int64) throws(AudioFileError) -> (
        format: AudioStreamBasicDescription, layout: AudioChannelLayout, cookie: [UInt8]
    ) {
        guard let first = frames.first, let configuration = AC3Configuration(frames: frames) else {
            throw AudioFileError(.invalidFile, "the stream opens with no independent AC-3 frame", chunk: chunk, offset: offset)
        }
        let format = AudioStreamBasicDescription(
            sampleRate: Double(first.sampleRate), formatID: first.isEnhanced ? .enhancedAC3 : .ac3, formatFlags: [],
            bytesPerPacket: 0, framesPerPacket: UInt32(first.frameCount), bytesPerFrame: 0,
            channelsPerFrame: UInt32(configuration.channelCount), bitsPerChannel: 0)
        return (format, configuration.channelLayout, configuration.boxBody)
    }
}
