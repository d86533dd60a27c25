import AudioCore

/// Writing WAVE files (RIFF; RF64 once the data passes 4 GiB).
extension ContainerHeader {
    /// The format a WAVE file records for `f`: linear PCM (8-bit unsigned, wider signed integer,
    /// 32- and 64-bit float, little-endian), A-law and µ-law.
    static func waveFormat(_ f: AudioStreamBasicDescription) throws(AudioFileError) -> AudioStreamBasicDescription {
        let check = FormatChecks(format: f, container: "WAVE")
        switch f.formatID {
        case .linearPCM:
            let word = try check.pcmSampleWord(maximumPacketBytes: 0xFFFF)
            guard !f.isBigEndian || word == 1 else { throw check.unsupported("WAVE holds little-endian samples only") }
            if !f.isFloat {
                guard word <= 4 else { throw check.unsupported("integer samples are at most 32 bits") }
                guard (word == 1 && !f.isSignedInteger) || (word > 1 && f.isSignedInteger) else {
                    throw check.unsupported("WAVE holds 8-bit unsigned or wider signed samples")
                }
            }
            var flags = try check.pcmAlignment(word: word, packedMeansHigh: true)
            if f.isFloat { flags.insert(.isFloat) } else if word > 1 { flags.insert(.isSignedInteger) }
            return check.recordedPCM(flags: flags, sampleRate: f.sampleRate.rounded())
        case .aLaw, .uLaw:
            return try check.recordedG711(sampleRate: f.sampleRate.rounded())
        case .appleIMA4:
            throw AudioFileError(
                .unsupportedDataFormat,
                "WAVE cannot hold Apple IMA4 ('ima4'): WAVE's IMA ADPCM (format tag 0x11) is the Microsoft/DVI codec, "
                    + "a different bitstream; write ima4 to CAF or AIFC")
        default:
            throw check.unsupported("WAVE holds linear PCM, A-law and µ-law")
        }
    }

    /// RIFF, a JUNK chunk reserved for RF64's ds64, `fmt ` (`WAVE_FORMAT_EXTENSIBLE` for more
    /// than two channels, more than 16 bits, samples narrower than their words or a channel
    /// layout), `fact` for G.711, where there are tags a `LIST` chunk of type `INFO` when INFO has an
    /// ID for every key (ffmpeg reads it, and beside it ignores the ID3 text) and an `id3 ` chunk
    /// (an ID3v2.4 tag of every key and the pictures, which ffmpeg and mutagen read), a JUNK
    /// chunk that puts the audio on a page boundary, and `data`.
    /// The RIFF and data sizes say 0xFFFFFFFF (streamed: to the end of the file) until the first
    /// header update.
    static func wave(_ f: AudioStreamBasicDescription, _ metadata: WriterMetadata, align: Bool) throws(AudioFileError) -> ContainerHeader {
        let word = Int(f.bytesPerFrame / f.channelsPerFrame)
        let tag: UInt16
        if f.formatID == .aLaw { tag = 6 } else if f.formatID == .uLaw { tag = 7 } else { tag = f.isFloat ? 3 : 1 }
        var mask: UInt32?
        if let layout = metadata.channelLayout {
            guard let m = layout.waveChannelMask, m.nonzeroBitCount == Int(f.channelsPerFrame) else {
                throw AudioFileError(.parameter, "WAVE records a channel layout as a speaker mask with channels in WAVE's order; \(layout) is not one")
            }
            mask = m
        }
        let extensible = f.isPCM && (f.channelsPerFrame > 2 || word * 8 > 16 || Int(f.bitsPerChannel) != word * 8 || mask != nil)
        var fmt = LittleEndianBytes()
        fmt.u16(extensible ? 0xFFFE : tag)
        fmt.u16(UInt16(f.channelsPerFrame))
        fmt.u32(UInt32(f.sampleRate))
        fmt.u32(UInt32(f.sampleRate) &* f.bytesPerFrame)
        fmt.u16(UInt16(f.bytesPerFrame))
        fmt.u16(UInt16(word * 8))
        var maskAt: Int?
        if extensible {
            fmt.u16(22)
            fmt.u16(UInt16(f.bitsPerChannel))
            maskAt = fmt.bytes.count
            mask = mask ?? defaultChannelMask(Int(f.channelsPerFrame))
            fmt.u32(mask ?? 0)
            fmt.u16(tag)
            fmt.bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if !f.isPCM {
            fmt.u16(0)
        }
        var h = LittleEndianBytes()
        h.ascii("RIFF"); h.u32(0xFFFF_FFFF); h.ascii("WAVE")
        // Room for an RF64 ds64 chunk should the data pass 4 GiB (EBU Tech 3306).
        h.ascii("JUNK"); h.u32(28); h.bytes += [UInt8](repeating: 0, count: 28)
        let fmtBody = Int64(h.bytes.count + 8)
        h.ascii("fmt "); h.u32(UInt32(fmt.bytes.count)); h.bytes += fmt.bytes
        var countOffset: Int64?
        if !f.isPCM {
            countOffset = Int64(h.bytes.count + 8)
            h.ascii("fact"); h.u32(4); h.u32(0)
        }
        var chunks: [MetadataChunk: ChunkSpan] = [:]
        if let list = ContainerHeader.waveListInfoBody(metadata.info) {
            chunks[.info] = ChunkSpan(offset: Int64(h.bytes.count), bodySize: list.count)
            h.ascii("LIST"); h.u32(UInt32(list.count)); h.bytes += list
        }
        if let tag = metadata.id3Tag {
            chunks[.id3] = ChunkSpan(offset: Int64(h.bytes.count), bodySize: tag.count)
            h.ascii("id3 "); h.u32(UInt32(tag.count)); h.bytes += tag
            if tag.count & 1 == 1 { h.bytes.append(0) }
        }
        if align {
            let fill = alignment(after: h.bytes.count, extra: 8, minimum: 8)
            if fill > 0 {
                h.ascii("JUNK"); h.u32(UInt32(fill - 8))
                h.bytes += [UInt8](repeating: 0, count: fill - 8)
            }
        }
        let dataSizeOffset = Int64(h.bytes.count + 4)
        h.ascii("data"); h.u32(0xFFFF_FFFF)
        var header = ContainerHeader(kind: .wave, fileType: .wave, bytes: h.bytes, dataOffset: Int64(h.bytes.count))
        header.chunks = chunks
        header.sizeOffset = 4
        header.dataSizeOffset = dataSizeOffset
        header.countOffset = countOffset
        header.maskOffset = maskAt.map { fmtBody + Int64($0) }
        header.waveMask = extensible ? mask : nil
        return header
    }

    /// WAVE's default speaker mask for a channel count (front left/right, centre, LFE, back, side).
    static func defaultChannelMask(_ channels: Int) -> UInt32? {
        switch channels {
        case 1: 0x4
        case 2: 0x3
        case 3: 0x7
        case 4: 0x33
        case 5: 0x37
        case 6: 0x3F
        case 7: 0x13F
        case 8: 0x63F
        default: nil
        }
    }
}
