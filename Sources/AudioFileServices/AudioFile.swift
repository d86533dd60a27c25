public import AudioCore

/// An audio file opened for reading: Apple's `AudioFileID`, with its properties as Swift
/// properties and `AudioFileReadPacketData` / `AudioFileReadBytes` as methods.
///
/// Opening reads headers and packet tables only, never the audio data, so it is cheap for any
/// file size. The container is chosen by a type hint, else by magic bytes, else by the file name
/// extension. An `AudioFile` may be read from several threads at once.
public final class AudioFile: Sendable {
    /// The container parser for this file.
    public let container: any AudioFileFormat
    /// Where the bytes come from.
    public let source: any AudioByteSource

    /// Opens the file at `path`. `typeHint` picks the container when magic bytes can't.
    public convenience init(path: String, typeHint: AudioFileType? = nil) throws(AudioFileError) {
        let source = try FileByteSource(path: path)
        let ext = path.split(separator: "/").last.flatMap { name in
            name.contains(".") ? name.split(separator: ".").last.map(String.init) : nil
        }
        try self.init(source: source, typeHint: typeHint, fileExtension: ext)
    }

    /// Opens a file from any byte source. The container is `typeHint` where that type's magic
    /// bytes match or none do; else the one whose magic bytes match; else the one for
    /// `fileExtension`. Throws `unsupportedFileType` when nothing matches.
    public init(source: any AudioByteSource, typeHint: AudioFileType? = nil, fileExtension: String? = nil) throws(AudioFileError) {
        self.source = source
        let prefix = try source.prefix(64)
        let byMagic = AudioFileFormats.detect(prefix: prefix)
        let byHint = typeHint.flatMap(AudioFileFormats.forType)
        let byExtension = fileExtension.flatMap(AudioFileFormats.forExtension)
        var found = byMagic ?? byHint ?? byExtension
        if found == nil { found = try AudioFileFormats.sniff(source) }
        guard let format = found else {
            if source.size == 0 {
                throw AudioFileError(.invalidFile, "the file is empty", offset: 0)
            }
            throw AudioFileError(.unsupportedFileType, "not a file of a type it reads (\(AudioFileFormats.readerNames))", offset: 0)
        }
        container = try format.init(reading: source)
    }

    // MARK: Properties (kAudioFileProperty…)

    /// `kAudioFilePropertyFileFormat`.
    public var fileType: AudioFileType { container.fileType }
    /// `kAudioFilePropertyDataFormat`.
    public var dataFormat: AudioStreamBasicDescription { container.dataFormat }
    /// `kAudioFilePropertyAudioDataPacketCount`.
    public var packetCount: Int64 { container.packets.count }
    /// `kAudioFilePropertyAudioDataByteCount`.
    public var dataByteCount: Int64 { container.dataByteCount }
    /// `kAudioFilePropertyDataOffset`: where the audio data starts in the file.
    public var dataOffset: Int64 { container.dataOffset }
    /// `kAudioFilePropertyMagicCookieData`.
    public var magicCookie: [UInt8]? { container.magicCookie }
    /// `kAudioFilePropertyChannelLayout`.
    public var channelLayout: AudioChannelLayout? { container.channelLayout }
    /// `kAudioFilePropertyInfoDictionary` without the derived duration, in file order.
    public var metadata: [(key: String, value: String)] { container.info }

    /// `kAudioFilePropertyMaximumPacketSize`: the largest packet actually in the file.
    public var maximumPacketSize: Int { Self.maximumPacketSize(of: container) }

    /// `kAudioFilePropertyPacketSizeUpperBound`: the largest packet the format allows, without
    /// scanning.
    public var packetSizeUpperBound: Int { Self.packetSizeUpperBound(of: container) }

    static func maximumPacketSize(of container: any AudioFileFormat) -> Int {
        switch container.packets {
        case .constant(let bytes, _): bytes
        case .table(let table): Int(table.maximumSize)
        }
    }

    static func packetSizeUpperBound(of container: any AudioFileFormat) -> Int {
        var bound = max(container.packetSizeUpperBound ?? 0, maximumPacketSize(of: container))
        let format = container.dataFormat
        let aac: Set<AudioFormatID> = [.mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD]
        if aac.contains(format.formatID) {
            // 6144 bits per channel per raw data block (ISO/IEC 14496-3, 4.5.3.2).
            bound = max(bound, 768 * Int(format.channelsPerFrame))
        }
        return bound
    }

    /// `kAudioFilePropertyNumTracks`: 1, or the tracks of an MPEG-4 file.
    public var trackCount: Int { container.trackCount }
    /// The chapters the file lists (Nero `chpl` in MPEG-4 files), in order.
    public var chapters: [AudioFileChapter] { container.chapters }

    /// The damage worked around to read this file, in the order it was met: bytes after the
    /// container's declared end, a chunk after the audio running past the end of the file, audio
    /// data cut short (see ``AudioFileRepair``). Empty for a sound file. Apple's API has no
    /// counterpart; its reader refuses such files or reads them silently.
    public var repairs: [AudioFileRepair] { container.repairs }

    /// `kAudioFilePropertyPacketTableInfo`, where the file records one.
    public var packetTableInfo: AudioFilePacketTableInfo? { container.packetTableInfo }

    /// Frames the packets decode to, before trimming priming and remainder.
    public var totalFrames: Int64 {
        switch container.packets {
        case .constant(_, let count):
            let perPacket = Int64(dataFormat.framesPerPacket)
            if perPacket > 0, count > 0 { return count.multipliedReportingOverflow(by: perPacket).overflow ? .max : count * perPacket }
            return container.frameCountHint ?? 0
        case .table(let table):
            return table.totalFrames
        }
    }

    /// Frames of real audio: the packet table's valid frames where there is one, else the
    /// container's own frame count (a compressed WAVE's `fact`, which excludes the padding of the
    /// last block), else every frame.
    public var validFrames: Int64 {
        if let table = packetTableInfo { return table.numberValidFrames }
        let total = totalFrames
        if let hint = container.frameCountHint, hint >= 0 { return total > 0 ? min(hint, total) : hint }
        return total
    }

    /// `kAudioFilePropertyEstimatedDuration`, in seconds.
    public var estimatedDuration: Double {
        let rate = dataFormat.sampleRate
        guard rate > 0 else { return 0 }
        return Double(validFrames) / rate
    }

    /// `kAudioFilePropertyBitRate`, in bits per second.
    public var bitRate: Int {
        let f = dataFormat
        if f.bytesPerPacket > 0 && f.framesPerPacket > 0 {
            return clampedInt(Double(f.bytesPerPacket) * 8 * f.sampleRate / Double(f.framesPerPacket))
        }
        let seconds = Double(totalFrames) / f.sampleRate
        guard seconds > 0 else { return 0 }
        return clampedInt(Double(dataByteCount) * 8 / seconds)
    }

    /// `kAudioFilePropertyInfoDictionary`: the file's metadata under Apple's keys, plus
    /// `approximate duration in seconds`.
    public var infoDictionary: [String: String] {
        var out: [String: String] = [:]
        for (key, value) in container.info where out[key] == nil { out[key] = value }
        out["approximate duration in seconds"] = formatDuration(estimatedDuration)
        return out
    }

    // MARK: Reading

    /// The result of ``readPackets(from:count:maxBytes:)``.
    public struct Packets: Sendable {
        /// The packets' bytes, back to back.
        public var data: [UInt8]
        /// One description per packet for VBR or variable-duration formats; nil for CBR.
        public var descriptions: [AudioStreamPacketDescription]?
        /// Packets read: fewer than asked at the end of the file or when `maxBytes` is reached.
        public var packetCount: Int { descriptions?.count ?? (bytesPerPacket > 0 ? data.count / bytesPerPacket : 0) }
        let bytesPerPacket: Int
    }

    /// Reads up to `count` packets starting at packet `start` (Apple's `AudioFileReadPacketData`).
    ///
    /// Never splits a packet: reading stops before the first packet that would exceed
    /// `maxBytes`. At the end of the file fewer packets (zero at exactly the end) are returned.
    /// Throws `invalidPacketOffset` for a start before 0 or past the end, and `badPropertySize`
    /// when even the first packet does not fit in `maxBytes`.
    public func readPackets(from start: Int64, count: Int, maxBytes: Int? = nil) throws(AudioFileError) -> Packets {
        let plan = try planRead(from: start, count: count, maxBytes: maxBytes ?? Int.max)
        var data = [UInt8](repeating: 0, count: plan.bytes)
        var descriptions: [AudioStreamPacketDescription]? = needsDescriptions ? [] : nil
        try data.withMutableBytes { buffer throws(AudioFileError) in
            try descriptions.withOptionalBuffer(count: plan.packets) { descriptionBuffer throws(AudioFileError) in
                _ = try read(plan: plan, into: buffer, descriptions: descriptionBuffer)
            }
        }
        return Packets(data: data, descriptions: descriptions, bytesPerPacket: Int(dataFormat.bytesPerPacket))
    }

    /// Reads up to `count` packets starting at `start` into `buffer`, never splitting a packet,
    /// and fills `descriptions` (which must hold `count` entries for VBR data). Returns the bytes
    /// and packets read. This is `AudioFileReadPacketData` without allocation.
    public func readPackets(
        from start: Int64, count: Int, into buffer: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioFileError) -> (byteCount: Int, packetCount: Int) {
        let plan = try planRead(from: start, count: count, maxBytes: buffer.count)
        if needsDescriptions {
            guard let descriptions, descriptions.count >= plan.packets else {
                throw AudioFileError(.badPropertySize, "variable-size packets need \(plan.packets) packet descriptions")
            }
            return (try read(plan: plan, into: buffer, descriptions: descriptions), plan.packets)
        }
        return (try read(plan: plan, into: buffer, descriptions: nil), plan.packets)
    }

    /// Reads up to `count` bytes of audio data starting `offset` bytes after ``dataOffset``
    /// (Apple's `AudioFileReadBytes`). Returns fewer bytes at the end of the data; throws
    /// `endOfFile` when `offset` is at or past the end, `position` when it is negative.
    public func readBytes(at offset: Int64, count: Int) throws(AudioFileError) -> [UInt8] {
        let n = try bytesAvailable(at: offset, count: count)
        return try source.bytes(at: dataOffset + offset, count: n, chunk: "data")
    }

    /// ``readBytes(at:count:)`` into memory the caller owns: reads up to `buffer.count` bytes
    /// straight into `buffer` and returns how many (fewer at the end of the data), with the same
    /// errors.
    package func readBytes(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) -> Int {
        let n = try bytesAvailable(at: offset, count: buffer.count)
        try source.read(at: dataOffset + offset, filling: UnsafeMutableRawBufferPointer(rebasing: buffer[..<n]), chunk: "data")
        return n
    }

    /// How many of `count` bytes of audio data there are from `offset`.
    private func bytesAvailable(at offset: Int64, count: Int) throws(AudioFileError) -> Int {
        guard offset >= 0, count >= 0 else { throw AudioFileError(.position, "negative offset or count") }
        guard offset < dataByteCount else {
            throw AudioFileError(.endOfFile, "offset \(offset) is at or past the \(dataByteCount) bytes of audio data")
        }
        return Int(min(Int64(count), dataByteCount - offset))
    }

    /// True when reads return packet descriptions (VBR data or variable frames per packet).
    public var needsDescriptions: Bool {
        if case .table = container.packets { return true }
        return false
    }

    private struct ReadPlan {
        let start: Int
        let packets: Int
        let bytes: Int
    }

    private func planRead(from start: Int64, count: Int, maxBytes: Int) throws(AudioFileError) -> ReadPlan {
        let total = packetCount
        guard start >= 0, start <= total else {
            throw AudioFileError(.invalidPacketOffset, "packet \(start) is outside the file's \(total) packets")
        }
        guard count >= 0 else { throw AudioFileError(.badPropertySize, "negative packet count \(count)") }
        let wanted = Int(min(Int64(count), total - start))
        guard wanted > 0 else { return ReadPlan(start: Int(start), packets: 0, bytes: 0) }
        switch container.packets {
        case .constant(let size, _):
            let fit = maxBytes / size
            guard fit > 0 else {
                throw AudioFileError(.badPropertySize, "a buffer of \(maxBytes) bytes cannot hold one \(size)-byte packet")
            }
            let n = min(wanted, fit)
            return ReadPlan(start: Int(start), packets: n, bytes: n * size)
        case .table(let table):
            var bytes = 0
            var n = 0
            let first = Int(start)
            while n < wanted {
                let size = Int(table.sizes[first + n])
                if size > maxBytes - bytes { break }
                bytes += size
                n += 1
            }
            guard n > 0 else {
                throw AudioFileError(.badPropertySize, "a buffer of \(maxBytes) bytes cannot hold packet \(start) of \(table.sizes[first]) bytes")
            }
            return ReadPlan(start: first, packets: n, bytes: bytes)
        }
    }

    private func read(
        plan: ReadPlan, into buffer: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioFileError) -> Int {
        guard plan.packets > 0 else { return 0 }
        switch container.packets {
        case .constant(let size, _):
            let offset = dataOffset + Int64(plan.start) * Int64(size)
            try readExactly(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<plan.bytes]))
            return plan.bytes
        case .table(let table):
            if !table.pieces.isEmpty, let bytes = try readPieces(of: plan.start..<(plan.start + plan.packets), table: table, into: buffer, descriptions: descriptions) {
                return bytes
            }
            if let bytes = try readSpan(of: plan, table: table, into: buffer, descriptions: descriptions) { return bytes }
            // Read runs of packets that lie back to back in the file with one call each.
            var written = 0
            var runStart = plan.start
            var runBytes = 0
            let variableFrames = !table.frames.isEmpty
            for i in plan.start..<(plan.start + plan.packets) {
                let size = Int(table.sizes[i])
                descriptions?[i - plan.start] = AudioStreamPacketDescription(
                    startOffset: Int64(written + runBytes),
                    variableFramesInPacket: variableFrames ? table.frames[i] : 0,
                    dataByteSize: UInt32(size))
                if i > runStart && table.offsets[i] != table.offsets[runStart] + Int64(runBytes) {
                    try readExactly(at: table.offsets[runStart], into: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + runBytes)]))
                    written += runBytes
                    runStart = i
                    runBytes = 0
                }
                runBytes += size
            }
            try readExactly(at: table.offsets[runStart], into: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + runBytes)]))
            return written + runBytes
        }
    }

    /// Reads packets that follow each other in the file with small gaps between them (ADTS and
    /// MPEG audio frame headers, MPEG-4 chunks of one track) with one call for the whole span,
    /// then moves each packet down to close the gaps. Nil, having read nothing, when the packets
    /// are out of order or overlap, when the span does not fit in `buffer`, or when the gaps
    /// would more than double the bytes read.
    private func readSpan(
        of plan: ReadPlan, table: PacketTable, into buffer: UnsafeMutableRawBufferPointer,
        descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
    ) throws(AudioFileError) -> Int? {
        let first = plan.start, last = plan.start + plan.packets - 1
        guard plan.packets > 1 else { return nil }
        for i in (first + 1)...last where table.offsets[i] < table.offsets[i - 1] + Int64(table.sizes[i - 1]) {
            return nil
        }
        let base = table.offsets[first]
        let span = table.offsets[last] + Int64(table.sizes[last]) - base
        guard span <= Int64(buffer.count), span <= 2 * Int64(plan.bytes) else { return nil }
        try readExactly(at: base, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(span)]))
        let variableFrames = !table.frames.isEmpty
        var written = 0
        for i in first...last {
            let size = Int(table.sizes[i])
            let from = Int(table.offsets[i] - base)
            // Packets are in order and apart, so each moves down (or stays).
            if from != written { (buffer.baseAddress! + written).copyMemory(from: buffer.baseAddress! + from, byteCount: size) }
            descriptions?[i - first] = AudioStreamPacketDescription(
                startOffset: Int64(written), variableFramesInPacket: variableFrames ? table.frames[i] : 0, dataByteSize: UInt32(size))
            written += size
        }
        return written
    }

    private func readExactly(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(AudioFileError) {
        let got = try source.read(at: offset, into: buffer)
        guard got == buffer.count else {
            throw AudioFileError(.endOfFile, "the file ended after \(got) of \(buffer.count) bytes at offset \(offset)")
        }
    }
}

extension Optional where Wrapped == [AudioStreamPacketDescription] {
    /// Runs `body` with a buffer of `count` descriptions that ends up in `self`, or nil.
    fileprivate mutating func withOptionalBuffer<R>(
        count: Int, _ body: (UnsafeMutableBufferPointer<AudioStreamPacketDescription>?) throws(AudioFileError) -> R
    ) throws(AudioFileError) -> R {
        guard self != nil else { return try body(nil) }
        var array = [AudioStreamPacketDescription](repeating: .init(startOffset: 0, dataByteSize: 0), count: count)
        let result = try array.withMutableBuffer { buffer throws(AudioFileError) in try body(buffer) }
        self = array
        return result
    }
}

/// `value` rounded to an `Int`, clamped to the range of `Int` (0 for NaN): file data can make
/// any double, and a conversion must never trap.
func clampedInt(_ value: Double) -> Int {
    guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
    let rounded = value.rounded()
    if rounded >= 9.2e18 { return .max }
    if rounded <= -9.2e18 { return .min }
    return Int(rounded)
}

/// Seconds with up to three decimals, as Apple's info dictionary gives the duration.
package func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 9e15 else { return seconds.isFinite ? String(clampedInt(seconds)) : "0" }
    let millis = Int64((seconds * 1000).rounded())
    let whole = millis / 1000
    let frac = millis % 1000
    if frac == 0 { return String(whole) }
    var f = String(frac)
    while f.count < 3 { f = "0" + f }
    while f.last == "0" { f.removeLast() }
    return "\(whole).\(f)"
}
