public import AudioCore

/// AAC in ADTS framing (ISO/IEC 13818-7 and 14496-3), the `.aac` files encoders write.
///
/// Opening walks the frame headers without reading payloads: a leading ID3v2 tag is skipped,
/// junk before and between frames is skipped by scanning for a sync word that the next header
/// confirms, and a final frame cut short by the end of the file is dropped. A header at a frame
/// boundary that has the sync word but impossible or changed fields (sampling index, channel
/// configuration, profile, a frame shorter than its header) makes the file invalid. Packets are
/// the raw access units with the header stripped; the magic cookie is the AudioSpecificConfig
/// the header implies.
public struct ADTSFormat: AudioFileFormat, DescribedFormat, StoresAudioData, ArtworkLocated {
    /// Apple's `'adts'`, written in AAC.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(.adts, name: "AAC ADTS", extensions: ["aac", "adts"], utis: ["public.aac-audio"], mimeTypes: ["audio/aac", "audio/x-aac"],
                                hfsTypeCodes: ["adts"], writes: [.mpeg4AAC]),
        streamCutting: .frames(.adts))

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count >= 7 else { return false }
        if prefix[0] == 0x49 && prefix[1] == 0x44 && prefix[2] == 0x33 { return false }  // ID3: ask the extension
        let bytes = Array(prefix.prefix(9))
        guard let header = Header(bytes, 0) else { return false }
        // One header is a weak signature; where the prefix holds the next one, it must agree.
        if header.frameLength + 7 <= prefix.count {
            return Header(Array(prefix), header.frameLength)?.sameStream(as: header) ?? false
        }
        return true
    }

    /// The fields of one ADTS header.
    public struct Header: Sendable, Equatable {
        /// 0 for MPEG-4, 1 for MPEG-2.
        public var id: Int
        /// The MPEG-4 audio object type minus one.
        public var profile: Int
        /// Index into ``ADTSFormat/sampleRates``.
        public var samplingIndex: Int
        /// MPEG-4 channel configuration (0: given by a program config element).
        public var channelConfiguration: Int
        /// Bytes of the whole frame, header included.
        public var frameLength: Int
        /// The decoder buffer fullness field (0x7FF: variable rate).
        public var bufferFullness: Int
        /// Raw data blocks in the frame (the field plus one).
        public var rawDataBlocks: Int
        /// True when the header carries a CRC (protection_absent is 0).
        public var hasCRC: Bool

        /// Header bytes before the first raw data block.
        public var headerLength: Int { hasCRC ? 7 + 2 * (rawDataBlocks - 1) + 2 : 7 }

        /// Parses a header at `p`; nil when there is no sync word, the layer is not 0, or the
        /// fields are impossible.
        init?<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ p: Int) where Bytes.Index == Int {
            guard p >= 0, p + 7 <= b.count, b[p] == 0xFF, b[p + 1] & 0xF6 == 0xF0 else { return nil }
            id = Int(b[p + 1] >> 3 & 1)
            hasCRC = b[p + 1] & 1 == 0
            profile = Int(b[p + 2] >> 6)
            samplingIndex = Int(b[p + 2] >> 2 & 0xF)
            channelConfiguration = Int(b[p + 2] & 1) << 2 | Int(b[p + 3] >> 6)
            frameLength = Int(b[p + 3] & 3) << 11 | Int(b[p + 4]) << 3 | Int(b[p + 5] >> 5)
            bufferFullness = Int(b[p + 5] & 0x1F) << 6 | Int(b[p + 6] >> 2)
            rawDataBlocks = Int(b[p + 6] & 3) + 1
            guard samplingIndex < 13, frameLength > headerLength else { return nil }
        }

        /// True when the sync word and layer bits are there, whatever the other fields say.
        static func hasSync<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ p: Int) -> Bool where Bytes.Index == Int {
            p + 2 <= b.count && b[p] == 0xFF && b[p + 1] & 0xF6 == 0xF0
        }

        func sameStream(as other: Header) -> Bool {
            samplingIndex == other.samplingIndex && channelConfiguration == other.channelConfiguration
                && profile == other.profile
        }
    }

    /// The most junk skipped in one place while looking for a frame: 1 MiB.
    static let maximumJunk: Int64 = 1 << 20

    /// Sampling rates by ADTS sampling frequency index.
    public static let sampleRates: [Double] = MPEG4Audio.samplingFrequencies.map(Double.init)

    let audioData: AudioData
    public let magicCookie: [UInt8]?
    public let channelLayout: AudioChannelLayout?
    public let info: [(key: String, value: String)]
    /// The first frame's header.
    public let firstHeader: Header
    /// Bytes skipped as junk between and around frames (ID3 tags not counted).
    public let junkByteCount: Int64
    /// The ID3v2 tags' `CHAP` frames.
    public let chapters: [AudioFileChapter]
    /// Where the pictures lie (``artwork(reading:)`` reads them): the ID3v2 tags' `APIC`/`PIC` frames.
    let artworkLocations: [ArtworkLocation]

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        let leading = try LeadingTags(source)
        var reader = leading.reader
        let size = source.size
        var position = leading.end

        // Find the first frame: a header whose successor (or the end of the file) confirms it.
        guard let first = try Self.resync(&reader, from: position, size: size, like: nil) else {
            throw AudioFileError(.invalidFile, "no ADTS frame found", chunk: "adts", offset: position)
        }
        var junk = first.offset - position
        position = first.offset
        let stream = first.header
        let pce: BitSlice?
        if stream.channelConfiguration == 0 {
            pce = try Self.programConfig(&reader, at: first.offset, header: stream)
        } else {
            pce = nil
        }

        // Each frame takes at least 8 bytes, so the file bounds the table.
        var table = PacketTable(framesPerPacket: 1024, capacity: Int(min((size - position) / 8 + 1, 1 << 24)))
        var lastEnd = position
        while position <= size - 7 {
            guard let i = try reader.load(position, 9 <= size - position ? 9 : 7) else { break }
            let w = reader.window
            guard let header = Header(w, i) else {
                if Header.hasSync(w, i) {
                    throw AudioFileError(.invalidFile, "corrupt ADTS header (impossible sampling index or frame length)", chunk: "adts", offset: position)
                }
                // Junk where a frame should start: find the next confirmed frame.
                guard let next = try Self.resync(&reader, from: position + 1, size: size, like: stream) else { break }
                junk += next.offset - position
                position = next.offset
                continue
            }
            guard header.sameStream(as: stream) else {
                throw AudioFileError(
                    .invalidFile,
                    "ADTS header changes the stream (sampling index \(header.samplingIndex), channels \(header.channelConfiguration), profile \(header.profile))",
                    chunk: "adts", offset: position)
            }
            guard Int64(header.frameLength) <= size - position else { break }  // cut-off final frame
            let payload = header.frameLength - header.headerLength
            table.append(
                offset: position + Int64(header.headerLength), size: UInt32(payload),
                frames: header.rawDataBlocks == 1 ? nil : UInt32(1024 * header.rawDataBlocks))
            position += Int64(header.frameLength)
            lastEnd = position
        }
        guard table.count > 0 else {
            throw AudioFileError(.invalidFile, "no complete ADTS frame", chunk: "adts", offset: first.offset)
        }

        let description = try Self.streamDescription(stream, pce: pce, offset: first.offset)
        firstHeader = stream
        junkByteCount = junk
        info = leading.info
        chapters = leading.chapters
        artworkLocations = leading.artwork
        audioData = AudioData(format: description.format, offset: first.offset, byteCount: lastEnd - first.offset, packets: .table(table))
        channelLayout = description.layout
        magicCookie = description.cookie
    }

    /// The data format, channel layout and magic cookie a stream whose first header is `stream`
    /// has (with its program config element when the channel configuration is 0).
    static func streamDescription(_ stream: Header, pce: BitSlice?, offset: Int64) throws(AudioFileError) -> (
        format: AudioStreamBasicDescription, layout: AudioChannelLayout?, cookie: [UInt8]
    ) {
        let channels: Int
        if let pce {
            channels = pce.channels
        } else {
            channels = stream.channelConfiguration == 7 ? 8 : stream.channelConfiguration
        }
        guard channels > 0 else {
            throw AudioFileError(.unsupportedDataFormat, "ADTS stream with no channels", chunk: "adts", offset: offset)
        }
        let format = AudioStreamBasicDescription(
            sampleRate: Self.sampleRates[stream.samplingIndex], formatID: .mpeg4AAC,
            formatFlags: AudioFormatFlags(rawValue: UInt32(stream.profile + 1)), bytesPerPacket: 0,
            framesPerPacket: 1024, bytesPerFrame: 0, channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
        let layout = AudioChannelLayoutTag.aac(channelConfiguration: stream.channelConfiguration).map { AudioChannelLayout(tag: $0) }
        return (format, layout, Self.audioSpecificConfig(stream, pce: pce))
    }

    /// The first header at or after `from` that the next header (or the end of the file)
    /// confirms, and that matches `like` where given.
    static func resync(_ reader: inout WindowReader, from: Int64, size: Int64, like: Header?) throws(AudioFileError) -> (offset: Int64, header: Header)? {
        var position = from
        // Junk longer than this is taken as the end of the stream, so a file of noise costs a
        // bounded scan rather than a pass over all of it.
        let end = min(size, from + maximumJunk)
        while position <= end - 7 {
            guard let i = try reader.load(position, 7) else { return nil }
            let w = reader.window
            // Scan the resident window for the next 0xFF quickly.
            var j = i
            let limit = w.count - 1
            while j < limit && !(w[j] == 0xFF && w[j + 1] & 0xF6 == 0xF0) { j += 1 }
            if j >= limit {
                position = reader.windowStart + Int64(max(limit, i + 1))
                continue
            }
            position = reader.windowStart + Int64(j)
            guard position <= end - 7 else { return nil }
            // Look ahead without moving the window, so scanning never re-reads it.
            if let header = Header(try reader.peek(position, 9), 0), like.map({ header.sameStream(as: $0) }) ?? true {
                let next = position + Int64(header.frameLength)
                if next == size { return (position, header) }
                if next < size, let following = Header(try reader.peek(next, 9), 0), following.sameStream(as: header) {
                    return (position, header)
                }
            }
            position += 1
        }
        return nil
    }

    /// The program_config_element that opens a frame whose channel configuration is 0.
    static func programConfig(_ reader: inout WindowReader, at offset: Int64, header: Header) throws(AudioFileError) -> BitSlice {
        let length = min(header.frameLength, 1024)
        guard let i = try reader.load(offset, length) else {
            throw AudioFileError(.invalidFile, "ADTS frame with channel configuration 0 is cut short", chunk: "adts", offset: offset)
        }
        let payload = Array(reader.window[(i + header.headerLength)..<(i + length)])
        var bits = BitReader(payload)
        guard bits.read(3) == 5 else {  // ID_PCE
            throw AudioFileError(.unsupportedDataFormat, "channel configuration 0 without a program config element", chunk: "adts", offset: offset)
        }
        let start = bits.position
        guard let parsed = ProgramConfig.parse(&bits) else {
            throw AudioFileError(.invalidFile, "program config element is cut short", chunk: "adts", offset: offset)
        }
        return BitSlice(bytes: payload, start: start, end: parsed.fieldsEnd, comment: parsed.comment, channels: parsed.channels)
    }

    /// A run of bits copied from a frame (the program config element).
    struct BitSlice {
        let bytes: [UInt8]
        let start: Int
        /// End of the fields before the element's byte alignment.
        let end: Int
        /// The comment field bytes that follow the alignment.
        let comment: [UInt8]
        let channels: Int
    }

    /// The AudioSpecificConfig (ISO/IEC 14496-3, 1.6.2.1) an ADTS header implies: object type,
    /// sampling index, channel configuration and a GASpecificConfig (with the program config
    /// element when the configuration is 0).
    static func audioSpecificConfig(_ h: Header, pce: BitSlice?) -> [UInt8] {
        var w = BitWriter()
        w.write(UInt32(h.profile + 1), 5)
        w.write(UInt32(h.samplingIndex), 4)
        w.write(UInt32(h.channelConfiguration), 4)
        w.write(0, 3)  // frameLengthFlag, dependsOnCoreCoder, extensionFlag
        if let pce {
            var r = BitReader(pce.bytes)
            r.skip(pce.start)
            var left = pce.end - pce.start
            while left > 0 {
                let n = min(left, 16)
                w.write(r.read(n), n)
                left -= n
            }
            w.alignToByte()  // byte_alignment() relative to the AudioSpecificConfig
            w.write(UInt32(pce.comment.count), 8)
            for byte in pce.comment { w.write(UInt32(byte), 8) }
        }
        return w.bytes
    }
}

/// Reads bits most significant first; reads past the end return zeros and set ``overrun``.
struct BitReader {
    let bytes: [UInt8]
    private(set) var position = 0
    private(set) var overrun = false
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = position >> 3
            var bit: UInt32 = 0
            if byte < bytes.count {
                bit = UInt32(bytes[byte] >> (7 - UInt8(position & 7)) & 1)
            } else {
                overrun = true
            }
            value = value << 1 | bit
            position += 1
        }
        return value
    }
    mutating func skip(_ count: Int) {
        position += count
        if position > bytes.count * 8 { overrun = true }
    }

    /// The next `count` bits (zeros past the end) without consuming them.
    func peek(_ count: Int) -> UInt32 {
        var copy = self
        return copy.read(count)
    }
}

/// Writes bits most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8
    mutating func write(_ value: UInt32, _ count: Int) {
        for k in stride(from: count - 1, through: 0, by: -1) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            if value >> UInt32(k) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
            used += 1
        }
    }
    mutating func alignToByte() { used = 8 }
}

/// program_config_element() of ISO/IEC 14496-3, 4.4.1.1: enough to count channels.
enum ProgramConfig {
    /// Parses the element after its 3-bit ID and returns the channel count, or nil when the
    /// bits run out.
    static func parse(_ r: inout BitReader) -> (channels: Int, fieldsEnd: Int, comment: [UInt8])? {
        _ = r.read(4)  // element_instance_tag
        _ = r.read(2)  // object_type
        _ = r.read(4)  // sampling_frequency_index
        let front = Int(r.read(4)), side = Int(r.read(4)), back = Int(r.read(4))
        let lfe = Int(r.read(2)), assoc = Int(r.read(3)), cc = Int(r.read(4))
        if r.read(1) == 1 { _ = r.read(4) }  // mono mixdown
        if r.read(1) == 1 { _ = r.read(4) }  // stereo mixdown
        if r.read(1) == 1 { _ = r.read(3) }  // matrix mixdown
        var channels = 0
        for _ in 0..<(front + side + back) {
            channels += r.read(1) == 1 ? 2 : 1  // is_cpe
            _ = r.read(4)
        }
        channels += lfe
        r.skip(lfe * 4 + assoc * 4 + cc * 5)
        let fieldsEnd = r.position
        r.skip((8 - r.position % 8) % 8)  // byte_alignment() within the raw data block
        let commentBytes = Int(r.read(8))
        var comment: [UInt8] = []
        for _ in 0..<commentBytes { comment.append(UInt8(r.read(8))) }
        return r.overrun ? nil : (channels, fieldsEnd, comment)
    }
}
