public import AudioCore

// Decoding and encoding with arrays, for code that is not on a capture or render thread.

extension AudioDecoder {
    /// ``decode(packet:frames:into:)`` for a packet given as any collection of bytes (`[UInt8]`,
    /// an `ArraySlice`, `Data`, a packet of `AudioFile.Packets`), read in place where it is
    /// contiguous. Returns the frames appended to `buffer`.
    @discardableResult
    public func decode(packet: some Collection<UInt8>, frames: Int? = nil, into buffer: PCMBuffer) throws(AudioCodecError) -> Int {
        let inPlace: Result<Int, AudioCodecError>? = packet.withContiguousStorageIfAvailable { bytes in
            Result { () throws(AudioCodecError) in try decode(packet: UnsafeRawBufferPointer(bytes), frames: frames, into: buffer) }
        }
        if let inPlace { return try inPlace.get() }
        let copy = Array(packet)
        let result: Result<Int, AudioCodecError> = copy.withUnsafeBytes { bytes in
            Result { () throws(AudioCodecError) in try decode(packet: bytes, frames: frames, into: buffer) }
        }
        return try result.get()
    }
}

extension AudioEncoder {
    /// Encodes `samples` — interleaved frames of ``inputFormat``, `Float` for most encoders —
    /// into packets returned as arrays: the bytes, a description per packet for formats whose
    /// packets vary, and the frames of silence that completed the last packet (see
    /// ``encode(_:frameCount:into:packetDescriptions:)``).
    ///
    /// Throws `invalidInputSize` when `Sample` is not the input format's sample or the samples
    /// are not whole frames, and otherwise as ``encode(_:frameCount:into:packetDescriptions:)``.
    public func encode<Sample: PCMSample>(
        samples: [Sample]
    ) throws(AudioCodecError) -> (data: [UInt8], descriptions: [AudioStreamPacketDescription]?, paddingFrames: Int) {
        let channels = max(Int(inputFormat.channelsPerFrame), 1)
        guard MemoryLayout<Sample>.size == Int(inputFormat.sampleWordSize), Sample.isFloatingPoint == inputFormat.isFloat,
              inputFormat.isInterleaved || channels == 1, samples.count % channels == 0
        else {
            throw AudioCodecError(.invalidInputSize, "\(samples.count) samples of \(Sample.self) are not whole frames of \(inputFormat)")
        }
        let frames = samples.count / channels
        guard let size = outputByteCount(forFrames: frames) else {
            throw AudioCodecError(.invalidInputSize, "\(frames) frames")
        }
        let varies = outputFormat.bytesPerPacket == 0 || outputFormat.framesPerPacket == 0
        let packetLimit = framesPerPacket > 0 ? frames / framesPerPacket + 2 : frames + 2
        var data = [UInt8](repeating: 0, count: max(size, 1))
        var descriptions = [AudioStreamPacketDescription](
            repeating: AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 0, dataByteSize: 0), count: varies ? packetLimit : 0)
        let result: Result<AudioEncodeResult, AudioCodecError> = samples.withUnsafeBytes { input in
            data.withUnsafeMutableBytes { output in
                descriptions.withUnsafeMutableBufferPointer { list in
                    Result { () throws(AudioCodecError) in
                        try encode(input, frameCount: frames, into: output, packetDescriptions: varies ? list : nil)
                    }
                }
            }
        }
        let done = try result.get()
        data.removeSubrange(done.byteCount...)
        return (data, varies ? Array(descriptions.prefix(done.packetCount)) : nil, done.paddingFrames)
    }
}
