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
    /// PCM, A-law, µ-law, IMA4, AAC, Apple Lossless, FLAC), as the type's format descriptor
    /// declares them (``AudioFileTypeDescriptor/writableFormats``). Empty for a type the package
    /// reads only or does not know. What `kAudioFileGlobalInfo_AvailableFormatIDs` answers.
    public var writableFormatIDs: [AudioFormatID] {
        AudioFileFormats.fileType(self)?.writableFormats ?? []
    }
}
