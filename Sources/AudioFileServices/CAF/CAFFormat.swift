public import AudioCore

/// Core Audio Format files (`caff`), as Apple's "Core Audio Format Specification 1.0" defines them.
///
/// Reads desc, data (a size of -1 runs to the end of the file; the edit count is skipped), pakt
/// (variable-length integers; priming, remainder and valid frames), kuki, chan and info; free and
/// unknown chunks are skipped. Linear PCM in every width and byte order, `'aac '`, `'alaw'`,
/// `'ulaw'` and `'ima4'` are described fully; any other format ID is reported by its code.
public struct CAFFormat: AudioFileFormat, DescribedFormat, StoresAudioData {
    /// CAF, written in every format the package encodes (as `afconvert -hf` lists Apple's `'caff'`).
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(
            .caf, name: "CAF", extensions: ["caf"], utis: ["com.apple.coreaudio-format"], mimeTypes: ["audio/x-caf"], hfsTypeCodes: ["caff"],
            writes: [.linearPCM, .aLaw, .uLaw, .appleIMA4, .mpeg4AAC, .appleLossless, .flac, .opus],
            pcmLayouts: [.integer(8, bigEndian: true)], .integers(bigEndian: true), .floats(bigEndian: true), .integers(bigEndian: false),
            .floats(bigEndian: false)),
        otherExtensions: ["caff"], streamCutting: .chunks(.caf))

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.count >= 4 && FourCharCode(prefix[0], prefix[1], prefix[2], prefix[3]) == "caff"
    }

    let audioData: AudioData
    public let packetTableInfo: AudioFilePacketTableInfo?
    public let magicCookie: [UInt8]?
    public let channelLayout: AudioChannelLayout?
    public let info: [(key: String, value: String)]
    /// The data chunk's edit count.
    public let editCount: UInt32
    public let repairs: [AudioFileRepair]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let header = try source.prefix(8)
        guard header.count == 8, FourCharCode(rawValue: header.be32(0)) == "caff" else {
            throw AudioFileError(.invalidFile, "no CAF file header", chunk: "caff", offset: 0)
        }
        let version = UInt16(header[4]) << 8 | UInt16(header[5])
        guard version == 1 else {
            throw AudioFileError(.invalidFile, "CAF version \(version); only version 1 is defined", chunk: "caff", offset: 0)
        }

        var walker = ChunkWalker(source, layout: .caf, start: 8)
        var desc: (reader: ByteReader, header: ChunkHeader)?
        var data: (header: ChunkHeader, size: Int64)?
        var pakt: (reader: ByteReader, header: ChunkHeader)?
        var cookie: [UInt8]?
        var layout: AudioChannelLayout?
        var metadata: [(key: String, value: String)] = []
        while let chunk = try walker.next() {
            switch chunk.id {
            case "desc":
                desc = (try chunk.body(source, minimum: 32), chunk)
            case "data":
                let size: Int64
                if chunk.declaredSize == -1 {
                    size = source.size - chunk.bodyOffset  // runs to the end of the file
                } else if chunk.declaredSize >= 0 {
                    size = walker.audioDataSize(chunk, declared: chunk.declaredSize)
                } else {
                    size = try chunk.checkedSize(fileSize: source.size)
                }
                guard size >= 4 else {
                    throw AudioFileError(.invalidChunk, "data chunk of \(size) bytes has no edit count", chunk: "data", offset: chunk.offset)
                }
                data = (chunk, size)
            case "pakt":
                pakt = (try chunk.body(source, minimum: 24), chunk)
            case "kuki":
                cookie = try chunk.body(source, minimum: 0).bytes
            case "chan":
                var r = try chunk.body(source, minimum: 12)
                layout = try Self.channelLayout(&r)
            case "info":
                guard try chunk.isReadableMetadata(fileSize: source.size) else { continue }
                var r = try chunk.body(source, minimum: 4)
                metadata = try Self.info(&r)
            default:
                _ = try chunk.checkedSize(fileSize: source.size)
            }
            // Variable-size packets need their pakt chunk: damage is tolerated only once it is read.
            walker.tolerant = data != nil && (pakt != nil || desc.map { !Self.needsPacketTable($0.reader) } ?? false)
        }
        guard var d = desc else { throw AudioFileError(.invalidFile, "no 'desc' chunk", chunk: "desc", offset: nil) }
        guard let data else { throw AudioFileError(.invalidFile, "no 'data' chunk", chunk: "data", offset: nil) }
        let format = try Self.format(&d.reader, offset: d.header.offset)
        var edit = ByteReader(try source.bytes(at: data.header.bodyOffset, count: 4, chunk: "data"), fileOffset: data.header.offset, chunk: "data")
        editCount = try edit.u32be()
        let dataOffset = data.header.bodyOffset + 4
        let dataByteCount = data.size - 4
        magicCookie = cookie
        channelLayout = layout
        info = metadata
        let truncated = walker.repairs.contains { $0.kind == .audioDataTruncated }
        repairs = walker.repairs

        let packets: AudioFilePacketIndex
        if var p = pakt {
            let count = try p.reader.u64be()
            let valid = Int64(bitPattern: try p.reader.u64be())
            let priming = Int32(bitPattern: try p.reader.u32be())
            let remainder = Int32(bitPattern: try p.reader.u32be())
            guard valid >= 0, priming >= 0, remainder >= 0 else {
                throw p.reader.error("negative frame count (valid \(valid), priming \(priming), remainder \(remainder))")
            }
            // The three together are the total frames, which must fit in 63 bits.
            guard valid <= Int64.max - Int64(priming) - Int64(remainder) else {
                throw p.reader.error("frame counts (valid \(valid), priming \(priming), remainder \(remainder)) add up to more than 2^63")
            }
            var info = AudioFilePacketTableInfo(numberValidFrames: valid, primingFrames: priming, remainderFrames: remainder)
            if format.bytesPerPacket == 0 || format.framesPerPacket == 0 {
                let table = try Self.packetTable(
                    &p.reader, count: count, format: format, data: dataOffset, dataBytes: dataByteCount, truncated: truncated)
                packets = .table(table)
                if truncated { info = Self.clamp(info, toFrames: table.totalFrames) }
            } else {
                let count = dataByteCount / Int64(format.bytesPerPacket)
                packets = .constant(bytesPerPacket: Int(format.bytesPerPacket), count: count)
                if truncated {
                    let (frames, overflow) = count.multipliedReportingOverflow(by: Int64(format.framesPerPacket))
                    info = Self.clamp(info, toFrames: overflow ? Int64.max : frames)
                }
            }
            packetTableInfo = info
        } else {
            guard format.bytesPerPacket > 0, format.framesPerPacket > 0 else {
                throw AudioFileError(.invalidFile, "variable-size \(format.formatID.messageName) data without a 'pakt' chunk", chunk: "pakt", offset: nil)
            }
            packetTableInfo = nil
            packets = .constant(bytesPerPacket: Int(format.bytesPerPacket), count: dataByteCount / Int64(format.bytesPerPacket))
        }
        audioData = AudioData(format: format, offset: dataOffset, byteCount: dataByteCount, packets: packets)
    }

    private static func format(_ r: inout ByteReader, offset: Int64) throws(AudioFileError) -> AudioStreamBasicDescription {
        let rate = try r.f64be()
        let id = AudioFormatID(rawValue: try r.u32be())
        let cafFlags = try r.u32be()
        let bytesPerPacket = try r.u32be()
        let framesPerPacket = try r.u32be()
        let channels = try r.u32be()
        let bits = try r.u32be()
        func unsupported(_ reason: String) -> AudioFileError {
            AudioFileError(.unsupportedDataFormat, reason, chunk: "desc", offset: offset)
        }
        guard channels <= 0xFFFF else { throw unsupported("\(channels) channels") }
        try PCMCheck.basics(rate: rate, channels: Int(channels), chunk: "desc", offset: offset)
        switch id {
        case .linearPCM:
            // CAF's own flags: bit 0 float, bit 1 little-endian.
            let isFloat = cafFlags & 1 != 0
            let little = cafFlags & 2 != 0
            guard bits > 0, framesPerPacket == 1, bytesPerPacket > 0, bytesPerPacket % channels == 0 else {
                throw unsupported("linear PCM with \(bits) bits, \(bytesPerPacket) bytes and \(framesPerPacket) frames per packet for \(channels) channels")
            }
            let word = bytesPerPacket / channels
            guard word <= 8, bits <= word * 8, !isFloat || (bits == word * 8 && (bits == 32 || bits == 64)) else {
                throw unsupported("\(bits)-bit \(isFloat ? "float" : "integer") samples in \(word)-byte words")
            }
            var flags: AudioFormatFlags = bits == word * 8 ? [.isPacked] : [.isAlignedHigh]
            flags.insert(isFloat ? .isFloat : .isSignedInteger)
            if !little { flags.insert(.isBigEndian) }
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: id, formatFlags: flags, bytesPerPacket: bytesPerPacket,
                framesPerPacket: 1, bytesPerFrame: bytesPerPacket, channelsPerFrame: channels, bitsPerChannel: bits)
        case .aLaw, .uLaw:
            guard bytesPerPacket == channels, framesPerPacket == 1 else {
                throw unsupported("G.711 with \(bytesPerPacket) bytes and \(framesPerPacket) frames per packet for \(channels) channels")
            }
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: id, formatFlags: AudioFormatFlags(rawValue: cafFlags),
                bytesPerPacket: bytesPerPacket, framesPerPacket: 1, bytesPerFrame: bytesPerPacket,
                channelsPerFrame: channels, bitsPerChannel: bits == 0 ? 8 : bits)
        case .appleIMA4:
            guard bytesPerPacket == 34 * channels, framesPerPacket == 64 else {
                throw unsupported("ima4 with \(bytesPerPacket) bytes and \(framesPerPacket) frames per packet for \(channels) channels")
            }
            fallthrough
        default:
            return AudioStreamBasicDescription(
                sampleRate: rate, formatID: id, formatFlags: AudioFormatFlags(rawValue: cafFlags),
                bytesPerPacket: bytesPerPacket, framesPerPacket: framesPerPacket, bytesPerFrame: 0,
                channelsPerFrame: channels, bitsPerChannel: bits)
        }
    }

    private static func packetTable(
        _ r: inout ByteReader, count: UInt64, format: AudioStreamBasicDescription, data: Int64, dataBytes: Int64,
        truncated: Bool
    ) throws(AudioFileError) -> PacketTable {
        // Each entry takes at least one byte, so the chunk bounds how many it can hold.
        guard count <= UInt64(r.remaining) else {
            throw r.error("pakt promises \(count) packets but holds at most \(r.remaining) entries")
        }
        var table = PacketTable(framesPerPacket: format.framesPerPacket, capacity: Int(count))
        var offset: Int64 = 0
        for index in 0..<Int(count) {
            let size = format.bytesPerPacket > 0 ? Int64(format.bytesPerPacket) : try r.varint()
            let frames = format.framesPerPacket > 0 ? nil : try r.varint()
            guard size <= Int64(UInt32.max), (frames ?? 0) <= Int64(UInt32.max) else {
                throw r.error("packet \(index) of \(size) bytes and \(frames ?? 0) frames is out of range")
            }
            guard size <= dataBytes - offset else {
                if truncated { break }  // a recording cut short: the whole packets that are there
                throw AudioFileError(
                    .invalidFile, "pakt packet \(index) ends at byte \(offset + size) of a data chunk holding \(dataBytes)",
                    chunk: "pakt", offset: r.fileOffset)
            }
            table.append(offset: data + offset, size: UInt32(size), frames: frames.map { UInt32($0) })
            offset += size
        }
        return table
    }

    /// True when a `desc` body describes packets of varying size or duration, which only a
    /// `pakt` chunk can list.
    private static func needsPacketTable(_ desc: ByteReader) -> Bool {
        let b = desc.bytes
        guard b.count >= 32 else { return true }
        return b.be32(20) == 0 || b.be32(24) == 0
    }

    /// Packet table info for data cut short to `frames`: the frames past the end were never
    /// written, so the remainder goes first, then valid frames.
    private static func clamp(_ info: AudioFilePacketTableInfo, toFrames frames: Int64) -> AudioFilePacketTableInfo {
        guard info.totalFrames > frames else { return info }
        let priming = min(Int64(info.primingFrames), frames)
        return AudioFilePacketTableInfo(numberValidFrames: frames - priming, primingFrames: Int32(priming), remainderFrames: 0)
    }

    /// The body of a `chan` chunk (also Apple's AIFF `CHAN` chunk).
    static func channelLayout(_ r: inout ByteReader) throws(AudioFileError) -> AudioChannelLayout {
        let tag = AudioChannelLayoutTag(rawValue: try r.u32be())
        let bitmap = AudioChannelBitmap(rawValue: try r.u32be())
        let count = Int(try r.u32be())
        guard count <= r.remaining / 20 else {
            throw r.error("chan lists \(count) channel descriptions but holds \(r.remaining / 20)")
        }
        var descriptions: [AudioChannelDescription] = []
        descriptions.reserveCapacity(count)
        for _ in 0..<count {
            let label = AudioChannelLabel(rawValue: try r.u32be())
            let flags = AudioChannelDescription.Flags(rawValue: try r.u32be())
            let coordinates = (try r.f32be(), try r.f32be(), try r.f32be())
            descriptions.append(AudioChannelDescription(label: label, flags: flags, coordinates: coordinates))
        }
        return AudioChannelLayout(tag: tag, bitmap: bitmap, descriptions: descriptions)
    }

    private static func info(_ r: inout ByteReader) throws(AudioFileError) -> [(key: String, value: String)] {
        let count = Int(try r.u32be())
        var out: [(key: String, value: String)] = []
        // Each entry takes at least two bytes (two terminators).
        guard count <= r.remaining / 2 else { throw r.error("info lists \(count) entries but holds \(r.remaining) bytes") }
        for _ in 0..<count {
            let key = try r.cString()
            let value = try r.cString()
            out.append((key, value))
        }
        return out
    }
}
