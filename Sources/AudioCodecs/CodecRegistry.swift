import AudioCore
import Locking

/// Factories by format ID behind a mutex: what the decoder and encoder registries share. Safe
/// to use from any thread.
final class CodecRegistry<Factory: Sendable>: Sendable {
    private let table: Guarded<[AudioFormatID: Factory]>
    /// What the factories make, for the error when none is registered (`"decoder"`).
    private let kind: String

    init(_ builtIn: [AudioFormatID: Factory], kind: String) {
        table = Guarded(builtIn)
        self.kind = kind
    }

    /// Registers `factory` for `formatID`, replacing any earlier one.
    func register(_ formatID: AudioFormatID, _ factory: Factory) {
        table.withLock { $0[formatID] = factory }
    }

    /// True when a factory is registered for `formatID`.
    func contains(_ formatID: AudioFormatID) -> Bool { table.withLock { $0[formatID] != nil } }

    /// The format IDs with a factory, in ascending numeric order.
    var formatIDs: [AudioFormatID] { table.withLock { $0.keys.sorted { $0.rawValue < $1.rawValue } } }

    /// The factory for `formatID`, or `formatNotSupported` (`'fmt?'`) naming the format.
    func factory(for formatID: AudioFormatID) throws(AudioCodecError) -> Factory {
        guard let factory = table.withLock({ $0[formatID] }) else {
            throw AudioCodecError(.formatNotSupported, CodecRegistrationHint.reason(kind: kind, formatID))
        }
        return factory
    }
}
