import AudioCore

/// Everything an ``AudioFileWriter`` changes, held under its lock: the open file, the header's
/// layout, what has been written and the metadata to record.
struct WriterState {
    var sink: FileSink
    var header: ContainerHeader
    /// The format as the file records it.
    let format: AudioStreamBasicDescription
    let align: Bool
    var metadata = WriterMetadata()
    /// Metadata chunks written after the audio data at close (changed once data followed the header).
    var deferred: Set<MetadataChunk> = []
    /// Bytes of audio data (the end of the furthest write).
    var dataBytes: Int64 = 0
    var packets: Int64 = 0
    var frames: Int64 = 0
    /// Sizes of variable-size packets, in order.
    var sizes: [UInt32] = []
    /// Frames of variable-duration packets, in order.
    var packetFrames: [UInt32] = []
    var maximumPacketSize: UInt32
    /// Priming and remainder frames set through the packet table info.
    var trims: (priming: Int32, remainder: Int32)?
    /// MPEG-4 and ADTS: the AAC configuration, from the cookie or the format.
    var aac: AACConfig?
    /// MPEG-4: the ALAC configuration from the cookie.
    var alac: ALACConfig?
    var lastHeaderUpdate: UInt64
    var isClosed = false
    /// A resumed file not changed yet: what follows its data is cut off at the first change.
    var resumePending = false
    /// Ogg: the audio page being filled (nil before the first packet), and the frames written
    /// before its first packet.
    var ogg: OggPageBuilder?
    var oggPageStart: Int64 = 0

    /// Nanoseconds between header updates while packets keep arriving.
    static let headerUpdateNanoseconds: UInt64 = 500_000_000

    init(path: String, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags) throws(AudioFileError) {
        // The format is checked before the file is created.
        let made = try ContainerHeader.make(type: type, format: format, metadata: WriterMetadata(), align: !flags.contains(.dontPageAlignAudioData))
        let storage = try FileDescriptorSink(creating: path, erase: flags.contains(.eraseFile))
        try self.init(made: made, storage: storage, flags: flags)
    }

    /// A file of `type` written into `storage`, which is emptied first. The storage is closed
    /// when this fails.
    init(storage: any AudioByteSink, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags) throws(AudioFileError) {
        let made: (header: ContainerHeader, recorded: AudioStreamBasicDescription)
        do {
            made = try ContainerHeader.make(type: type, format: format, metadata: WriterMetadata(), align: !flags.contains(.dontPageAlignAudioData))
        } catch {
            storage.close()
            throw error
        }
        try self.init(made: made, storage: storage, flags: flags)
    }

    private init(
        made: (header: ContainerHeader, recorded: AudioStreamBasicDescription), storage: any AudioByteSink, flags: AudioFileFlags
    ) throws(AudioFileError) {
        align = !flags.contains(.dontPageAlignAudioData)
        header = made.header
        self.format = made.recorded
        maximumPacketSize = made.recorded.bytesPerPacket
        sink = FileSink(storage)
        lastHeaderUpdate = monotonicNanoseconds()
        do {
            try sink.truncate(to: 0)
            try sink.write(header.bytes, at: 0)
        } catch {
            sink.close()
            throw error
        }
    }

    /// True when packets need descriptions: sizes or durations vary.
    var isDescribed: Bool { format.bytesPerPacket == 0 || format.framesPerPacket == 0 }

    func checkOpen() throws(AudioFileError) {
        guard !isClosed else { throw AudioFileError(.notOpen, "\(sink.path) is closed") }
    }

    /// Checks that the file is open and, in a resumed file, cuts off what follows the data
    /// (written again at close) and lets the data run to the end of the file. Called once a
    /// change is checked, before it is made.
    mutating func prepareToChange() throws(AudioFileError) {
        try checkOpen()
        guard resumePending else { return }
        try sink.truncate(to: header.dataOffset + dataBytes)
        try sink.write(BigEndianBytes.u64(UInt64.max), at: header.sizeOffset)
        resumePending = false
    }

    // MARK: Audio data

    mutating func writePackets(
        startingPacket start: Int64, bytes: UnsafeRawBufferPointer,
        descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?, packetCount count: Int
    ) throws(AudioFileError) -> Int {
        try checkOpen()
        guard count >= 0 else { throw AudioFileError(.parameter, "a packet count of \(count)") }
        guard count > 0 else { return 0 }
        guard start >= 0 else { throw AudioFileError(.invalidPacketOffset, "packet \(start) is before the start of the file") }
        guard isDescribed else { return try writeConstantPackets(start: start, bytes: bytes, count: count) }
        guard let descriptions else {
            throw AudioFileError(.invalidPacketOffset, "'\(format.formatID)' packets vary in size or duration and need packet descriptions")
        }
        guard descriptions.count >= count else {
            throw AudioFileError(.parameter, "\(count) packets but \(descriptions.count) packet descriptions")
        }
        guard start == packets else {
            throw AudioFileError(.invalidPacketOffset, "variable-size packets are appended: the next packet is \(packets), not \(start)")
        }
        if header.kind == .ogg { return try writeOggPackets(bytes: bytes, descriptions: descriptions, count: count) }
        let adts = header.kind == .adts ? try aacConfig() : nil
        if header.kind == .mp4 { _ = try mp4Codec() }
        let first = descriptions[0]
        var total: Int64 = 0
        var contiguous = true
        for i in 0..<count {
            let d = descriptions[i]
            guard d.startOffset >= 0, d.startOffset <= Int64(bytes.count) - Int64(d.dataByteSize) else {
                throw AudioFileError(
                    .invalidPacketOffset,
                    "packet description \(i) (\(d.dataByteSize) bytes at \(d.startOffset)) runs past the \(bytes.count) bytes given")
            }
            if format.bytesPerPacket > 0 && d.dataByteSize != format.bytesPerPacket {
                throw AudioFileError(.parameter, "packet \(i) has \(d.dataByteSize) bytes; the format's packets have \(format.bytesPerPacket)")
            }
            if format.framesPerPacket == 0 && d.variableFramesInPacket == 0 {
                throw AudioFileError(.parameter, "packet \(i) has no frames; the format's packets give their frames in mVariableFramesInPacket")
            }
            if let adts, adts.adtsHeader(payload: Int(d.dataByteSize)) == nil {
                throw AudioFileError(.parameter, "packet \(i) of \(d.dataByteSize) bytes is more than an ADTS frame holds (8184)")
            }
            if d.startOffset != first.startOffset + total { contiguous = false }
            total += Int64(d.dataByteSize)
        }
        if adts != nil {
            total += 7 * Int64(count)
            contiguous = false
        }
        try checkSize(end: dataBytes + total)
        try prepareToChange()
        let base = header.dataOffset + dataBytes
        if contiguous {
            let start = Int(first.startOffset)
            try sink.append(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(total))]), at: base)
        } else {
            var at = base
            for i in 0..<count {
                let d = descriptions[i]
                let start = Int(d.startOffset)
                if let frameHeader = adts?.adtsHeader(payload: Int(d.dataByteSize)) {
                    try sink.append(frameHeader, at: at)
                    at += Int64(frameHeader.count)
                }
                try sink.append(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(d.dataByteSize))]), at: at)
                at += Int64(d.dataByteSize)
            }
        }
        for i in 0..<count {
            let d = descriptions[i]
            if format.bytesPerPacket == 0 { sizes.append(d.dataByteSize) }
            var packetFrameCount = format.framesPerPacket > 0 ? format.framesPerPacket : d.variableFramesInPacket
            if header.kind == .mp4 {
                // MPEG-4 records each packet's duration: a short last packet keeps its own.
                if d.variableFramesInPacket > 0 && d.variableFramesInPacket < format.framesPerPacket { packetFrameCount = d.variableFramesInPacket }
                packetFrames.append(packetFrameCount)
            } else if format.framesPerPacket == 0 {
                packetFrames.append(d.variableFramesInPacket)
            }
            maximumPacketSize = max(maximumPacketSize, d.dataByteSize)
            frames += Int64(packetFrameCount)
        }
        packets += Int64(count)
        dataBytes += total
        try updateHeaderIfDue()
        return count
    }

    /// Constant-size packets: as many whole packets as `bytes` holds, at `start` (at most the
    /// packet count: earlier packets are overwritten in place, a gap is refused).
    private mutating func writeConstantPackets(start: Int64, bytes: UnsafeRawBufferPointer, count: Int) throws(AudioFileError) -> Int {
        guard start <= packets else {
            throw AudioFileError(.invalidPacketOffset, "packet \(start) would leave a gap after the \(packets) packets written")
        }
        let size = Int(format.bytesPerPacket)
        let n = min(count, bytes.count / size)
        guard n > 0 else { return 0 }
        try writeData(UnsafeRawBufferPointer(rebasing: bytes[0..<(n * size)]), at: start * Int64(size))
        try updateHeaderIfDue()
        return n
    }

    mutating func writeBytes(startingByte start: Int64, _ bytes: UnsafeRawBufferPointer) throws(AudioFileError) -> Int {
        try checkOpen()
        guard start >= 0 else { throw AudioFileError(.position, "byte \(start) is before the start of the audio data") }
        guard !isDescribed else {
            throw AudioFileError(.operationNotSupported, "'\(format.formatID)' packets vary in size or duration: write them as packets with descriptions")
        }
        guard !bytes.isEmpty else { return 0 }
        try writeData(bytes, at: start)
        try updateHeaderIfDue()
        return bytes.count
    }

    /// Writes constant-size data at `offset` in the audio data: appended through the gathering
    /// buffer at the end, written in place before it.
    private mutating func writeData(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileError) {
        let (end, overflow) = offset.addingReportingOverflow(Int64(bytes.count))
        guard !overflow else { throw AudioFileError(.position, "byte \(offset) is out of range") }
        try checkSize(end: end)
        try prepareToChange()
        if offset == dataBytes {
            try sink.append(bytes, at: header.dataOffset + offset)
        } else {
            try sink.write(bytes, at: header.dataOffset + offset)
        }
        dataBytes = max(dataBytes, end)
        packets = dataBytes / Int64(format.bytesPerPacket)
        frames = packets * Int64(format.framesPerPacket)
    }

    /// Refuses data ending at `end` that the container cannot describe.
    private func checkSize(end: Int64) throws(AudioFileError) {
        let (fileEnd, overflow) = header.dataOffset.addingReportingOverflow(end)
        guard !overflow, fileEnd < header.maximumFileSize else {
            throw AudioFileError(.doesNotAllow64BitDataSize, "\(header.fileType) cannot hold \(end) bytes of audio data")
        }
    }

    // MARK: Header

    private mutating func updateHeaderIfDue() throws(AudioFileError) {
        let now = monotonicNanoseconds()
        if now &- lastHeaderUpdate >= Self.headerUpdateNanoseconds {
            try updateHeader()
            lastHeaderUpdate = now
        }
    }

    /// Writes what the buffer holds and brings the header's sizes up to date.
    mutating func updateHeader() throws(AudioFileError) {
        try checkOpen()
        if resumePending { return }  // nothing changed
        try sink.flush()
        let patches = try header.sizePatches(
            dataBytes: dataBytes, packets: packets, frames: frames, fileEnd: header.dataOffset + dataBytes, final: false)
        for patch in patches { try sink.write(patch.bytes, at: patch.offset) }
    }

    mutating func close() throws(AudioFileError) {
        guard !isClosed else { return }
        defer {
            sink.close()
            isClosed = true
        }
        // A resumed file that nothing changed is left as it was.
        if resumePending { return }
        if header.kind == .ogg { try finishOgg() }
        try sink.flush()
        let end = header.dataOffset + dataBytes
        var trailer: [UInt8] = []
        if (header.kind == .wave || header.kind == .aiff) && dataBytes & 1 == 1 { trailer.append(0) }  // RIFF and IFF pad odd chunks
        for item in MetadataChunk.allCases where deferred.contains(item) {
            if let body = metadataBody(item) { trailer += header.chunk(header.chunkID(item), body) }
        }
        if header.kind == .mp4 {
            var movie = MP4Movie(
                format: format, codec: try mp4Codec(), dataOffset: header.dataOffset, sizes: sizes, frames: packetFrames,
                trims: trims)
            movie.tags = try MP4Tags.items(info: metadata.info, pictures: metadata.pictures)
            trailer += movie.bytes
        }
        if header.kind == .flac {
            // STREAMINFO's final sizes, sample count and MD5 (the cookie's, as the encoder ended).
            try sink.write(flacStreamInfo.body, at: header.sizeOffset)
        }
        if header.kind == .caf, let info = packetTableInfo {
            trailer += header.chunk("pakt", ContainerHeader.packetTableBody(
                packets: packets, validFrames: info.numberValidFrames, priming: info.primingFrames,
                remainder: info.remainderFrames, sizes: sizes, frames: packetFrames))
        }
        let fileEnd = end + Int64(trailer.count)
        guard fileEnd <= header.maximumFileSize else {
            throw AudioFileError(.doesNotAllow64BitDataSize, "\(header.fileType) cannot hold \(dataBytes) bytes of audio and its chunks")
        }
        if !trailer.isEmpty { try sink.write(trailer, at: end) }
        let patches = try header.sizePatches(dataBytes: dataBytes, packets: packets, frames: frames, fileEnd: fileEnd, final: true)
        for patch in patches { try sink.write(patch.bytes, at: patch.offset) }
        try sink.truncate(to: fileEnd)
    }

    // MARK: Properties

    /// What the `pakt` chunk says (or will say at close): CAF with variable-size packets, or
    /// where priming and remainder were set.
    var packetTableInfo: AudioFilePacketTableInfo? {
        guard [.caf, .mp4, .flac, .ogg].contains(header.kind), isDescribed || trims != nil else { return nil }
        let priming = trims?.priming ?? 0, remainder = trims?.remainder ?? 0
        let valid = max(0, frames - Int64(priming) - Int64(remainder))
        return AudioFilePacketTableInfo(numberValidFrames: valid, primingFrames: priming, remainderFrames: remainder)
    }

    mutating func setPacketTableInfo(_ info: AudioFilePacketTableInfo) throws(AudioFileError) {
        try prepareToChange()
        guard [.caf, .mp4, .flac, .ogg].contains(header.kind) else {
            throw AudioFileError(
                .unsupportedProperty, "\(header.fileType) files have no packet table; CAF, MPEG-4 and Ogg record priming and remainder frames")
        }
        let (sum, overflow) = info.numberValidFrames.addingReportingOverflow(Int64(info.primingFrames) + Int64(info.remainderFrames))
        guard info.numberValidFrames >= 0, info.primingFrames >= 0, info.remainderFrames >= 0, !overflow, sum == frames else {
            throw AudioFileError(
                .parameter,
                "\(info.numberValidFrames) valid + \(info.primingFrames) priming + \(info.remainderFrames) remainder frames "
                    + "must add up to the \(frames) frames written")
        }
        trims = (info.primingFrames, info.remainderFrames)
    }

    /// The channel layout as a reader of the file reports it (WAVE: its speaker mask).
    var channelLayout: AudioChannelLayout? {
        guard header.kind == .wave else { return metadata.channelLayout }
        guard let mask = header.waveMask, mask != 0, mask.nonzeroBitCount == Int(format.channelsPerFrame) else { return nil }
        return AudioChannelLayout(bitmap: AudioChannelBitmap(rawValue: mask))
    }

    mutating func setChannelLayout(_ layout: AudioChannelLayout?) throws(AudioFileError) {
        try prepareToChange()
        if let layout, layout.numberOfChannels != Int(format.channelsPerFrame) {
            throw AudioFileError(.parameter, "the layout \(layout) has \(layout.numberOfChannels) channels; the data has \(format.channelsPerFrame)")
        }
        var changed = metadata
        changed.channelLayout = layout
        guard header.kind == .wave, hasData else { return try setMetadata(changed, .channelLayout) }
        // WAVE keeps the layout in fmt's speaker mask, which can change in place where fmt is extensible.
        var mask = ContainerHeader.defaultChannelMask(Int(format.channelsPerFrame)) ?? 0
        if let layout {
            guard let m = layout.waveChannelMask, m.nonzeroBitCount == Int(format.channelsPerFrame) else {
                throw AudioFileError(.parameter, "WAVE records a channel layout as a speaker mask with channels in WAVE's order; \(layout) is not one")
            }
            mask = m
        }
        guard let offset = header.maskOffset else {
            throw AudioFileError(
                .operationNotSupported,
                "this WAVE header has no speaker mask (it is not WAVE_FORMAT_EXTENSIBLE); set the channel layout before writing audio")
        }
        try sink.write(LittleEndianBytes.u32(mask), at: offset)
        header.waveMask = mask
        metadata = changed
    }

    mutating func setMagicCookie(_ cookie: [UInt8]) throws(AudioFileError) {
        try prepareToChange()
        if header.kind == .ogg { return try setOggCookie(cookie) }
        if header.kind == .mp4 && format.formatID == .opus {
            // The dOps box is written from it at close.
            if !cookie.isEmpty { try checkOpusCookie(cookie) }
            metadata.magicCookie = cookie.isEmpty ? nil : cookie
            return
        }
        if header.kind == .flac || (header.kind == .mp4 && format.formatID == .flac) {
            // CAF keeps any cookie as it is; these files write the STREAMINFO it must hold.
            if !cookie.isEmpty { try checkFLACCookie(cookie) }
            // The STREAMINFO goes in the file's own block, or the dfLa box, at close.
            metadata.magicCookie = cookie.isEmpty ? nil : cookie
            return
        }
        if header.kind == .mp4 || header.kind == .adts {
            // MPEG-4 keeps the configuration in its esds, ADTS in each frame's header.
            if format.formatID == .appleLossless {
                alac = cookie.isEmpty ? nil : try ALACConfig(cookie: cookie, format: format)
                metadata.magicCookie = cookie.isEmpty ? nil : cookie
                return
            }
            let config = cookie.isEmpty ? nil : try AACConfig(cookie: cookie, format: format)
            if let problem = config?.adtsProblem, header.kind == .adts { throw AudioFileError(.parameter, "the AAC magic cookie: \(problem)") }
            aac = config
            metadata.magicCookie = cookie.isEmpty ? nil : cookie
            return
        }
        guard header.kind == .caf else {
            throw AudioFileError(.invalidChunk, "\(header.fileType) files hold no magic cookie; CAF does ('kuki')")
        }
        var changed = metadata
        changed.magicCookie = cookie.isEmpty ? nil : cookie
        try setMetadata(changed, .magicCookie)
    }

    /// The AAC configuration of an MPEG-4 or ADTS file: the cookie's, else made from the format.
    private mutating func aacConfig() throws(AudioFileError) -> AACConfig {
        if let aac { return aac }
        let made = try AACConfig.resolve(cookie: nil, format: format)
        aac = made
        return made
    }

    /// The codec configuration of an MPEG-4 file: ALAC's from the cookie or the format flags,
    /// AAC's from ``aacConfig()``.
    private mutating func mp4Codec() throws(AudioFileError) -> MP4Codec {
        if format.formatID == .flac { return .flac(flacStreamInfo.dfLaBody) }
        if format.formatID == .opus { return .opus(opusHead.dOpsBody) }
        guard format.formatID == .appleLossless else { return .aac(try aacConfig()) }
        if let alac { return .alac(alac) }
        guard let made = ALACConfig(format: format) else {
            throw AudioFileError(.unsupportedDataFormat, "ALAC whose format flags give no bit depth needs its magic cookie first")
        }
        alac = made
        return .alac(made)
    }

    /// True once audio data follows the header.
    var hasData: Bool { dataBytes > 0 }

    /// Records changed metadata: before any audio data by rebuilding the header; after it in
    /// place where the chunk keeps its size, else by renaming the header's chunk to filler and
    /// writing the new one after the data at close.
    mutating func setMetadata(_ changed: WriterMetadata, _ item: MetadataChunk) throws(AudioFileError) {
        if header.kind == .mp4 || header.kind == .adts || header.kind == .flac || header.kind == .ogg {
            // Kept and reported, not recorded: these files take the layout from the AAC configuration.
            metadata = changed
            return
        }
        guard hasData else {
            let rebuilt = try header.rebuilt(format: format, metadata: changed, align: align)
            try sink.write(rebuilt.bytes, at: 0)
            try sink.truncate(to: Int64(rebuilt.bytes.count))
            header = rebuilt
            metadata = changed
            deferred.removeAll()
            return
        }
        metadata = changed
        let body = metadataBody(item)
        if let span = header.chunks[item] {
            let headerSize: Int64 = header.kind == .caf ? 12 : 8
            if let body, body.count == span.bodySize {
                try sink.write(body, at: span.offset + headerSize)
                deferred.remove(item)
                return
            }
            try sink.write(Array(header.fillerID.utf8), at: span.offset)
            header.chunks[item] = nil
        }
        if body != nil { deferred.insert(item) } else { deferred.remove(item) }
    }

    /// The body of a metadata chunk, nil when there is nothing to record.
    func metadataBody(_ item: MetadataChunk) -> [UInt8]? {
        switch item {
        case .magicCookie:
            return metadata.magicCookie
        case .channelLayout:
            return metadata.channelLayoutBody
        case .info:
            switch header.kind {
            case .caf: return ContainerHeader.cafInfoBody(metadata.info)
            case .wave: return ContainerHeader.waveListInfoBody(metadata.info)
            default: return nil
            }
        case .id3:
            return header.kind == .wave || header.kind == .aiff ? metadata.id3Tag : nil
        }
    }
}
