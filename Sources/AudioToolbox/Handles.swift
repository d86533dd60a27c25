import Locking

/// The handles the C API gives out for Swift objects (`AudioQueueRef`, `AudioFileID`, …):
/// numbers that are never reused, so that a handle used after its object was disposed of is
/// recognised and answered with an error instead of touching freed memory.
final class HandleTable<Object: AnyObject>: @unchecked Sendable {
    private struct Table {
        var objects: [UInt: Object] = [:]
        var next: UInt
    }

    private let table: Guarded<Table>

    /// `kind` keeps the handles of different tables apart (1…15).
    init(kind: UInt) { table = Guarded(Table(next: (0x5AD0 | kind) << 36)) }

    func insert(_ object: Object) -> UInt {
        table.withLock { t in
            t.next += 16
            t.objects[t.next] = object
            return t.next
        }
    }

    func object(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        return table.withLock { $0.objects[key] }
    }

    @discardableResult
    func remove(_ handle: UInt) -> Object? { table.withLock { $0.objects.removeValue(forKey: handle) } }

    var count: Int { table.withLock { $0.objects.count } }

    /// Every object in the table now.
    var all: [Object] { table.withLock { Array($0.objects.values) } }

    /// Files `object` under a handle another table gave out.
    func insert(_ object: Object, at handle: UInt) { table.withLock { $0.objects[handle] = object } }
}

extension UInt {
    var opaque: OpaquePointer { OpaquePointer(bitPattern: self)! }
}
