public import CAudioToolbox
import Glibc
import Locking

// The CoreFoundation subset's objects. Every CF object this library makes starts with the
// same two words as the string and boolean constants CFConstants.c defines: a type ID and a
// reference count (-1: immortal). A string holds UTF-8 bytes, a URL its path as a string, a
// run loop a reference to a `RunLoop`; numbers (CFNumber.swift), collections
// (CFCollections.swift) and data (CFData.swift) have files of their own.

/// The type IDs `CFGetTypeID` returns (CFConstants.c writes 1 and 4 into its constants). Inside
/// this module the name hides C's `CFTypeID` (an `unsigned long`, `UInt`).
enum CFTypeID: UInt32 {
    case string = 1
    case url = 2
    case runLoop = 3
    case boolean = 4
    case number = 5
    case array = 6
    case dictionary = 7
    case data = 8
    case runLoopTimer = 9
    case notificationCenter = 10
    case bundle = 11
}

/// The header every CF object here begins with (CFConstants.c's `struct ATConstantString`
/// starts the same way).
struct CFObjectHeader {
    var typeID: UInt32
    var retainCount: Int32
}

/// A string: the header, then a NUL-terminated UTF-8 copy and its length in bytes.
struct CFStringObject {
    var header: CFObjectHeader
    var bytes: UnsafePointer<CChar>
    var length: Int
}

/// A file URL: the header, then its path and its `file://` form as string objects (owned).
struct CFURLObject {
    var header: CFObjectHeader
    var path: UnsafeMutablePointer<CFStringObject>
    var string: UnsafeMutablePointer<CFStringObject>
}

/// A run loop: the header, then the `RunLoop` it stands for (retained).
struct CFRunLoopObject {
    var header: CFObjectHeader
    var loop: Unmanaged<RunLoop>
}

/// An object whose state is a Swift class (a timer, a notification centre, a bundle): the
/// header, then the class instance (retained).
struct CFClassObject {
    var header: CFObjectHeader
    var instance: Unmanaged<AnyObject>
}

enum CFObjects {
    /// A new object of `kind` (reference count 1, or immortal) standing for `instance`.
    static func makeClassObject(_ kind: CFTypeID, _ instance: AnyObject, immortal: Bool = false) -> UnsafeMutableRawPointer {
        let object = UnsafeMutablePointer<CFClassObject>.allocate(capacity: 1)
        object.initialize(to: CFClassObject(
            header: CFObjectHeader(typeID: kind.rawValue, retainCount: immortal ? -1 : 1), instance: .passRetained(instance)))
        return UnsafeMutableRawPointer(object)
    }

    /// The instance a class object of `kind` stands for; nil for NULL or another kind.
    static func instance<T: AnyObject>(_ cf: UnsafeRawPointer?, _ kind: CFTypeID, as type: T.Type) -> T? {
        guard let object = object(cf, kind, as: CFClassObject.self) else { return nil }
        return object.pointee.instance.takeUnretainedValue() as? T
    }

    static func header(_ cf: UnsafeRawPointer) -> UnsafeMutablePointer<CFObjectHeader> {
        UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFObjectHeader.self))
    }

    /// A new string object (reference count 1) holding a copy of `text`.
    static func makeString(_ text: String, immortal: Bool = false) -> UnsafeMutablePointer<CFStringObject> {
        let utf8 = Array(text.utf8)
        let bytes = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        utf8.withUnsafeBufferPointer { src in
            for (i, b) in src.enumerated() { bytes[i] = CChar(bitPattern: b) }
        }
        bytes[utf8.count] = 0
        let object = UnsafeMutablePointer<CFStringObject>.allocate(capacity: 1)
        object.initialize(to: CFStringObject(
            header: CFObjectHeader(typeID: CFTypeID.string.rawValue, retainCount: immortal ? -1 : 1),
            bytes: UnsafePointer(bytes), length: utf8.count))
        return object
    }

    /// The text of a string object, or nil when `cf` is not one.
    static func string(_ cf: UnsafeRawPointer?) -> String? {
        guard let cf, header(cf).pointee.typeID == CFTypeID.string.rawValue else { return nil }
        let s = cf.assumingMemoryBound(to: CFStringObject.self).pointee
        return String(decoding: UnsafeRawBufferPointer(start: s.bytes, count: s.length), as: UTF8.self)
    }

    /// The path of a URL object, or nil when `cf` is not one.
    static func path(_ cf: UnsafeRawPointer?) -> String? {
        guard let cf, header(cf).pointee.typeID == CFTypeID.url.rawValue else { return nil }
        return string(cf.assumingMemoryBound(to: CFURLObject.self).pointee.path)
    }

    static func makeURL(path: String) -> UnsafeMutablePointer<CFURLObject> {
        let object = UnsafeMutablePointer<CFURLObject>.allocate(capacity: 1)
        object.initialize(to: CFURLObject(
            header: CFObjectHeader(typeID: CFTypeID.url.rawValue, retainCount: 1), path: makeString(path),
            string: makeString(fileURLString(path))))
        return object
    }

    /// `file://` and the path, its bytes outside RFC 3986's unreserved set (and `/`)
    /// percent-encoded, as CFURLGetString gives it.
    static func fileURLString(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The kind of a CF object of this library; nil for NULL.
    static func kind(_ cf: UnsafeRawPointer?) -> CFTypeID? {
        guard let cf else { return nil }
        return CFTypeID(rawValue: header(cf).pointee.typeID)
    }

    /// `cf` as an object of `kind`; nil for NULL or another kind.
    static func object<T>(_ cf: UnsafeRawPointer?, _ kind: CFTypeID, as type: T.Type) -> UnsafeMutablePointer<T>? {
        guard let cf, self.kind(cf) == kind else { return nil }
        return UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: T.self))
    }

    static func free(_ cf: UnsafeRawPointer) {
        switch CFTypeID(rawValue: header(cf).pointee.typeID) {
        case .string:
            let s = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFStringObject.self))
            UnsafeMutablePointer(mutating: s.pointee.bytes).deallocate()
            s.deallocate()
        case .url:
            let u = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFURLObject.self))
            free(UnsafeRawPointer(u.pointee.path))
            free(UnsafeRawPointer(u.pointee.string))
            u.deallocate()
        case .runLoop:
            let r = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFRunLoopObject.self))
            r.pointee.loop.release()
            r.deallocate()
        case .number, .data:
            freeValue(cf)
        case .array, .dictionary:
            freeCollection(cf)
        case .runLoopTimer, .notificationCenter, .bundle:
            let o = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFClassObject.self))
            o.pointee.instance.release()
            o.deallocate()
        case .boolean, nil:
            break
        }
    }

    /// Reference counts change under one lock: CF objects are shared between threads.
    static let counts = Guarded(())
}

@_spi(CImplementation) @_cdecl("ATCFRetain")
public func _CFRetain(_ cf: CFTypeRef?) -> CFTypeRef? {
    guard let cf else { return nil }
    CFObjects.counts.withLock { _ in
        let h = CFObjects.header(cf)
        if h.pointee.retainCount > 0 { h.pointee.retainCount += 1 }
    }
    return cf
}

@_spi(CImplementation) @_cdecl("ATCFRelease")
public func _CFRelease(_ cf: CFTypeRef?) {
    guard let cf else { return }
    let last = CFObjects.counts.withLock { _ -> Bool in
        let h = CFObjects.header(cf)
        guard h.pointee.retainCount > 0 else { return false }
        h.pointee.retainCount -= 1
        return h.pointee.retainCount == 0
    }
    if last { CFObjects.free(cf) }
}

@_spi(CImplementation) @_cdecl("ATCFGetRetainCount")
public func _CFGetRetainCount(_ cf: CFTypeRef?) -> CFIndex {
    guard let cf else { return 0 }
    return CFObjects.counts.withLock { _ in
        let count = CFObjects.header(cf).pointee.retainCount
        return count < 0 ? CFIndex.max : CFIndex(count)
    }
}

// MARK: Strings

/// Decodes a C string in one of the supported encodings.
private func decode(_ cString: UnsafePointer<CChar>, _ encoding: CFStringEncoding) -> String? {
    let length = strlen(cString)
    let bytes = UnsafeRawBufferPointer(start: cString, count: length)
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue:
        return String(validating: bytes, as: UTF8.self)
    case CFStringBuiltInEncodings.ASCII.rawValue:
        return bytes.allSatisfy({ $0 < 0x80 }) ? String(decoding: bytes, as: UTF8.self) : nil
    case CFStringBuiltInEncodings.isoLatin1.rawValue, CFStringBuiltInEncodings.macRoman.rawValue:
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
        return nil
    }
}

@_spi(CImplementation) @_cdecl("ATCFStringCreateWithCString")
public func _CFStringCreateWithCString(_ alloc: CFAllocatorRef?, _ cStr: UnsafePointer<CChar>?, _ encoding: CFStringEncoding) -> CFStringRef? {
    guard let cStr, let text = decode(cStr, encoding) else { return nil }
    return CFStringRef(CFObjects.makeString(text))
}

@_spi(CImplementation) @_cdecl("ATCFStringGetCString")
public func _CFStringGetCString(_ string: CFStringRef?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: CFIndex, _ encoding: CFStringEncoding) -> Bool {
    guard let text = CFObjects.string(UnsafeRawPointer(string)), let buffer, size > 0 else { return false }
    var bytes: [UInt8]
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue: bytes = Array(text.utf8)
    case CFStringBuiltInEncodings.ASCII.rawValue:
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        bytes = Array(text.utf8)
    case CFStringBuiltInEncodings.isoLatin1.rawValue, CFStringBuiltInEncodings.macRoman.rawValue:
        guard text.unicodeScalars.allSatisfy({ $0.value < 0x100 }) else { return false }
        bytes = text.unicodeScalars.map { UInt8($0.value) }
    default: return false
    }
    guard bytes.count < size else { return false }
    for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
    buffer[bytes.count] = 0
    return true
}

@_spi(CImplementation) @_cdecl("ATCFStringGetCStringPtr")
public func _CFStringGetCStringPtr(_ string: CFStringRef?, _ encoding: CFStringEncoding) -> UnsafePointer<CChar>? {
    guard let string, encoding == CFStringBuiltInEncodings.UTF8.rawValue,
          CFObjects.header(UnsafeRawPointer(string)).pointee.typeID == CFTypeID.string.rawValue else { return nil }
    return UnsafeRawPointer(string).assumingMemoryBound(to: CFStringObject.self).pointee.bytes
}

@_spi(CImplementation) @_cdecl("ATCFStringGetLength")
public func _CFStringGetLength(_ string: CFStringRef?) -> CFIndex {
    CFIndex(CFObjects.string(UnsafeRawPointer(string))?.utf16.count ?? 0)
}

/// The strings CFSTR has made, by text: each is made once and never freed.
private let constantStrings = Guarded<[String: UnsafeMutablePointer<CFStringObject>]>([:])

@_spi(CImplementation) @_cdecl("ATCFStringMakeConstantString")
public func _CFStringMakeConstantString(_ cStr: UnsafePointer<CChar>?) -> CFStringRef? {
    guard let cStr else { return nil }
    let text = String(decoding: UnsafeRawBufferPointer(start: cStr, count: strlen(cStr)), as: UTF8.self)
    return constantStrings.withLock { strings in
        if let existing = strings[text] { return CFStringRef(existing) }
        let made = CFObjects.makeString(text, immortal: true)
        strings[text] = made
        return CFStringRef(made)
    }
}

// MARK: URLs

@_spi(CImplementation) @_cdecl("ATCFURLCreateFromFileSystemRepresentation")
public func _CFURLCreateFromFileSystemRepresentation(_ alloc: CFAllocatorRef?, _ buffer: UnsafePointer<UInt8>?, _ length: CFIndex, _ isDirectory: UInt8) -> CFURLRef? {
    guard let buffer, length >= 0 else { return nil }
    var bytes = UnsafeBufferPointer(start: buffer, count: length)
    if let nul = bytes.firstIndex(of: 0) { bytes = UnsafeBufferPointer(rebasing: bytes[..<nul]) }
    guard !bytes.isEmpty else { return nil }
    return CFURLRef(CFObjects.makeURL(path: String(decoding: bytes, as: UTF8.self)))
}

@_spi(CImplementation) @_cdecl("ATCFURLCreateWithFileSystemPath")
public func _CFURLCreateWithFileSystemPath(_ alloc: CFAllocatorRef?, _ filePath: CFStringRef?, _ style: CFURLPathStyle, _ isDirectory: UInt8) -> CFURLRef? {
    guard let path = CFObjects.string(UnsafeRawPointer(filePath)), !path.isEmpty,
          style == .cfurlposixPathStyle else { return nil }
    return CFURLRef(CFObjects.makeURL(path: path))
}

@_spi(CImplementation) @_cdecl("ATCFURLGetFileSystemRepresentation")
public func _CFURLGetFileSystemRepresentation(_ url: CFURLRef?, _ resolve: UInt8, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: CFIndex) -> Bool {
    guard let path = CFObjects.path(UnsafeRawPointer(url)), let buffer else { return false }
    let bytes = Array(path.utf8)
    guard bytes.count < size else { return false }
    for (i, b) in bytes.enumerated() { buffer[i] = b }
    buffer[bytes.count] = 0
    return true
}
