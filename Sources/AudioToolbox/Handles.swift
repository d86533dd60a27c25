import Glibc

/// The handles the C API gives out for Swift objects (`AudioQueueRef`, `AudioFileID`, …):
/// numbers that are never reused, so that a handle used after its object was disposed of is
/// recognised and answered with an error instead of touching freed memory.
final class HandleTable<Object: AnyObject>: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var objects: [UInt: Object] = [:]
    private var next: UInt

    /// `kind` keeps the handles of different tables apart (1…15).
    init(kind: UInt) { next = (0x5AD0 | kind) << 36 }

    func insert(_ object: Object) -> UInt {
        lock.withLock {
            next += 16
            objects[next] = object
            return next
        }
    }

    func object(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        return lock.withLock { objects[key] }
    }

    @discardableResult
    func remove(_ handle: UInt) -> Object? { lock.withLock { objects.removeValue(forKey: handle) } }

    var count: Int { lock.withLock { objects.count } }

    /// Files `object` under a handle another table gave out.
    func insert(_ object: Object, at handle: UInt) { lock.withLock { objects[handle] = object } }
}

extension UInt {
    var opaque: OpaquePointer { OpaquePointer(bitPattern: self)! }
}
