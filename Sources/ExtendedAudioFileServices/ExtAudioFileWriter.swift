public import AudioCore
public import AudioFileServices
public import AudioCodecs
public import AudioConverterServices
import Locking

/// Writes linear PCM in a format of the caller's choice to a file of any format the package
/// encodes (Apple's `ExtAudioFile` for writing: `ExtAudioFileCreateWithURL`,
/// `ExtAudioFileWrapAudioFileID`, `ExtAudioFileWrite`, `ExtAudioFileWriteAsync`).
///
/// Frames in ``clientDataFormat`` go through an `AudioConverter` (PCM conversion, channel
/// map, sample-rate conversion, encoder) and its packets into an `AudioFileWriter`. When the
/// writer is closed, the converter's last packets are written and so are what a file of an
/// encoded format needs: its magic cookie and its packet table — the encoder's priming frames
/// (2112 for AAC), the frames that complete the last packet, and the valid frames between.
///
/// Use it from one thread at a time; ``writeAsync(frameCount:buffers:)`` hands the writing to a
/// thread of its own.
public final class ExtAudioFileWriter {
    /// The file being written; its tags are set on it (`AudioFileWriter.setInfo(_:)`,
    /// `AudioFileWriter.setPictures(_:)`), before the first write where they precede the audio
    /// (FLAC, ADTS).
    public let file: AudioFileWriter
    /// Whether ``close()`` closes ``file`` (true when this writer created it).
    public let ownsFile: Bool
    /// The file's format.
    public var fileDataFormat: AudioStreamBasicDescription { file.dataFormat }
    /// The format ``write(frameCount:buffers:)`` takes; set with ``setClientDataFormat(_:quality:)``.
    /// For a file of linear PCM it starts as the file's format; for an encoded file it must be
    /// set before the first write.
    public private(set) var clientDataFormat: AudioStreamBasicDescription?
    /// The order of the client's channels (`kExtAudioFileProperty_ClientChannelLayout`); stored.
    public var clientChannelLayout: AudioChannelLayout?
    /// The converter from the client format to the file's (`kExtAudioFileProperty_AudioConverter`);
    /// nil until there is a client format.
    public private(set) var converter: AudioConverter?
    /// Client frames written, counting those ``writeAsync(frameCount:buffers:)`` has taken and
    /// its thread may still be writing (the count changes only on the caller's thread).
    public internal(set) var framesWritten: Int64 = 0
    /// Frames the converter handed the encoder, at the file's rate.
    private var packetsWritten: Int64 = 0
    private var packetBytes: UnsafeMutableRawBufferPointer
    private var descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>
    private var packetsPerWrite = 0
    private var closed = false
    /// The writing thread of ``writeAsync(frameCount:buffers:)``, made by its first call.
    var async: AsyncWriter?

    /// Creates the file at `path` of `type` holding `format` (Apple's `ExtAudioFileCreateWithURL`).
    ///
    /// `format` may leave to the encoder what it fills in (an AAC format needs only its rate,
    /// format ID and channel count). Errors: the converter's `formatNotSupported` when no encoder
    /// writes `format`, and the file's errors (`unsupportedDataFormat` for a format the
    /// container cannot hold, `duplicateFileName` without `AudioFileFlags.eraseFile`).
    public convenience init(
        path: String, type: AudioFileType, format: AudioStreamBasicDescription, channelLayout: AudioChannelLayout? = nil,
        flags: AudioFileFlags = []
    ) throws(ExtAudioFileError) {
        var complete = format
        if !format.isPCM {
            // The encoder completes the description (frames per packet, flags).
            do {
                complete = try AudioEncoders.make(from: AudioEncoders.inputFormat(for: format), to: format).outputFormat
            } catch {
                throw .codec(error)
            }
        }
        let writer: AudioFileWriter
        do {
            writer = try AudioFileWriter(path: path, type: type, format: complete, flags: flags, channelLayout: channelLayout)
        } catch {
            throw .file(error)
        }
        try self.init(writer: writer, ownsFile: true)
    }

    /// Writes through a file the caller created (Apple's `ExtAudioFileWrapAudioFileID` for
    /// writing). ``close()`` completes what this writer wrote but leaves `writer` open.
    public convenience init(wrapping writer: AudioFileWriter) throws(ExtAudioFileError) {
        try self.init(writer: writer, ownsFile: false)
    }

    private init(writer: AudioFileWriter, ownsFile: Bool) throws(ExtAudioFileError) {
        file = writer
        self.ownsFile = ownsFile
        packetBytes = .allocate(byteCount: 16, alignment: 16)
        descriptions = .allocate(capacity: 1)
        descriptions.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0))
        if writer.dataFormat.isPCM {
            try setClientDataFormat(writer.dataFormat)
        }
    }

    deinit {
        if !closed { try? close() }
        packetBytes.deallocate()
        descriptions.deallocate()
    }

    /// Sets the client format: any linear PCM, at any rate and channel count (Apple's
    /// `kExtAudioFileProperty_ClientDataFormat`). For an encoded file, only before the first
    /// write (`invalidOperationOrder` after); for linear PCM, whatever the previous format
    /// still held is written first. `nonPCMClientFormat` for a format that is not linear PCM.
    public func setClientDataFormat(
        _ format: AudioStreamBasicDescription, quality: SampleRateConverterQuality = .high
    ) throws(ExtAudioFileError) {
        try waitForAsync()
        guard format.isPCM else {
            throw ExtAudioFileError(.nonPCMClientFormat, "the client format must be linear PCM: \(format)")
        }
        if converter != nil && (framesWritten > 0) {
            guard fileDataFormat.isPCM else {
                throw ExtAudioFileError(.invalidOperationOrder, "an encoded file's client format is set before the first write")
            }
            try drain()
        }
        let made: AudioConverter
        do {
            made = try AudioConverter(from: format, to: fileDataFormat)
            made.sampleRateConverterQuality = quality
            if let old = converter, !fileDataFormat.isPCM, old.encodeBitRate > 0, old.encodeBitRate != made.encodeBitRate {
                try made.setEncodeBitRate(old.encodeBitRate)
            }
        } catch {
            throw .codec(error)
        }
        converter = made
        clientDataFormat = format
        let perPacket = max(Int(fileDataFormat.framesPerPacket), 1)
        packetsPerWrite = max(1, 32768 / perPacket)
        let largest = max(made.maximumOutputPacketSize, 1)
        packetBytes.deallocate()
        packetBytes = .allocate(byteCount: packetsPerWrite * largest, alignment: 16)
        descriptions.deallocate()
        descriptions = .allocate(capacity: packetsPerWrite)
        descriptions.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0))
        if let cookie = made.compressionMagicCookie {
            do { try file.setMagicCookie(cookie) } catch { throw .file(error) }
        }
    }

    /// Writes `frameCount` frames of the client format from `buffers` (one buffer, or one per
    /// channel for non-interleaved formats) (Apple's `ExtAudioFileWrite`). The converter may
    /// hold some back (a partial packet, the sample-rate converter's filter) until later
    /// writes or ``close()``.
    public func write(frameCount: Int, buffers: [UnsafeRawBufferPointer]) throws(ExtAudioFileError) {
        try waitForAsync()
        try writeNow(frameCount: frameCount, buffers: buffers)
    }

    /// Writes the frames of `buffer`, whose format must be the client format.
    public func write(_ buffer: PCMBuffer) throws(ExtAudioFileError) {
        guard buffer.format == clientDataFormat else {
            throw ExtAudioFileError(.invalidDataFormat, "buffer format \(buffer.format) is not the client format")
        }
        let regions = (0..<buffer.regionCount).map { UnsafeRawBufferPointer(rebasing: buffer.region($0)[0..<buffer.byteLength]) }
        try write(frameCount: buffer.frameLength, buffers: regions)
    }

    /// Writes the frames here; `counting` adds them to ``framesWritten`` (the writing thread of
    /// ``writeAsync(frameCount:buffers:)`` does not: the caller's call counted them).
    func writeNow(frameCount: Int, buffers: [UnsafeRawBufferPointer], counting: Bool = true) throws(ExtAudioFileError) {
        guard !closed else { throw ExtAudioFileError(.invalidOperationOrder, "the file is closed") }
        guard let converter, let client = clientDataFormat else {
            throw ExtAudioFileError(.invalidOperationOrder, "an encoded file needs a client format before the first write")
        }
        guard frameCount >= 0 else { throw .codec(AudioCodecError(.invalidInputSize, "\(frameCount) frames")) }
        guard frameCount > 0 else { return }
        _ = try Self.byteCount(of: frameCount, in: buffers, client: client)
        var given = false
        while true {
            let result: AudioConverterFillResult
            do throws(AudioCodecError) {
                result = try converter.fill(output) { _ throws(AudioCodecError) in
                    guard !given else { throw AudioCodecError(.inputPaused, "all frames given") }
                    given = true
                    return AudioConverterInputData(buffers: buffers, packetCount: frameCount)
                }
            } catch {
                throw .codec(error)
            }
            try store(result)
            if result.inputError != nil { break }
            guard result.packetCount > 0 else {
                throw .codec(AudioCodecError(.invalidOutputSize, "the converter wrote nothing into \(packetBytes.count) bytes"))
            }
        }
        if counting { framesWritten += Int64(frameCount) }
    }

    /// The bytes `frameCount` frames of `client` take in each of `buffers`, after checking that
    /// there is a buffer per region of the format and each holds them (`invalidInputSize`).
    static func byteCount(of frameCount: Int, in buffers: [UnsafeRawBufferPointer], client: AudioStreamBasicDescription)
        throws(ExtAudioFileError) -> Int
    {
        guard buffers.count == client.bufferCount else {
            throw .codec(AudioCodecError(.invalidInputSize, "\(buffers.count) buffers for \(client.bufferCount)"))
        }
        let (bytes, overflow) = frameCount.multipliedReportingOverflow(by: Int(client.bytesPerFrame))
        for buffer in buffers where overflow || buffer.count < bytes {
            throw .codec(AudioCodecError(.invalidInputSize, "\(buffer.count) bytes do not hold \(frameCount) frames"))
        }
        return bytes
    }

    private var output: AudioConverterOutput {
        AudioConverterOutput(
            buffers: [packetBytes], packetCapacity: packetsPerWrite, packetDescriptions: fileDataFormat.bytesPerPacket == 0 ? descriptions : nil)
    }

    private func store(_ result: AudioConverterFillResult) throws(ExtAudioFileError) {
        guard result.packetCount > 0 else { return }
        do {
            _ = try file.writePackets(
                startingPacket: file.packetCount, bytes: UnsafeRawBufferPointer(rebasing: packetBytes[0..<result.byteCount]),
                descriptions: fileDataFormat.bytesPerPacket == 0 ? UnsafeBufferPointer(rebasing: descriptions[0..<result.packetCount]) : nil,
                packetCount: result.packetCount)
        } catch {
            throw .file(error)
        }
        packetsWritten += Int64(result.packetCount)
    }

    /// Ends the converter's stream and writes what it held.
    private func drain() throws(ExtAudioFileError) {
        guard let converter else { return }
        while true {
            let result: AudioConverterFillResult
            do throws(AudioCodecError) {
                result = try converter.fill(output) { _ in nil }
            } catch {
                throw .codec(error)
            }
            try store(result)
            if result.endOfStream || result.packetCount == 0 { break }
        }
    }

    /// Writes what the converter holds, the magic cookie and the packet table, and closes the
    /// file if this writer created it (Apple's `ExtAudioFileDispose`). Later writes fail with
    /// `invalidOperationOrder`.
    public func close() throws(ExtAudioFileError) {
        guard !closed else { return }
        // Whatever fails below, a file this writer created is closed (its header completed with
        // what was written), and the first error is the one thrown.
        var failure: ExtAudioFileError?
        do throws(ExtAudioFileError) { try finishAsync() } catch { failure = error }
        closed = true
        do throws(ExtAudioFileError) {
            if let failure { throw failure }
            try drain()
            try completeEncodedFile()
        } catch {
            failure = error
        }
        if ownsFile {
            do throws(AudioFileError) { try file.close() } catch { failure = failure ?? .file(error) }
        }
        if let failure { throw failure }
    }

    /// An encoded file's cookie and packet table: the encoder's priming, the silence that
    /// completed its last packet, and the valid frames of the packets this writer wrote (none
    /// when it wrote none).
    private func completeEncodedFile() throws(ExtAudioFileError) {
        guard let converter, !fileDataFormat.isPCM else { return }
        let info = converter.primeInfo
        let perPacket = Int64(max(fileDataFormat.framesPerPacket, 1))
        do {
            if let cookie = converter.compressionMagicCookie { try file.setMagicCookie(cookie) }
            let total = packetsWritten * perPacket
            guard packetsWritten > 0, file.packetCount == packetsWritten, info.leadingFrames > 0 || info.trailingFrames > 0,
                  total >= Int64(info.leadingFrames) + Int64(info.trailingFrames) else { return }
            do {
                try file.setPacketTableInfo(AudioFilePacketTableInfo(
                    numberValidFrames: total - Int64(info.leadingFrames) - Int64(info.trailingFrames),
                    primingFrames: Int32(info.leadingFrames), remainderFrames: Int32(info.trailingFrames)))
            } catch where error.code == .unsupportedProperty {
                // A container without a packet table (ADTS): the frames stay in the packets.
            }
        } catch {
            throw .file(error)
        }
    }
}

