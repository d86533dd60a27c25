#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import AudioCore

/// Creates an audio file and appends audio data to it: Apple's `AudioFileCreateWithURL`,
/// `AudioFileWritePackets` and `AudioFileClose` for constant-size formats.
///
/// Writes linear PCM and G.711 into WAVE (`WAVE_FORMAT_EXTENSIBLE` for more than two channels,
/// more than 16 bits or a channel layout; an RF64 `ds64` once the data passes 4 GiB), CAF, and
/// AIFF (AIFF-C for float, little-endian integer and G.711). Headers are written first with
/// placeholder sizes and completed by ``close()``; until then the file reads as streamed data.
public final class AudioFileWriter {
    /// The container being written.
    public let fileType: AudioFileType
    /// The format of the audio data.
    public let dataFormat: AudioStreamBasicDescription
    /// Packets written so far.
    public private(set) var packetCount: Int64 = 0
    /// Bytes of audio data written so far.
    public private(set) var dataByteCount: Int64 = 0
    /// The path being written.
    public let path: String

    private var descriptor: Int32
    private let layout: Layout
    private var pending: [UInt8] = []
    private var written: Int64 = 0
    private static let flushSize = 1 << 20

    /// Where the header's size fields are, for ``close()``.
    private struct Layout {
        var dataOffset: Int64
        var patch: (AudioFileWriter) throws(AudioFileError) -> Void
    }

    /// Creates (or truncates) the file at `path` for audio of `format` in a container of `type`
    /// (`caf`, `wave` or `aiff`; `aifc` is chosen automatically where AIFF cannot hold the
    /// format). Throws `unsupportedDataFormat` for formats the container cannot hold and
    /// `unsupportedFileType` for other containers.
    public init(path: String, type: AudioFileType, format: AudioStreamBasicDescription, channelLayout: AudioChannelLayout? = nil) throws(AudioFileError) {
        let header = try Self.header(type: type, format: format, layout: channelLayout)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileByteSource.error(errno, path) }
        self.path = path
        descriptor = fd
        fileType = header.type
        dataFormat = format
        layout = header.layout
        pending = header.bytes
    }

    deinit {
        if descriptor >= 0 { _ = try? close() }
    }

    /// Appends `count` whole packets held in `bytes` (constant-size formats).
    public func writePackets(_ bytes: UnsafeRawBufferPointer, count: Int) throws(AudioFileError) {
        guard descriptor >= 0 else { throw AudioFileError(.notOpen, "\(path) is closed") }
        let size = Int(dataFormat.bytesPerPacket)
        let (n, overflow) = count.multipliedReportingOverflow(by: size)
        guard size > 0, count >= 0, !overflow, n <= bytes.count else {
            throw AudioFileError(.badPropertySize, "\(count) packets of \(size) bytes need more than the \(bytes.count) given")
        }
        if fileType != .caf && fileType != .wave && layout.dataOffset + dataByteCount + Int64(n) > 0xFFFF_FFFF - 8 {
            throw AudioFileError(.doesNotAllow64BitDataSize, "AIFF cannot hold more than 4 GiB of audio")
        }
        if pending.count + n > Self.flushSize { try flush() }
        if n >= Self.flushSize {
            try writeAll(UnsafeRawBufferPointer(rebasing: bytes[0..<n]))
        } else {
            pending.append(contentsOf: bytes[0..<n])
        }
        packetCount += Int64(count)
        dataByteCount += Int64(n)
    }

    /// Writes everything buffered and brings the header's sizes up to date, leaving the file
    /// open for more packets: a reader opening it now sees every packet written so far.
    public func updateHeader() throws(AudioFileError) {
        guard descriptor >= 0 else { throw AudioFileError(.notOpen, "\(path) is closed") }
        try flush()
        try layout.patch(self)
    }

    /// Writes everything buffered, completes the header and closes the file.
    public func close() throws(AudioFileError) {
        guard descriptor >= 0 else { return }
        defer {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
        // Pad an odd data chunk of a RIFF or IFF file.
        if fileType != .caf && dataByteCount & 1 == 1 { pending.append(0) }
        try flush()
        try layout.patch(self)
    }

    private func flush() throws(AudioFileError) {
        guard !pending.isEmpty else { return }
        var bytes = pending
        pending.removeAll(keepingCapacity: true)
        try bytes.withMutableBytes { raw throws(AudioFileError) in try writeAll(UnsafeRawBufferPointer(raw)) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(AudioFileError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(written))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileByteSource.error(errno, path)
            }
            done += n
            written += Int64(n)
        }
    }

    fileprivate func overwrite(_ bytes: [UInt8], at offset: Int64) throws(AudioFileError) {
        let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
        guard n == bytes.count else { throw FileByteSource.error(errno, path) }
    }

    // MARK: Headers

    private static func header(type: AudioFileType, format: AudioStreamBasicDescription, layout: AudioChannelLayout?) throws(AudioFileError) -> (bytes: [UInt8], type: AudioFileType, layout: Layout) {
        guard format.bytesPerPacket > 0, format.framesPerPacket == 1, format.channelsPerFrame > 0,
              format.sampleRate >= 1, format.sampleRate.isFinite, format.isInterleaved
        else {
            throw AudioFileError(.unsupportedDataFormat, "only interleaved constant-size formats of one frame per packet can be written: \(format)")
        }
        guard format.isPCM || format.formatID == .aLaw || format.formatID == .uLaw else {
            throw AudioFileError(.unsupportedDataFormat, "writing '\(format.formatID)' is not supported")
        }
        // Every container stores these in 16- or 32-bit fields.
        let word = format.bytesPerFrame / format.channelsPerFrame
        guard format.channelsPerFrame <= 0xFFFF, format.bytesPerFrame <= 0xFFFF, format.bitsPerChannel <= 64,
              format.sampleRate <= Double(UInt32.max), word * format.channelsPerFrame == format.bytesPerFrame
        else {
            throw AudioFileError(.unsupportedDataFormat, "\(format) does not fit the container's header fields")
        }
        if format.isPCM && !format.isFloat && word > 1 && !format.isSignedInteger {
            throw AudioFileError(.unsupportedDataFormat, "unsigned samples wider than 8 bits cannot be written")
        }
        switch type {
        case .wave: return try wave(format, layout)
        case .caf: return try caf(format, layout)
        case .aiff, .aifc: return try aiff(format)
        default: throw AudioFileError(.unsupportedFileType, "cannot write files of type '\(type)'")
        }
    }

    private static func wave(_ f: AudioStreamBasicDescription, _ layout: AudioChannelLayout?) throws(AudioFileError) -> (bytes: [UInt8], type: AudioFileType, layout: Layout) {
        guard !f.isBigEndian || f.bitsPerChannel <= 8 else {
            throw AudioFileError(.unsupportedDataFormat, "WAVE holds little-endian samples only")
        }
        let word = Int(f.bytesPerFrame / f.channelsPerFrame)
        let tag: UInt16
        if f.formatID == .aLaw { tag = 6 } else if f.formatID == .uLaw { tag = 7 } else { tag = f.isFloat ? 3 : 1 }
        if f.isPCM {
            let unsigned8 = word == 1 && !f.isSignedInteger && !f.isFloat
            let signedWide = word > 1 && (f.isSignedInteger || f.isFloat)
            guard unsigned8 || signedWide else {
                throw AudioFileError(.unsupportedDataFormat, "WAVE holds 8-bit unsigned or wider signed samples")
            }
            guard f.formatFlags.contains(.isPacked) || f.formatFlags.contains(.isAlignedHigh) else {
                throw AudioFileError(.unsupportedDataFormat, "WAVE holds high-aligned samples only")
            }
        }
        let mask = layout.flatMap { $0.tag == .useChannelBitmap ? $0.bitmap.rawValue : nil }
        let extensible = f.isPCM && (f.channelsPerFrame > 2 || word * 8 > 16 || Int(f.bitsPerChannel) != word * 8 || mask != nil)
        var fmt = LittleEndianBytes()
        fmt.u16(extensible ? 0xFFFE : tag)
        fmt.u16(UInt16(f.channelsPerFrame))
        fmt.u32(UInt32(f.sampleRate.rounded()))
        fmt.u32(UInt32(f.sampleRate.rounded()) &* f.bytesPerFrame)
        fmt.u16(UInt16(f.bytesPerFrame))
        fmt.u16(UInt16(word * 8))
        if extensible {
            fmt.u16(22)
            fmt.u16(UInt16(f.bitsPerChannel))
            fmt.u32(mask ?? defaultChannelMask(Int(f.channelsPerFrame)))
            fmt.u16(tag)
            fmt.bytes += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if !f.isPCM {
            fmt.u16(0)
        }
        var h = LittleEndianBytes()
        h.ascii("RIFF"); h.u32(0xFFFF_FFFF); h.ascii("WAVE")
        // Room for an RF64 ds64 chunk should the data pass 4 GiB (EBU Tech 3306).
        h.ascii("JUNK"); h.u32(28); h.bytes += [UInt8](repeating: 0, count: 28)
        h.ascii("fmt "); h.u32(UInt32(fmt.bytes.count)); h.bytes += fmt.bytes
        let needsFact = !f.isPCM
        let factOffset = Int64(h.bytes.count + 8)
        if needsFact { h.ascii("fact"); h.u32(4); h.u32(0) }
        let dataSizeOffset = Int64(h.bytes.count + 4)
        h.ascii("data"); h.u32(0xFFFF_FFFF)
        let dataOffset = Int64(h.bytes.count)
        let patch: (AudioFileWriter) throws(AudioFileError) -> Void = { w throws(AudioFileError) in
            let dataBytes = w.dataByteCount
            let riffSize = dataOffset - 8 + dataBytes + (dataBytes & 1)
            if riffSize <= 0xFFFF_FFFF {
                try w.overwrite(LittleEndianBytes.u32(UInt32(riffSize)), at: 4)
                try w.overwrite(LittleEndianBytes.u32(UInt32(dataBytes)), at: dataSizeOffset)
            } else {
                var ds64 = LittleEndianBytes()
                ds64.ascii("ds64"); ds64.u32(28)
                ds64.u64(UInt64(riffSize)); ds64.u64(UInt64(dataBytes)); ds64.u64(UInt64(w.packetCount)); ds64.u32(0)
                try w.overwrite(Array("RF64".utf8), at: 0)
                try w.overwrite(ds64.bytes, at: 12)
            }
            if needsFact { try w.overwrite(LittleEndianBytes.u32(UInt32(truncatingIfNeeded: w.packetCount)), at: factOffset) }
        }
        return (h.bytes, .wave, Layout(dataOffset: dataOffset, patch: patch))
    }

    /// WAVE's default speaker mask for a channel count (front left/right, centre, LFE, back, side).
    static func defaultChannelMask(_ channels: Int) -> UInt32 {
        switch channels {
        case 1: 0x4
        case 2: 0x3
        case 3: 0x7
        case 4: 0x33
        case 5: 0x37
        case 6: 0x3F
        case 7: 0x13F
        case 8: 0x63F
        default: 0
        }
    }

    private static func caf(_ f: AudioStreamBasicDescription, _ layout: AudioChannelLayout?) throws(AudioFileError) -> (bytes: [UInt8], type: AudioFileType, layout: Layout) {
        guard !f.isPCM || f.isFloat || f.isSignedInteger else {
            throw AudioFileError(.unsupportedDataFormat, "CAF holds signed integer or float samples")
        }
        var h = BigEndianBytes()
        h.ascii("caff"); h.u16(1); h.u16(0)
        h.ascii("desc"); h.u64(32)
        h.u64(f.sampleRate.bitPattern)
        h.u32(f.formatID.rawValue)
        var flags: UInt32 = 0
        if f.isPCM {
            if f.isFloat { flags |= 1 }
            if !f.isBigEndian { flags |= 2 }
        }
        h.u32(flags)
        h.u32(f.bytesPerPacket); h.u32(1); h.u32(f.channelsPerFrame); h.u32(f.bitsPerChannel)
        if let layout {
            h.ascii("chan"); h.u64(UInt64(12 + 20 * layout.descriptions.count))
            h.u32(layout.tag.rawValue); h.u32(layout.bitmap.rawValue); h.u32(UInt32(layout.descriptions.count))
            for d in layout.descriptions {
                h.u32(d.label.rawValue); h.u32(d.flags.rawValue)
                h.u32(d.coordinates.0.bitPattern); h.u32(d.coordinates.1.bitPattern); h.u32(d.coordinates.2.bitPattern)
            }
        }
        let dataSizeOffset = Int64(h.bytes.count + 4)
        h.ascii("data"); h.u64(UInt64.max)  // -1 until closed: runs to the end of the file
        h.u32(0)  // edit count
        let dataOffset = Int64(h.bytes.count)
        let patch: (AudioFileWriter) throws(AudioFileError) -> Void = { w throws(AudioFileError) in
            try w.overwrite(BigEndianBytes.u64(UInt64(w.dataByteCount + 4)), at: dataSizeOffset)
        }
        return (h.bytes, .caf, Layout(dataOffset: dataOffset, patch: patch))
    }

    private static func aiff(_ f: AudioStreamBasicDescription) throws(AudioFileError) -> (bytes: [UInt8], type: AudioFileType, layout: Layout) {
        let word = Int(f.bytesPerFrame / f.channelsPerFrame)
        var compression: (code: String, name: String)?
        if f.formatID == .aLaw {
            compression = ("alaw", "ALaw 2:1")
        } else if f.formatID == .uLaw {
            compression = ("ulaw", "µLaw 2:1")
        } else if f.isFloat {
            compression = f.bitsPerChannel == 64 ? ("fl64", "64-bit floating point") : ("fl32", "32-bit floating point")
        } else if !f.isSignedInteger && word == 1 {
            compression = ("raw ", "")
        } else if !f.isBigEndian && word > 1 {
            compression = ("sowt", "")
        }
        guard f.isSignedInteger || f.isFloat || !f.isPCM || word == 1 else {
            throw AudioFileError(.unsupportedDataFormat, "AIFF holds signed integer samples")
        }
        if f.isPCM && !f.isFloat {
            guard f.formatFlags.contains(.isPacked) || f.formatFlags.contains(.isAlignedHigh) else {
                throw AudioFileError(.unsupportedDataFormat, "AIFF holds high-aligned samples only")
            }
        }
        if f.isPCM {
            guard f.channelsPerFrame <= 0x7FFF else {
                throw AudioFileError(.unsupportedDataFormat, "AIFF holds at most 32767 channels")
            }
            guard word == (Int(f.bitsPerChannel) + 7) / 8 else {
                throw AudioFileError(.unsupportedDataFormat, "AIFF holds \(f.bitsPerChannel)-bit samples in \((Int(f.bitsPerChannel) + 7) / 8)-byte words only")
            }
            guard !f.isFloat || f.isBigEndian else {
                throw AudioFileError(.unsupportedDataFormat, "AIFF-C holds big-endian float samples only")
            }
        }
        let isAIFC = compression != nil
        var comm = BigEndianBytes()
        comm.u16(UInt16(f.channelsPerFrame))
        comm.u32(0)  // frames, set on close
        comm.u16(UInt16(f.isPCM ? f.bitsPerChannel : 16))
        comm.bytes += extended80(f.sampleRate)
        if let compression {
            comm.ascii(compression.code)
            let name = Array(compression.name.utf8)
            comm.bytes.append(UInt8(name.count))
            comm.bytes += name
            if (name.count + 1) & 1 == 1 { comm.bytes.append(0) }
        }
        var h = BigEndianBytes()
        h.ascii("FORM"); h.u32(0); h.ascii(isAIFC ? "AIFC" : "AIFF")
        if isAIFC { h.ascii("FVER"); h.u32(4); h.u32(0xA280_5140) }
        let framesOffset = Int64(h.bytes.count + 8 + 2)
        h.ascii("COMM"); h.u32(UInt32(comm.bytes.count)); h.bytes += comm.bytes
        let ssndSizeOffset = Int64(h.bytes.count + 4)
        h.ascii("SSND"); h.u32(0); h.u32(0); h.u32(0)
        let dataOffset = Int64(h.bytes.count)
        let patch: (AudioFileWriter) throws(AudioFileError) -> Void = { w throws(AudioFileError) in
            let dataBytes = w.dataByteCount
            let formSize = dataOffset - 8 + dataBytes + (dataBytes & 1)
            guard formSize <= 0xFFFF_FFFF else {
                throw AudioFileError(.doesNotAllow64BitDataSize, "AIFF cannot hold \(dataBytes) bytes of audio")
            }
            try w.overwrite(BigEndianBytes.u32(UInt32(formSize)), at: 4)
            try w.overwrite(BigEndianBytes.u32(UInt32(truncatingIfNeeded: w.packetCount)), at: framesOffset)
            try w.overwrite(BigEndianBytes.u32(UInt32(dataBytes + 8)), at: ssndSizeOffset)
        }
        return (h.bytes, isAIFC ? .aifc : .aiff, Layout(dataOffset: dataOffset, patch: patch))
    }

    /// An 80-bit IEEE 754 extended float (AIFF's sample rate).
    static func extended80(_ value: Double) -> [UInt8] {
        guard value > 0, value.isFinite else { return [UInt8](repeating: 0, count: 10) }
        let exponent = value.exponent
        let mantissa = UInt64(value.significandBitPattern | (1 << 52)) << 11
        let biased = UInt16(Int(exponent) + 16383)
        var out = BigEndianBytes()
        out.u16(biased)
        out.u64(mantissa)
        return out.bytes
    }
}

/// Little-endian byte building for headers.
struct LittleEndianBytes {
    var bytes: [UInt8] = []
    mutating func ascii(_ s: String) { bytes += Array(s.utf8) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { bytes += Self.u32(v) }
    mutating func u64(_ v: UInt64) { u32(UInt32(v & 0xFFFF_FFFF)); u32(UInt32(v >> 32)) }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}

/// Big-endian byte building for headers.
struct BigEndianBytes {
    var bytes: [UInt8] = []
    mutating func ascii(_ s: String) { bytes += Array(s.utf8) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) { bytes += Self.u32(v) }
    mutating func u64(_ v: UInt64) { bytes += Self.u64(v) }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }
}
