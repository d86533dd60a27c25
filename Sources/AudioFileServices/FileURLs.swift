#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import AudioCore

extension AudioFile {
    /// Opens the file a `file:` URL names (Apple's `AudioFileOpenURL`). Throws `fileNotFound`
    /// for a URL that is not a file URL.
    public convenience init(url: URL, typeHint: AudioFileType? = nil) throws(AudioFileError) {
        guard url.isFileURL else {
            throw AudioFileError(.fileNotFound, "\(url) is not a file URL")
        }
        try self.init(path: url.path(percentEncoded: false), typeHint: typeHint)
    }
}
