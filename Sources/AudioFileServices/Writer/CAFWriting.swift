import AudioCore

/// Writing Core Audio Format files (Apple's "Core Audio Format Specification 1.0").
extension ContainerHeader {
    /// The format a CAF file records for `f`, or `unsupportedDataFormat` for what CAF cannot
    /// describe. CAF holds any format: linear PCM (signed integer or float, either byte order,
    /// samples high-aligned in words of up to 8 bytes), constant-size formats such as G.711 and
    /// IMA4, and variable-size or variable-duration formats whose packets the `pakt` chunk lists.
    static func cafFormat(_ f: AudioStreamBasicDescription) throws(AudioFileError) -> AudioStreamBasicDescription {
        let check = FormatChecks(format: f, container: "CAF")
        let ch = f.channelsPerFrame
        switch f.formatID {
        case .linearPCM:
            let word = try check.pcmSampleWord(maximumWordBytes: 8)
            guard f.isFloat || f.isSignedInteger else { throw check.unsupported("CAF holds signed integer or float samples") }
            var flags = try check.pcmAlignment(word: word, packedMeansHigh: false)
            flags.insert(f.isFloat ? .isFloat : .isSignedInteger)
            if f.isBigEndian { flags.insert(.isBigEndian) }
            return check.recordedPCM(flags: flags, sampleRate: f.sampleRate)
        case .aLaw, .uLaw:
            return try check.recordedG711(
                sampleRate: f.sampleRate, formatFlags: f.formatFlags, bitsPerChannel: f.bitsPerChannel == 0 ? 8 : f.bitsPerChannel)
        case .appleIMA4:
            try check.checkIMA4()
            fallthrough
        default:
            return AudioStreamBasicDescription(
                sampleRate: f.sampleRate, formatID: f.formatID, formatFlags: f.formatFlags, bytesPerPacket: f.bytesPerPacket,
                framesPerPacket: f.framesPerPacket, bytesPerFrame: 0, channelsPerFrame: ch, bitsPerChannel: f.bitsPerChannel)
        }
    }

    /// `caff`, `desc`, then `chan`, `kuki` and `info` where given, a `free` chunk that puts the audio on
    /// a page boundary, and a `data` chunk of size -1 (it runs to the end of the file until
    /// close gives its size).
    static func caf(_ f: AudioStreamBasicDescription, _ metadata: WriterMetadata, align: Bool) -> ContainerHeader {
        var h = BigEndianBytes()
        h.ascii("caff"); h.u16(1); h.u16(0)
        h.ascii("desc"); h.u64(32)
        h.u64(f.sampleRate.bitPattern)
        h.u32(f.formatID.rawValue)
        var flags = f.formatFlags.rawValue
        if f.isPCM {
            // CAF's own flags: bit 0 float, bit 1 little-endian.
            flags = (f.isFloat ? 1 : 0) | (f.isBigEndian ? 0 : 2)
        }
        h.u32(flags)
        h.u32(f.bytesPerPacket); h.u32(f.framesPerPacket); h.u32(f.channelsPerFrame); h.u32(f.bitsPerChannel)
        var chunks: [MetadataChunk: ChunkSpan] = [:]
        if let layout = metadata.channelLayoutBody { chunks[.channelLayout] = h.chunk("chan", layout, wideSize: true) }
        if let cookie = metadata.magicCookie { chunks[.magicCookie] = h.chunk("kuki", cookie, wideSize: true) }
        if let info = cafInfoBody(metadata.info) { chunks[.info] = h.chunk("info", info, wideSize: true) }
        if align {
            // The data chunk's header and edit count (16 bytes) follow the free chunk.
            let fill = alignment(after: h.bytes.count, extra: 16, minimum: 12)
            if fill > 0 {
                h.ascii("free"); h.u64(UInt64(fill - 12))
                h.bytes += [UInt8](repeating: 0, count: fill - 12)
            }
        }
        let sizeOffset = Int64(h.bytes.count + 4)
        h.ascii("data"); h.u64(UInt64.max)  // -1 until closed: runs to the end of the file
        h.u32(0)  // edit count
        var header = ContainerHeader(kind: .caf, fileType: .caf, bytes: h.bytes, dataOffset: Int64(h.bytes.count))
        header.chunks = chunks
        header.sizeOffset = sizeOffset
        return header
    }

    /// The body of a `pakt` chunk: packets, valid, priming and remainder frames, then one entry
    /// per packet (its size where sizes vary, its frames where durations vary).
    static func packetTableBody(
        packets: Int64, validFrames: Int64, priming: Int32, remainder: Int32,
        sizes: [UInt32], frames: [UInt32]
    ) -> [UInt8] {
        var body = BigEndianBytes()
        body.bytes.reserveCapacity(24 + sizes.count * 2 + frames.count * 2)
        body.u64(UInt64(packets))
        body.u64(UInt64(validFrames))
        body.u32(UInt32(bitPattern: priming))
        body.u32(UInt32(bitPattern: remainder))
        let count = max(sizes.count, frames.count)
        for i in 0..<count {
            if i < sizes.count { body.varint(UInt64(sizes[i])) }
            if i < frames.count { body.varint(UInt64(frames[i])) }
        }
        return body.bytes
    }
}
