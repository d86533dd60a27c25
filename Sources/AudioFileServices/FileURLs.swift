#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import AudioCore

// Files named by `file:` URLs, as Apple's `AudioFileOpenURL` and `AudioFileCreateWithURL` take them.

extension AudioFile {
    /// Opens the file a `file:` URL names (Apple's `AudioFileOpenURL`). Throws `fileNotFound`
    /// for a URL that is not a file URL.
    public convenience init(url: URL, typeHint: AudioFileType? = nil) throws(AudioFileError) {
        try self.init(path: filePath(url), typeHint: typeHint)
    }
}

extension AudioFileWriter {
    /// Creates the file a `file:` URL names (Apple's `AudioFileCreateWithURL`). Throws
    /// `fileNotFound` for a URL that is not a file URL.
    public convenience init(
        url: URL, type: AudioFileType, format: AudioStreamBasicDescription, flags: AudioFileFlags = []
    ) throws(AudioFileError) {
        try self.init(path: filePath(url), type: type, format: format, flags: flags)
    }
}

/// The path a `file:` URL names; `fileNotFound` for any other URL.
private func filePath(_ url: URL) throws(AudioFileError) -> String {
    guard url.isFileURL else {
        throw AudioFileError(.fileNotFound, "\(url) is not a file URL")
    }
    return url.path(percentEncoded: false)
}
