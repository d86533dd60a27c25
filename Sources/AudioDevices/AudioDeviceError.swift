/// What went wrong opening, starting or running a device.
public struct AudioDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// No device or backend by that name.
        case notFound
        /// The device exists but could not be opened (busy, no server, permissions).
        case openFailed
        /// The device cannot play or record this format.
        case formatNotSupported
        /// The device was lost while running (server gone, unplugged).
        case disconnected
        /// Reading or writing audio failed.
        case ioFailed
        /// A call that does not fit the device's state (start twice, use after close).
        case invalidState
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, in words (the backend's own message where it has one).
    public var reason: String

    /// An error of kind `code` explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
