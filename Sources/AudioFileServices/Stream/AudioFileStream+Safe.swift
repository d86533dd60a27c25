import AudioCore

// The parser without pointers: bytes in as any collection of bytes, packets out as arrays.

extension AudioFileStream {
    /// Opens a parser whose packets arrive as ``AudioFile/Packets`` — the bytes in an array the
    /// callback may keep, and their descriptions — rather than as memory valid only during the
    /// call. The property listener gets the parser and the property; the parser keeps every
    /// value it reports, so there are no flags to set.
    ///
    /// ```swift
    /// let parser = try AudioFileStream(
    ///     propertyListener: { stream, property in
    ///         if property == .readyToProducePackets { print(stream.dataFormat!) }
    ///     },
    ///     packets: { _, packets in print(packets.count, "packets") })
    /// ```
    ///
    /// Packets are copied once into the array; for no copy at all use
    /// `init(fileTypeHint:propertyListener:packets:)` with the three-argument packets callback.
    public convenience init(
        fileTypeHint: AudioFileType? = nil,
        propertyListener: @escaping (AudioFileStream, AudioFileStreamPropertyID) -> Void = { _, _ in },
        packets: @escaping (AudioFileStream, AudioFile.Packets) -> Void
    ) throws(AudioFileStreamError) {
        try self.init(
            fileTypeHint: fileTypeHint,
            propertyListener: { stream, property, _ in propertyListener(stream, property) },
            packets: { stream, bytes, descriptions in
                let bytesPerPacket = Int(stream.dataFormat?.bytesPerPacket ?? 0)
                packets(stream, AudioFile.Packets(data: Array(bytes), descriptions: descriptions, bytesPerPacket: bytesPerPacket))
            })
    }

    /// Parses the next bytes of the stream, given as any collection of bytes — `[UInt8]`, an
    /// `ArraySlice`, `Data`, a `ByteBuffer`'s readable bytes. Contiguous storage is parsed in
    /// place; other collections are copied once. An empty collection parses nothing (flags
    /// included); at the end of the stream call ``finish()``.
    ///
    /// Throws as ``parse(bytes:flags:)`` does.
    public func parse(_ bytes: some Collection<UInt8>, flags: AudioFileStreamParseFlags = []) throws(AudioFileStreamError) {
        guard !bytes.isEmpty else { return }
        try withContiguousBytes(of: bytes) { (raw: UnsafeRawBufferPointer) throws(AudioFileStreamError) in
            try parse(bytes: raw, flags: flags)
        }
    }

    /// Tells the parser the stream has ended (Apple's `AudioFileStreamParseBytes` with no
    /// bytes): a frame after junk that no later header can confirm counts if it ends exactly
    /// here, and a FLAC stream's last frame is delivered.
    ///
    /// Throws as ``parse(bytes:flags:)`` does.
    public func finish() throws(AudioFileStreamError) {
        try parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }
}
