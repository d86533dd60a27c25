public import AudioCore

/// A buffer's bytes, samples and packet descriptions without pointers. The pointer forms
/// (``AudioQueueBuffer/audioData``, ``AudioQueueBuffer/packetDescriptions``) stay for speed and
/// for code written after Apple's; these are the same memory through safe types.
extension AudioQueueBuffer {
    /// The buffer's valid bytes (the first ``audioDataByteSize``), copied.
    public var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: audioData, count: validByteCount))
    }

    /// The buffer's valid bytes as values of `type` (samples of a PCM format: `Int16.self`,
    /// `Float.self`), copied in memory order; a trailing part too short for a whole value is
    /// left out.
    public func samples<Sample: BitwiseCopyable>(as type: Sample.Type) -> [Sample] {
        let count = validByteCount / MemoryLayout<Sample>.stride
        return [Sample](unsafeUninitializedCapacity: count) { out, initialized in
            UnsafeMutableRawBufferPointer(out).copyMemory(
                from: UnsafeRawBufferPointer(start: audioData, count: count * MemoryLayout<Sample>.stride))
            initialized = count
        }
    }

    /// Lends the valid bytes to `body` without copying, as a `RawSpan` (which cannot escape it).
    public func withContents<Result, Failure: Error>(
        _ body: (RawSpan) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let valid = UnsafeRawBufferPointer(start: audioData, count: validByteCount)
        return try body(valid.bytes)
    }

    /// Lends the whole capacity to `body` without copying, as a `MutableRawSpan`, and sets
    /// ``audioDataByteSize`` to what `body` returns (clamped to the capacity): write samples
    /// with `storeBytes(of:toByteOffset:as:)`, return how many bytes hold audio.
    public func withMutableContents<Failure: Error>(
        _ body: (inout MutableRawSpan) throws(Failure) -> Int
    ) throws(Failure) {
        let whole = UnsafeMutableRawBufferPointer(start: audioData, count: audioDataBytesCapacity)
        var span = whole.mutableBytes
        let used = try body(&span)
        audioDataByteSize = min(max(used, 0), audioDataBytesCapacity)
    }

    /// Copies `values` (bytes, or samples of a PCM format) into the buffer from its start and
    /// sets ``audioDataByteSize`` to their size; with `packetDescriptions` (variable-size
    /// packets) copies those too and sets ``packetDescriptionCount``, else sets it to 0.
    ///
    /// `invalidParameter`, leaving the buffer as it was, when the values do not fit its
    /// capacity or the descriptions its description capacity.
    public func fill<Values: Collection>(
        with values: Values, packetDescriptions: [AudioStreamPacketDescription] = []
    ) throws(AudioQueueError) where Values.Element: BitwiseCopyable {
        let stride = MemoryLayout<Values.Element>.stride
        let size = values.count * stride
        guard size <= audioDataBytesCapacity else {
            throw AudioQueueError(.invalidParameter, "\(size) bytes do not fit a buffer of \(audioDataBytesCapacity)")
        }
        guard packetDescriptions.count <= (self.packetDescriptions == nil ? 0 : packetDescriptionCapacity) else {
            throw AudioQueueError(
                .invalidParameter,
                "\(packetDescriptions.count) packet descriptions do not fit a buffer with room for \(self.packetDescriptions == nil ? 0 : packetDescriptionCapacity)")
        }
        let copied: Void? = values.withContiguousStorageIfAvailable { source in
            UnsafeMutableRawBufferPointer(start: audioData, count: size).copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil {
            var offset = 0
            for value in values {
                audioData.storeBytes(of: value, toByteOffset: offset, as: Values.Element.self)
                offset += stride
            }
        }
        audioDataByteSize = size
        if let list = self.packetDescriptions {
            for (i, d) in packetDescriptions.enumerated() { list[i] = d }
        }
        packetDescriptionCount = packetDescriptions.count
    }

    /// The buffer's packet descriptions (the first ``packetDescriptionCount``) as a collection,
    /// read in place: a view of the buffer, valid while the program holds the buffer (see
    /// ``AudioQueueBuffer``). `Array(buffer.packets)` keeps a copy.
    public var packets: Packets {
        Packets(buffer: self, count: validDescriptionCount, constantSize: nil)
    }

    /// The packets of a buffer as a collection of their descriptions (Apple's
    /// `AudioStreamPacketDescription`), read in place from the buffer without copying.
    ///
    /// For a format of variable-size packets the descriptions are the buffer's own; for one of
    /// constant-size packets (linear PCM, IMA4) they are computed: packet `i` starts at
    /// `i × bytesPerPacket`. A view of the buffer: valid while the program holds it — inside
    /// the callback that handed it over, or until it is enqueued again. Copy it
    /// (`Array(packets)`) to keep it longer.
    public struct Packets: RandomAccessCollection, Sendable {
        let buffer: AudioQueueBuffer
        /// Bytes and frames of each packet for a format of constant-size packets.
        let constantSize: ConstantSize?

        struct ConstantSize: Sendable {
            let bytes: Int
        }

        init(buffer: AudioQueueBuffer, count: Int, constantSize: ConstantSize?) {
            self.buffer = buffer
            self.constantSize = constantSize
            endIndex = constantSize == nil ? Swift.min(count, buffer.validDescriptionCount) : Swift.max(count, 0)
        }

        /// 0.
        public var startIndex: Int { 0 }
        /// The number of packets.
        public let endIndex: Int

        /// The description of packet `position` (`0..<count`).
        public subscript(position: Int) -> AudioStreamPacketDescription {
            precondition(position >= 0 && position < endIndex, "packet \(position) of \(endIndex)")
            if let constantSize {
                return AudioStreamPacketDescription(
                    startOffset: Int64(position * constantSize.bytes), dataByteSize: UInt32(truncatingIfNeeded: constantSize.bytes))
            }
            return buffer.packetDescriptions![position]
        }

        /// The bytes of packet `position`, copied.
        public func bytes(of position: Int) -> [UInt8] {
            let d = self[position]
            let start = Int(clamping: d.startOffset)
            let valid = buffer.validByteCount
            guard start >= 0, start <= valid else { return [] }
            let end = Swift.min(valid, start + Int(d.dataByteSize))
            return Array(UnsafeRawBufferPointer(start: buffer.audioData + start, count: end - start))
        }
    }
}
