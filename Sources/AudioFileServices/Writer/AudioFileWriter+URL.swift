#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import AudioCore

extension AudioFileWriter {
    /// Creates the file a `file:` URL names (Apple's `AudioFileCreateWithURL`). Throws
    /// `fileNotFound` for a URL that is not a file URL.
    public convenience init(
        url: URL, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags = []
    ) throws(AudioFileError) {
        guard url.isFileURL else {
            throw AudioFileError(.fileNotFound, "\(url) is not a file URL")
        }
        try self.init(path: url.path(percentEncoded: false), type: type, format: format, flags: flags)
    }
}
