/// A result code from one of Apple's audio APIs: an `OSStatus` with names for the values Apple
/// defines.
///
/// Each error type's `Code` — `AudioFileError.Code` (of AudioFileServices), and the codes of the
/// codec and queue errors — is a struct over the raw `OSStatus`, as swift-system's `Errno` is over `errno`: its
/// static members name Apple's constants, and any other value is a code too. A `switch` over a
/// code therefore needs a `default:`, and a result code Apple adds later is not a breaking change.
///
/// ```swift
/// do {
///     let file = try AudioFile(path: path)
///     …
/// } catch {
///     switch error.code {
///     case .unsupportedFileType: print("not an audio file")
///     case .invalidChunk, .invalidFile: print("damaged: \(error)")
///     default: print(error)
///     }
/// }
/// ```
public protocol AudioResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue == OSStatus {
    /// The code whose value is `rawValue`, named or not.
    init(rawValue: OSStatus)
}

extension AudioResultCode {
    /// The value as Apple's tools print it: a four-character code in quotes where it is one
    /// (`'dta?'`), else the decimal number.
    public var description: String { rawValue.fourCharDescription }

    /// Matches an `OSStatus` against a named code, so a `switch` over a status from the C API
    /// can use the code's name: `case AudioFileError.Code.endOfFile:`.
    public static func ~= (code: Self, status: OSStatus) -> Bool { code.rawValue == status }
}

/// An error that carries an ``AudioResultCode``: what Apple's function returns for the failure
/// (``status``) and what went wrong in words.
public protocol AudioResultError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of result code this error carries.
    associatedtype Code: AudioResultCode
    /// Apple's result code for this failure.
    var code: Code { get }
    /// What went wrong, in words.
    var reason: String { get }
}

extension AudioResultError {
    /// The `OSStatus` Apple's function returns for this failure.
    public var status: OSStatus { code.rawValue }

    /// The reason, then the code as Apple's tools print it: `"no such parameter (-66682)"`,
    /// `"bad packet ('bada')"`. Errors that say where they arose add that.
    public var description: String { "\(reason) (\(status.fourCharDescription))" }

    /// Matches an error against a named code, so a `catch` or `switch` can use the code's name:
    /// `case AudioFileError.Code.endOfFile:`.
    public static func ~= (code: Code, error: Self) -> Bool { error.code == code }
}
