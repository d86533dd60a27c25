import AudioCore

/// Writing AIFF and AIFF-C files.
extension ContainerHeader {
    /// An AIFF-C compression type and its name.
    struct AIFCCompression: Sendable {
        let code: String
        let name: String
    }

    /// The format an AIFF or AIFF-C file records for `f`, and the AIFF-C compression type, nil for
    /// plain AIFF. Plain AIFF holds big-endian signed integer PCM (and 8-bit signed); AIFF-C
    /// adds little-endian integer (`sowt`), unsigned 8-bit (`raw `), big-endian float (`fl32`,
    /// `fl64`), µ-law (`ulaw`), A-law (`alaw`) and Apple IMA4 (`ima4`). With `aifc` the file is
    /// AIFF-C even for what plain AIFF holds (`NONE`).
    static func aiffFormat(_ f: AudioStreamBasicDescription, aifc: Bool) throws(AudioFileError) -> (AudioStreamBasicDescription, AIFCCompression?) {
        let check = FormatChecks(format: f, container: "AIFF")
        let ch = f.channelsPerFrame
        guard ch <= 0x7FFF else { throw check.unsupported("AIFF holds at most 32767 channels") }
        switch f.formatID {
        case .linearPCM:
            let word = try check.pcmWordSize()
            guard f.bitsPerChannel > 0, f.bitsPerChannel <= 64, word == (f.bitsPerChannel + 7) / 8 else {
                throw check.unsupported("AIFF holds samples of up to 64 bits in the fewest whole bytes")
            }
            var flags = try check.pcmAlignment(word: word, packedMeansHigh: true)
            var compression: AIFCCompression?
            var little = false
            if f.isFloat {
                guard f.isBigEndian else { throw check.unsupported("AIFF-C holds big-endian float samples only") }
                try check.checkFloat(word: word)
                compression = word == 8 ? AIFCCompression(code: "fl64", name: "64-bit floating point") : AIFCCompression(code: "fl32", name: "32-bit floating point")
                flags.insert(.isFloat)
            } else if !f.isSignedInteger {
                guard word == 1 else { throw check.unsupported("AIFF holds signed integer samples") }
                compression = AIFCCompression(code: "raw ", name: "")
            } else {
                guard word <= 4 else { throw check.unsupported("integer samples are at most 32 bits") }
                flags.insert(.isSignedInteger)
                if !f.isBigEndian && word > 1 {
                    compression = AIFCCompression(code: "sowt", name: "")
                    little = true
                } else if aifc {
                    compression = AIFCCompression(code: "NONE", name: "not compressed")
                }
            }
            if !little { flags.insert(.isBigEndian) }
            return (check.recordedPCM(flags: flags, sampleRate: f.sampleRate), compression)
        case .aLaw, .uLaw:
            let compression = f.formatID == .aLaw ? AIFCCompression(code: "alaw", name: "ALaw 2:1") : AIFCCompression(code: "ulaw", name: "µLaw 2:1")
            return (try check.recordedG711(sampleRate: f.sampleRate), compression)
        case .appleIMA4:
            try check.checkIMA4()
            return (
                AudioStreamBasicDescription(
                    sampleRate: f.sampleRate, formatID: .appleIMA4, bytesPerPacket: 34 * ch, framesPerPacket: 64, bytesPerFrame: 0,
                    channelsPerFrame: ch, bitsPerChannel: 0),
                AIFCCompression(code: "ima4", name: "IMA 4:1")
            )
        default:
            throw check.unsupported("AIFF holds linear PCM, A-law, µ-law and IMA4")
        }
    }

    /// FORM, FVER (AIFF-C), COMM, CHAN where a layout is given (Apple's chunk, the body of CAF's
    /// `chan`), `ID3 ` where there are tags (an ID3v2.4 tag of the info dictionary and the
    /// pictures: ffmpeg and mutagen read it, where the text chunks are ASCII and ffmpeg reads
    /// `AUTH` as `author`), and SSND whose offset field pads the audio to a page boundary. COMM counts sample
    /// frames, packets for ima4. The header is a complete empty file; its sizes follow the data.
    static func aiff(_ f: AudioStreamBasicDescription, _ compression: AIFCCompression?, _ metadata: WriterMetadata, align: Bool) -> ContainerHeader {
        var comm = BigEndianBytes()
        comm.u16(UInt16(f.channelsPerFrame))
        comm.u32(0)  // frames (packets for ima4)
        comm.u16(UInt16(f.isPCM ? f.bitsPerChannel : 16))
        comm.bytes += extended80(f.sampleRate)
        if let compression {
            comm.ascii(compression.code)
            let name = Array(compression.name.utf8)
            comm.bytes.append(UInt8(name.count))
            comm.bytes += name
            if (name.count + 1) & 1 == 1 { comm.bytes.append(0) }
        }
        let isAIFC = compression != nil
        var h = BigEndianBytes()
        h.ascii("FORM"); h.u32(0); h.ascii(isAIFC ? "AIFC" : "AIFF")
        if isAIFC { h.ascii("FVER"); h.u32(4); h.u32(0xA280_5140) }
        let countOffset = Int64(h.bytes.count + 8 + 2)
        h.ascii("COMM"); h.u32(UInt32(comm.bytes.count)); h.bytes += comm.bytes
        var chunks: [MetadataChunk: ChunkSpan] = [:]
        if let layout = metadata.channelLayoutBody { chunks[.channelLayout] = h.chunk("CHAN", layout, wideSize: false) }
        if let tag = metadata.id3Tag {
            chunks[.id3] = h.chunk("ID3 ", tag, wideSize: false)
            if tag.count & 1 == 1 { h.bytes.append(0) }
        }
        // SSND: header, offset and block size (16 bytes), then `pad` zero bytes before the audio.
        let pad = align ? alignment(after: h.bytes.count, extra: 16, minimum: 0) : 0
        let dataSizeOffset = Int64(h.bytes.count + 4)
        h.ascii("SSND"); h.u32(UInt32(8 + pad)); h.u32(UInt32(pad)); h.u32(0)
        h.bytes += [UInt8](repeating: 0, count: pad)
        let formSize = h.bytes.count - 8
        h.bytes.replaceSubrange(4..<8, with: BigEndianBytes.u32(UInt32(formSize)))
        var header = ContainerHeader(kind: .aiff, fileType: isAIFC ? .aifc : .aiff, bytes: h.bytes, dataOffset: Int64(h.bytes.count))
        header.chunks = chunks
        header.sizeOffset = 4
        header.dataSizeOffset = dataSizeOffset
        header.countOffset = countOffset
        header.ssndPad = Int64(pad)
        return header
    }
}
