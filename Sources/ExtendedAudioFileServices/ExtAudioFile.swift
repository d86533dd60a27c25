public import AudioCore
public import AudioFileServices
public import AudioCodecs
public import AudioConverterServices

/// Reads any supported file as linear PCM in a format of the caller's choice (Apple's
/// `ExtAudioFile` for reading).
///
/// Decodes packets with the decoder registered for the file's format, drops the packet table's
/// priming frames at the start and remainder frames at the end — so a file reads as exactly
/// ``fileLengthFrames`` frames — and converts to ``clientDataFormat``. ``seek(toFrame:)`` is
/// sample-exact: for formats whose packets depend on earlier ones (AAC) it decodes from earlier
/// packets and discards their output.
public final class ExtAudioFile {
    /// The file being read.
    public let file: AudioFile
    /// The file's own data format.
    public var fileDataFormat: AudioStreamBasicDescription { file.dataFormat }
    /// The PCM format the decoder produces (the file's format for linear PCM).
    public let decodedFormat: AudioStreamBasicDescription
    /// The order of the decoded channels: the codec's where it defines one (AAC), else the
    /// file's channel layout.
    public var channelLayout: AudioChannelLayout? { decoder.outputChannelLayout ?? file.channelLayout }
    /// Frames of audio the file reads as, after trimming priming and remainder.
    public let fileLengthFrames: Int64
    /// Priming frames dropped at the start.
    public let primingFrames: Int64
    /// Decoded frames per frame the file counts: 2 when the file describes the AAC core of a
    /// stream decoded with SBR at twice its rate, else 1.
    let frameScale: Int64

    /// The format ``read(into:frameCount:)`` produces: any linear PCM, at any rate and channel
    /// count. Defaults to ``decodedFormat``.
    public var clientDataFormat: AudioStreamBasicDescription {
        get { clientStage?.converter.outputFormat ?? converter?.output ?? decodedFormat }
    }
    /// The conversion to a client format of another rate or channel count; nil when the client
    /// format has the decoded rate and channels.
    var clientStage: ClientStage?

    /// How the decoder restarts: pre-roll before a seek target, reset interval, alignment, and
    /// whether pieces decoded apart join into exactly what one continuous read gives (when not,
    /// ``readAll(maximumThreads:packetsPerPiece:_:)`` decodes on the calling thread).
    var traits: AudioDecoderTraits { decoder.traits }
    let planner: BatchPlanner
    /// The reset point the decoder's state already starts from (-1: none).
    var resetPoint: Int64 = -1
    let decoder: PacketDecoder
    var converter: PCMConverter?
    let isPCM: Bool
    /// Decoded frames not yet handed out, in ``decodedFormat``.
    let decoded: PCMBuffer
    var decodedStart = 0
    var nextPacket: Int64 = 0
    /// Frames of the decoded timeline already returned or skipped (priming included).
    var position: Int64 = 0
    /// Packet bytes and descriptions read from the file, reused for every read.
    private let packetBytes: UnsafeMutableRawBufferPointer
    private let descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>
    let packetsPerRead: Int
    /// Where each packet starts in the decoded timeline, for files whose packets vary in frame
    /// count (CAF with frames per packet 0, ADTS frames of several blocks); empty otherwise.
    private let packetStartFrames: [Int64]
    /// Packets that failed to decode (concealed with silence) since the file was opened.
    public internal(set) var badPackets = 0

    /// Opens `path` for decoding.
    public convenience init(path: String) throws(ExtAudioFileError) {
        let file: AudioFile
        do { file = try AudioFile(path: path) } catch { throw .file(error) }
        try self.init(file: file)
    }

    /// Decodes an opened file.
    public init(file: AudioFile) throws(ExtAudioFileError) {
        self.file = file
        let format = file.dataFormat
        isPCM = format.isPCM
        // Variable-size packets the reader has not split (MPEG audio in WAVE) cannot be decoded,
        // whether or not a decoder for the format is registered.
        guard !(format.bytesPerPacket == 0 && file.packetCount == 0 && file.dataByteCount > 0) else {
            throw .file(AudioFileError(
                .unsupportedDataFormat, "cannot decode \(format.formatID.messageName): the file's reader does not split it into packets"))
        }
        do {
            decoder = try PacketDecoder(format: format, magicCookie: file.magicCookie)
        } catch {
            throw .file(AudioFileError(.unsupportedDataFormat, "cannot decode \(format.formatID.messageName): \(error.reason)"))
        }
        decodedFormat = decoder.decodedFormat
        // A file that describes the AAC core of a stream the decoder doubles with SBR ('aac ' at
        // the core rate, a cookie that signals SBR) counts core frames: its counts are doubled.
        frameScale = Int64(decoder.frameScale)
        let table = file.packetTableInfo
        primingFrames = Int64(table?.primingFrames ?? 0) * frameScale
        let total = file.totalFrames.multipliedReportingOverflow(by: frameScale).overflow ? .max : file.totalFrames * frameScale
        if let table {
            let valid = table.numberValidFrames.multipliedReportingOverflow(by: frameScale).overflow ? .max : table.numberValidFrames * frameScale
            fileLengthFrames = max(0, min(valid, total - primingFrames))
        } else {
            fileLengthFrames = total
        }
        let framesPerPacket = max(Int(format.framesPerPacket), decoder.maximumFramesPerPacket, 1)
        let upper = max(file.packetSizeUpperBound, 1)
        // Packets of more than 64 Ki frames or 16 MiB are no format this library decodes; a
        // header claiming them must not size the buffers below.
        guard framesPerPacket <= 1 << 16, upper <= 16 << 20 else {
            throw .file(AudioFileError(
                .unsupportedDataFormat,
                "packets of \(format.framesPerPacket) frames and up to \(upper) bytes cannot be decoded"))
        }
        if isPCM {
            // Linear PCM is read straight into the decoded buffer, 1 MiB (at least 64 Ki frames,
            // at most 4 MiB) per read: few, large reads.
            packetsPerRead = max(1, min(max(65536, (1 << 20) / upper), (4 << 20) / upper))
        } else {
            // About 64 Ki frames or 4 MiB of packets per read, whichever is less (at least one
            // packet), so neither buffer is sized by a header field beyond reason.
            packetsPerRead = max(1, min(4096, 65536 / framesPerPacket, (4 << 20) / upper))
        }
        let traits = decoder.traits
        planner = BatchPlanner(
            packetsPerRead: packetsPerRead, preroll: Int64(max(traits.preRollPackets, 0)),
            interval: traits.resetInterval.map { Int64(max($0, 1)) }, alignment: Int64(max(traits.startAlignment, 1)))
        // Room for the pre-roll read again at a reset point, besides a batch.
        let readable = planner.readable
        packetBytes = .allocate(byteCount: isPCM ? 16 : upper * readable, alignment: 16)
        // Constant-size PCM packets need no descriptions.
        descriptions = .allocate(capacity: isPCM && !file.needsDescriptions ? 1 : readable)
        descriptions.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0))
        let capacity = max(framesPerPacket, decoder.maximumFramesPerPacket) * packetsPerRead
        guard let buffer = PCMBuffer(format: decodedFormat, frameCapacity: capacity) else {
            throw .codec(AudioCodecError(.formatNotSupported, "decoder output \(decodedFormat) is not linear PCM"))
        }
        decoded = buffer
        position = 0
        if case .table(let table) = file.container.packets, !table.frames.isEmpty {
            var starts = [Int64]()
            starts.reserveCapacity(table.count + 1)
            var total: Int64 = 0
            for frames in table.frames {
                starts.append(total)
                total += Int64(frames) * frameScale
            }
            starts.append(total)
            packetStartFrames = starts
        } else {
            packetStartFrames = []
        }
    }

    deinit {
        packetBytes.deallocate()
        descriptions.deallocate()
    }

    /// Sets the client format (Apple's `kExtAudioFileProperty_ClientDataFormat`).
    ///
    /// A format of the decoded rate and channel count is converted sample by sample; another
    /// rate or channel count goes through an `AudioConverter` (libsoxr at
    /// `kAudioConverterQuality_High`, or `quality`), and the read position, ``tell()`` and
    /// ``seek(toFrame:)`` then count client frames: the file reads as ``clientLengthFrames``
    /// frames. The read position stays where it was, in time.
    public func setClientDataFormat(
        _ format: AudioStreamBasicDescription, quality: SampleRateConverterQuality = .high
    ) throws(ExtAudioFileError) {
        let here = tell()
        let oldRate = clientDataFormat.sampleRate
        guard format.isPCM else {
            throw .codec(AudioCodecError(.formatNotSupported, "the client format must be linear PCM: \(format)"))
        }
        if format.sampleRate == decodedFormat.sampleRate && format.channelsPerFrame == decodedFormat.channelsPerFrame {
            if format == decodedFormat {
                converter = nil
            } else {
                do { converter = try PCMConverter(from: decodedFormat, to: format) } catch { throw .codec(error) }
            }
            clientStage?.release()
            clientStage = nil
        } else {
            let stage: ClientStage
            do {
                stage = try ClientStage(decoded: decodedFormat, client: format, quality: quality, fileLength: fileLengthFrames)
            } catch {
                throw .codec(error)
            }
            clientStage?.release()
            converter = nil
            clientStage = stage
        }
        let target = Int64((Double(here) * format.sampleRate / oldRate).rounded())
        if target != tell() || clientStage != nil { try seek(toFrame: min(target, clientLengthFrames)) }
    }

    /// The frames the file reads as in ``clientDataFormat``: ``fileLengthFrames`` at the
    /// decoded rate, round(``fileLengthFrames`` × client rate / decoded rate) at another.
    public var clientLengthFrames: Int64 { clientStage?.length ?? fileLengthFrames }

    /// The converter to a client format of another rate or channel count
    /// (`kExtAudioFileProperty_AudioConverter`); nil when the client format has the decoded
    /// rate and channel count.
    public var audioConverter: AudioConverter? { clientStage?.converter }

    /// The current read position, in client frames after trimming (Apple's `ExtAudioFileTell`).
    public func tell() -> Int64 {
        if let clientStage { return clientStage.position }
        return max(0, position - primingFrames)
    }

    /// Moves the read position to `frame`, in client frames (0 = the first valid frame),
    /// sample-exactly.
    public func seek(toFrame frame: Int64) throws(ExtAudioFileError) {
        guard frame >= 0, frame <= clientLengthFrames else {
            throw .file(AudioFileError(.position, "frame \(frame) is outside 0…\(clientLengthFrames)"))
        }
        if let clientStage {
            let start = clientStage.restart(for: frame)
            try seekDecoded(toFrame: start.decodedFrame)
            try clientStage.skip(frame - start.clientFrame) { (buffer, count) throws(ExtAudioFileError) in
                try readDecoded(into: buffer, frameCount: count)
            }
            return
        }
        try seekDecoded(toFrame: frame)
    }

    /// Moves the decoded read position to `frame` (0 = the first valid frame).
    func seekDecoded(toFrame frame: Int64) throws(ExtAudioFileError) {
        guard frame >= 0, frame <= fileLengthFrames else {
            throw .file(AudioFileError(.position, "frame \(frame) is outside 0…\(fileLengthFrames)"))
        }
        let target = frame + primingFrames
        let packet: Int64
        if packetStartFrames.isEmpty {
            let fpp = Int64(max(fileDataFormat.framesPerPacket, 1)) * frameScale
            packet = planner.startPacket(for: target / fpp)
            resetPoint = planner.resetPoint(for: target / fpp)
            position = packet * fpp
        } else {
            // The last packet starting at or before the target, by binary search.
            var low = 0, high = packetStartFrames.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if packetStartFrames[mid] <= target { low = mid } else { high = mid - 1 }
            }
            packet = planner.startPacket(for: Int64(low))
            resetPoint = planner.resetPoint(for: Int64(low))
            position = packetStartFrames[Int(packet)]
        }
        decoder.reset()
        decoded.frameLength = 0
        decodedStart = 0
        nextPacket = packet
        // Decode forward, discarding, up to the target.
        while position < target {
            guard try fill() else { break }
            let available = Int64(decoded.frameLength - decodedStart)
            let skip = Int(min(available, target - position))
            decodedStart += skip
            position += Int64(skip)
        }
    }

    /// Reads up to `frameCount` frames (fewer at the end; 0 at the end) in ``clientDataFormat``
    /// and appends them to `buffer`, whose format must be the client format (Apple's
    /// `ExtAudioFileRead`).
    @discardableResult
    public func read(into buffer: PCMBuffer, frameCount: Int) throws(ExtAudioFileError) -> Int {
        guard buffer.format == clientDataFormat else {
            throw .codec(AudioCodecError(.formatNotSupported, "buffer format \(buffer.format) is not the client format \(clientDataFormat)"))
        }
        if let clientStage {
            return try clientStage.read(into: buffer, frameCount: frameCount) { (staging, count) throws(ExtAudioFileError) in
                try readDecoded(into: staging, frameCount: count)
            }
        }
        return try readDecoded(into: buffer, frameCount: frameCount)
    }

    /// Reads up to `frameCount` decoded frames, converted sample by sample to the client
    /// format when it has the decoded rate and channels.
    func readDecoded(into buffer: PCMBuffer, frameCount: Int) throws(ExtAudioFileError) -> Int {
        var wanted = min(frameCount, buffer.framesFree)
        var produced = 0
        let end = primingFrames + fileLengthFrames
        // Skip priming (and anything before the position) first.
        while position < primingFrames {
            if decodedStart >= decoded.frameLength { guard try fill() else { return 0 } }
            let skip = Int(min(Int64(decoded.frameLength - decodedStart), primingFrames - position))
            decodedStart += skip
            position += Int64(skip)
        }
        while wanted > 0 && position < end {
            if decodedStart >= decoded.frameLength { guard try fill() else { break } }
            let n = Int(min(Int64(min(wanted, decoded.frameLength - decodedStart)), end - position))
            try deliver(frames: n, into: buffer)
            decodedStart += n
            position += Int64(n)
            produced += n
            wanted -= n
        }
        return produced
    }

    /// Copies or converts `frames` frames from the decoded buffer into `buffer`.
    private func deliver(frames: Int, into buffer: PCMBuffer) throws(ExtAudioFileError) {
        let bytesPerFrame = Int(decodedFormat.bytesPerFrame)
        let source = UnsafeRawBufferPointer(rebasing: decoded.region()[(decodedStart * bytesPerFrame)..<((decodedStart + frames) * bytesPerFrame)])
        if let converter {
            do { try converter.convert(source, frameCount: frames, appendingTo: buffer) } catch { throw .codec(error) }
        } else {
            let free = buffer.freeSpace()
            guard free.count >= source.count else {
                throw .codec(AudioCodecError(.invalidOutputSize, "buffer has room for \(free.count) bytes, needs \(source.count)"))
            }
            free.copyMemory(from: source)
            buffer.frameLength += frames
        }
    }

    /// Decodes the next batch of packets into `decoded`; false at the end of the file.
    private func fill() throws(ExtAudioFileError) -> Bool {
        let remaining = file.packetCount - nextPacket
        guard remaining > 0 else { return false }
        decoded.frameLength = 0
        decodedStart = 0
        let count = Int(min(Int64(packetsPerRead), remaining))
        if isPCM {
            // Linear PCM: the packets are the frames, read in place.
            let packets: Int
            do {
                packets = try file.readPackets(from: nextPacket, count: count, into: decoded.freeSpace(), descriptions: descriptions).packetCount
            } catch {
                throw .file(error)
            }
            guard packets > 0 else { return false }
            decoded.frameLength = packets
            nextPacket += Int64(packets)
            return true
        }
        let plan = planner.plan(cursor: nextPacket, keep: nextPacket, end: file.packetCount, resetPoint: &resetPoint)
        if plan.reset { decoder.reset() }
        let packets: Int
        do {
            packets = try file.readPackets(from: plan.from, count: plan.count, into: packetBytes, descriptions: descriptions).packetCount
        } catch {
            throw .file(error)
        }
        guard packets > plan.dropping else { return false }
        let used: Int
        let bad = decoder.badPackets
        do {
            used = try decoder.decode(
                packets: packets, bytes: UnsafeRawBufferPointer(packetBytes), descriptions: file.needsDescriptions ? descriptions : nil,
                dropping: plan.dropping, into: decoded)
        } catch {
            // Leave nothing half done: a later read starts this batch again.
            decoded.frameLength = 0
            decoder.reset()
            resetPoint = -1
            throw .codec(error)
        }
        badPackets += decoder.badPackets - bad  // concealed by the decoder; the stream goes on
        nextPacket = plan.from + Int64(used)
        return true
    }
}

/// Which packets a batch decodes, for every way of reading a file: in order, after a seek, or
/// in pieces on several threads. Where the format has a reset interval, a decoder is reset at
/// each multiple of it and first decodes the pre-roll before it again, dropping its frames, so
/// that every packet decodes to the same frames however the file is read.
struct BatchPlanner: Sendable {
    let packetsPerRead: Int
    let preroll: Int64
    let interval: Int64?
    /// Decoding starts at a multiple of this many packets (1: anywhere).
    let alignment: Int64

    /// Packets the read buffers hold: a batch and, with a reset interval, the pre-roll.
    var readable: Int { packetsPerRead + (interval == nil ? 0 : Int(preroll)) }

    /// The packet a fresh decoder starts from for `packet`'s frames to be right.
    func startPacket(for packet: Int64) -> Int64 {
        if interval != nil { return max(0, resetPoint(for: packet) - preroll) }
        return max(0, packet - preroll) / alignment * alignment
    }

    /// The reset point a decoder that decodes `packet` last passed.
    func resetPoint(for packet: Int64) -> Int64 {
        guard let interval else { return -1 }
        return packet / interval * interval
    }

    /// The batch to decode next when packet `cursor` is the next one and frames are kept from
    /// packet `keep` on (before: pre-roll), up to `end`. `reset` says whether the decoder must be
    /// reset first; `resetPoint` is the reset point its state starts from, updated.
    func plan(cursor: Int64, keep: Int64, end: Int64, resetPoint: inout Int64) -> (from: Int64, count: Int, dropping: Int, reset: Bool) {
        var from = cursor
        var limit = end
        var reset = false
        if let interval {
            if cursor > 0 && cursor % interval == 0 && resetPoint != cursor {
                reset = true
                resetPoint = cursor
                from = max(0, cursor - preroll)
            }
            limit = min(end, (cursor / interval + 1) * interval)
        }
        // Frames are kept from `keep` on, and never twice: after a reset, the pre-roll decoded
        // again is dropped.
        let skip = max(0, max(keep, cursor) - from)
        let count = Int(min(limit - from, Int64(min(readable, Int(min(skip, Int64(readable))) + packetsPerRead))))
        return (from, max(count, 0), Int(min(skip, Int64(max(count, 0)))), reset)
    }
}
