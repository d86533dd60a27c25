public import AudioCore

extension AudioFileType {
    /// Whether ``AudioFileWriter`` writes audio of `format` into a file of this type: the
    /// writer's own checks, asked without making a file. False where the writer would make a
    /// file of another type (AIFF-C for A-law asked of AIFF).
    public func canWrite(_ format: AudioStreamBasicDescription) -> Bool {
        guard let (header, _) = try? ContainerHeader.make(type: self, format: format, metadata: WriterMetadata(), align: false) else {
            return false
        }
        return header.fileType == self
    }

    /// The data formats the writer writes into files of this type, in Apple's order (linear
    /// PCM, A-law, µ-law, IMA4, AAC, Apple Lossless, FLAC): each format the package encodes,
    /// asked of the writer with a description of it (linear PCM in either byte order). Empty
    /// for a type the package reads only. What `kAudioFileGlobalInfo_AvailableFormatIDs`
    /// answers, so it cannot disagree with what the writer accepts.
    public var writableFormatIDs: [AudioFormatID] {
        Self.writableProbes.filter { probe in probe.descriptions.contains(where: canWrite) }.map(\.format)
    }

    /// One or more descriptions of each format the package can produce.
    private static let writableProbes: [(format: AudioFormatID, descriptions: [AudioStreamBasicDescription])] = [
        (.linearPCM, [.pcm(sampleRate: 44100, channels: 2), .pcm(sampleRate: 44100, channels: 2, bigEndian: true)]),
        (.aLaw, [.alaw()]),
        (.uLaw, [.ulaw()]),
        (.appleIMA4, [.ima4(sampleRate: 44100, channels: 2)]),
        (.mpeg4AAC, [.aac(sampleRate: 44100, channels: 2)]),
        (.appleLossless, [.alac(sampleRate: 44100, channels: 2)]),
        (.flac, [.flac(sampleRate: 44100, channels: 2)]),
    ]
}
