public import AudioCodecs

// Reading and writing frames as Swift arrays, without pointers.

extension ExtAudioFile {
    /// Reads up to `frameCount` frames (fewer at the end of the file, none after it) in
    /// ``clientDataFormat`` into a new buffer (Apple's `ExtAudioFileRead`).
    ///
    /// ```swift
    /// let file = try ExtAudioFile(path: "loop.m4a")
    /// try file.setClientDataFormat(.float32(sampleRate: 44100, channels: 2))
    /// let samples = try file.read(frameCount: 4096).samples(as: Float.self)!
    /// ```
    public func read(frameCount: Int) throws(ExtAudioFileError) -> PCMBuffer {
        guard let buffer = PCMBuffer(format: clientDataFormat, frameCapacity: max(frameCount, 0)) else {
            throw ExtAudioFileError(.invalidDataFormat, "client format \(clientDataFormat) is not linear PCM")
        }
        try read(into: buffer, frameCount: max(frameCount, 0))
        return buffer
    }

    /// Reads up to `frameCount` frames in the client format as samples of `Sample` — `Float`
    /// for a float32 client format, `Int16` for 16-bit integers — interleaved (or channel
    /// after channel for a non-interleaved format). Empty at the end of the file.
    ///
    /// Throws `invalidDataFormat` when `Sample` is not the client format's sample word.
    public func read<Sample: PCMSample>(frameCount: Int, as sample: Sample.Type) throws(ExtAudioFileError) -> [Sample] {
        let buffer = try read(frameCount: frameCount)
        guard let samples = buffer.samples(as: Sample.self) else {
            throw ExtAudioFileError(.invalidDataFormat, "\(Sample.self) is not the sample of the client format \(clientDataFormat)")
        }
        return samples
    }
}

extension ExtAudioFileWriter {
    /// Writes `samples` in the client format — interleaved frames, or one channel after
    /// another for a non-interleaved format — (Apple's `ExtAudioFileWrite`).
    ///
    /// Throws `invalidDataFormat` when no client format is set, `Sample` is not its sample word
    /// or the samples are not whole frames, and otherwise as ``write(_:)``.
    public func write<Sample: PCMSample>(samples: some Collection<Sample>) throws(ExtAudioFileError) {
        guard let client = clientDataFormat else {
            throw ExtAudioFileError(.invalidDataFormat, "no client format is set")
        }
        guard let buffer = PCMBuffer(format: client, samples: samples) else {
            throw ExtAudioFileError(
                .invalidDataFormat, "\(samples.count) samples of \(Sample.self) are not whole frames of the client format \(client)")
        }
        try write(buffer)
    }
}
