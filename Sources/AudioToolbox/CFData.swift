public import CAudioToolbox

// CFData: the header, then a copy of the bytes and their count.

struct CFDataObject {
    var header: CFObjectHeader
    var bytes: UnsafeMutablePointer<UInt8>
    var length: Int
}

extension CFObjects {
    static func data(_ cf: UnsafeRawPointer?) -> CFDataObject? {
        object(cf, .data, as: CFDataObject.self)?.pointee
    }

    static func makeData(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutablePointer<CFDataObject> {
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
        let object = UnsafeMutablePointer<CFDataObject>.allocate(capacity: 1)
        object.initialize(to: CFDataObject(
            header: CFObjectHeader(typeID: CFTypeID.data.rawValue, retainCount: 1), bytes: copy, length: bytes.count))
        return object
    }

    /// Frees a number or a data object.
    static func freeValue(_ cf: UnsafeRawPointer) {
        if kind(cf) == .data {
            let d = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFDataObject.self))
            d.pointee.bytes.deallocate()
            d.deallocate()
        } else {
            UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFNumberObject.self)).deallocate()
        }
    }
}

@_spi(CImplementation) @_cdecl("ATCFDataGetTypeID")
public func _CFDataGetTypeID() -> UInt { UInt(CFTypeID.data.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFDataCreate")
public func _CFDataCreate(_ allocator: CFAllocatorRef?, _ bytes: UnsafePointer<UInt8>?, _ length: CFIndex) -> CFDataRef? {
    guard length >= 0, bytes != nil || length == 0 else { return nil }
    return CFDataRef(CFObjects.makeData(UnsafeRawBufferPointer(start: bytes, count: length)))
}

@_spi(CImplementation) @_cdecl("ATCFDataGetLength")
public func _CFDataGetLength(_ theData: CFDataRef?) -> CFIndex {
    CFObjects.data(UnsafeRawPointer(theData))?.length ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFDataGetBytePtr")
public func _CFDataGetBytePtr(_ theData: CFDataRef?) -> UnsafePointer<UInt8>? {
    CFObjects.data(UnsafeRawPointer(theData)).map { UnsafePointer($0.bytes) }
}

@_spi(CImplementation) @_cdecl("ATCFDataGetBytes")
public func _CFDataGetBytes(_ theData: CFDataRef?, _ range: CFRange, _ buffer: UnsafeMutablePointer<UInt8>?) {
    guard let d = CFObjects.data(UnsafeRawPointer(theData)), let buffer, range.location >= 0, range.length >= 0,
          range.location <= d.length, range.length <= d.length - range.location else { return }
    buffer.update(from: d.bytes + range.location, count: range.length)
}
