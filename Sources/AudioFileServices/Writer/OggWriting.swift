import AudioCore

/// Writing Ogg Opus (RFC 7845): the `OpusHead` packet alone on the first page (beginning of
/// stream), `OpusTags` on the page(s) after it, then the audio packets on pages of up to one
/// second (48000 frames) as opusenc writes them, each page's granule position the decoded
/// frames (pre-skip included) through the last packet it completes, and the last page marked
/// end of stream with its granule position cut to the end of the valid frames (end trimming).
extension ContainerHeader {
    /// The vendor string of the `OpusTags` packet: the program that wrote the file, as ffmpeg's
    /// Ogg muxer names itself (the packets may come from any encoder).
    static let oggVendor = "swift-audio-queue"

    /// Frames of packets a page holds before the next packet starts a new one: one second, the
    /// page policy of opusenc (its `--max-delay` default of 1000 ms).
    static let oggPageFrames: Int64 = 48000

    /// The header pages for a stream of `format` whose identification header is `head` and
    /// whose comment holds `fields`, under serial number `serial`.
    static func ogg(
        _ format: AudioStreamBasicDescription, head: OpusHead, fields: [VorbisComment.Field], serial: UInt32
    ) -> ContainerHeader {
        var builder = OggPageBuilder(serial: serial)
        var bytes = builder.addAlone(head.packet, granuleAfter: 0).joined().map { $0 }
        let tags = Array("OpusTags".utf8) + VorbisComment(vendor: oggVendor, fields: fields).body
        bytes += builder.addAlone(tags, granuleAfter: 0).joined()
        var header = ContainerHeader(kind: .ogg, fileType: .ogg, bytes: bytes, dataOffset: Int64(bytes.count))
        header.oggSerial = serial
        header.oggSequence = builder.sequence
        return header
    }

    /// The identification header a file of `format` starts with before its magic cookie is set:
    /// mono or stereo (family 0), else one uncoupled stream per channel (family 255).
    static func placeholderOpusHead(_ format: AudioStreamBasicDescription) -> OpusHead {
        let channels = Int(format.channelsPerFrame)
        var head = OpusHead(channelCount: channels, preSkip: 0)
        if channels > 2 {
            head.mappingFamily = 255
            head.streamCount = channels
            head.coupledCount = 0
            head.channelMapping = (0..<channels).map { UInt8($0) }
        }
        return head
    }
}

extension FormatChecks {
    /// Opus (`'opus'`): 48 kHz, packets of varying size of 1 to 255 channels.
    func opus() throws(AudioFileError) -> AudioStreamBasicDescription {
        let f = format
        guard f.formatID == .opus else { throw unsupported("this container holds Opus") }
        guard f.bytesPerPacket == 0, (1...255).contains(f.channelsPerFrame), f.sampleRate == 48000 else {
            throw unsupported("Opus packets vary in size (0 bytes per packet), hold 1 to 255 channels and are counted at 48000 Hz")
        }
        var recorded = AudioStreamBasicDescription.opus(channels: Int(f.channelsPerFrame), framesPerPacket: Int(f.framesPerPacket))
        if f.framesPerPacket == 0 { recorded.framesPerPacket = 960 }
        return recorded
    }
}

extension WriterState {
    /// The fields of the file's comment header (`OpusTags`): the info dictionary and the
    /// pictures (`METADATA_BLOCK_PICTURE`).
    var commentFields: [VorbisComment.Field] { VorbisComment.fields(info: metadata.info, pictures: metadata.pictures) }

    /// The identification header the file records: the magic cookie's, else one made from the
    /// format; its pre-skip is the packet table's priming where that was set.
    var opusHead: OpusHead {
        var head = metadata.magicCookie.flatMap { try? OpusHead(cookie: $0) } ?? ContainerHeader.placeholderOpusHead(format)
        if let trims { head.preSkip = Int(trims.priming) }
        return head
    }

    /// Writes the header pages again for the current metadata (before any audio data).
    mutating func rebuildOggHeader() throws(AudioFileError) {
        let rebuilt = ContainerHeader.ogg(format, head: opusHead, fields: commentFields, serial: header.oggSerial)
        try sink.write(rebuilt.bytes, at: 0)
        try sink.truncate(to: Int64(rebuilt.bytes.count))
        header = rebuilt
    }

    /// An Opus magic cookie (an `OpusHead` packet or a `dOps` body) of the format's channels,
    /// else `parameter`. Before audio data the header pages are written again; after, the
    /// identification page is rewritten in place when the header keeps its size.
    mutating func setOggCookie(_ cookie: [UInt8]) throws(AudioFileError) {
        var head: OpusHead?
        if !cookie.isEmpty {
            do {
                head = try OpusHead(cookie: cookie)
            } catch {
                throw AudioFileError(.parameter, "the Opus magic cookie: \(error.reason)")
            }
            guard head?.channelCount == Int(format.channelsPerFrame) else {
                throw AudioFileError(.parameter, "the Opus magic cookie has \(head?.channelCount ?? 0) channels; the data format \(format.channelsPerFrame)")
            }
        }
        let old = opusHead.packet
        metadata.magicCookie = head?.packet
        if dataBytes == 0 && ogg == nil {
            try rebuildOggHeader()
        } else if opusHead.packet.count != old.count {
            metadata.magicCookie = old
            throw AudioFileError(.operationNotSupported, "an Ogg Opus header of another size cannot replace the one before the audio")
        } else {
            try writeOggHeadPage()
        }
    }

    /// Rewrites the identification page (the file's first) from ``opusHead``.
    mutating func writeOggHeadPage() throws(AudioFileError) {
        let page = OggPageBuilder.singlePage(opusHead.packet, serial: header.oggSerial, sequence: 0, flags: 0)
        try sink.write(page, at: 0)
    }

    /// Lays packets on pages: each packet's duration from its TOC byte (else the format's frames
    /// per packet), a page written once it holds a second of packets and the next one comes.
    mutating func writeOggPackets(
        bytes: UnsafeRawBufferPointer, descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>, count: Int
    ) throws(AudioFileError) -> Int {
        var durations: [Int] = []
        durations.reserveCapacity(count)
        for i in 0..<count {
            let d = descriptions[i]
            guard d.startOffset >= 0, d.startOffset <= Int64(bytes.count) - Int64(d.dataByteSize), d.dataByteSize > 0 else {
                throw AudioFileError(
                    .invalidPacketOffset,
                    "packet description \(i) (\(d.dataByteSize) bytes at \(d.startOffset)) is empty or runs past the \(bytes.count) bytes given")
            }
            let packet = UnsafeRawBufferPointer(rebasing: bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
            let frames = OpusPacket.frameCount(packet)
                ?? Int(d.variableFramesInPacket > 0 ? d.variableFramesInPacket : format.framesPerPacket)
            guard frames > 0 else { throw AudioFileError(.parameter, "packet \(i) gives no duration") }
            durations.append(frames)
        }
        try prepareToChange()
        if ogg == nil { ogg = OggPageBuilder(serial: header.oggSerial, sequence: header.oggSequence) }
        for i in 0..<count {
            let d = descriptions[i]
            if let builder = ogg, builder.packetsOnPage > 0, frames - oggPageStart >= ContainerHeader.oggPageFrames,
               var page = ogg?.flush() {
                try appendOggPage(&page)
                oggPageStart = frames
            }
            let packet = UnsafeRawBufferPointer(rebasing: bytes[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
            frames += Int64(durations[i])
            let pages = ogg!.add(packet, granuleAfter: frames)
            for var page in pages {
                try appendOggPage(&page)
                oggPageStart = frames
            }
            sizes.append(d.dataByteSize)
            packetFrames.append(UInt32(durations[i]))
            maximumPacketSize = max(maximumPacketSize, d.dataByteSize)
        }
        packets += Int64(count)
        return count
    }

    private mutating func appendOggPage(_ page: inout [UInt8]) throws(AudioFileError) {
        try sink.append(page, at: header.dataOffset + dataBytes)
        dataBytes += Int64(page.count)
    }

    /// At close: the last page, marked end of stream, its granule position the end of the valid
    /// frames; and the identification page again, with the final pre-skip.
    mutating func finishOgg() throws(AudioFileError) {
        if ogg == nil { ogg = OggPageBuilder(serial: header.oggSerial, sequence: header.oggSequence) }
        let end = frames - Int64(trims?.remainder ?? 0)
        if var page = ogg?.flush(flags: OggPageBuilder.endFlag, granule: max(0, end), force: true) {
            try appendOggPage(&page)
        }
        try sink.flush()
        try writeOggHeadPage()
    }
}

extension OpusHead {
    /// The body of an MPEG-4 `dOps` box (ISO/IEC 14496-12's Opus mapping, big-endian): version
    /// 0, the channel count, pre-skip, input rate, output gain and mapping family, then for
    /// families other than 0 the stream counts and the mapping table.
    var dOpsBody: [UInt8] {
        var b = BigEndianBytes()
        b.bytes += [0, UInt8(truncatingIfNeeded: channelCount)]
        b.u16(UInt16(truncatingIfNeeded: preSkip))
        b.u32(UInt32(truncatingIfNeeded: inputSampleRate))
        b.u16(UInt16(bitPattern: outputGain))
        b.bytes.append(UInt8(truncatingIfNeeded: mappingFamily))
        if mappingFamily != 0 {
            b.bytes += [UInt8(truncatingIfNeeded: streamCount), UInt8(truncatingIfNeeded: coupledCount)] + channelMapping
        }
        return b.bytes
    }
}

extension WriterState {
    /// An Opus magic cookie must be an `OpusHead` packet or `dOps` body of the format's
    /// channels, else `parameter`.
    func checkOpusCookie(_ cookie: [UInt8]) throws(AudioFileError) {
        let head: OpusHead
        do {
            head = try OpusHead(cookie: cookie)
        } catch {
            throw AudioFileError(.parameter, "the Opus magic cookie: \(error.reason)")
        }
        guard head.channelCount == Int(format.channelsPerFrame) else {
            throw AudioFileError(.parameter, "the Opus magic cookie has \(head.channelCount) channels; the data format \(format.channelsPerFrame)")
        }
    }
}
