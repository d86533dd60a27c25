public import CAudioToolbox
import Glibc

// What every CF object answers: CFGetTypeID, CFEqual, CFHash, CFCopyDescription and CFShow,
// with descriptions in the form CoreFoundation gives them (`<CFNumber 0x… [0x…]>{value = …}`).
// The bracketed allocator is 0x0: kCFAllocatorDefault is NULL here.

/// printf-style formatting of C values.
func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 512)
        let n = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard n >= 0 else { return "" }
        let end = min(n, buffer.count - 1)
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

enum CFDescriptions {
    static func address(_ p: UnsafeRawPointer?) -> String { "0x" + String(UInt(bitPattern: p), radix: 16) }

    static func prefix(_ name: String, _ cf: UnsafeRawPointer) -> String { "<\(name) \(address(cf)) [0x0]>" }

    /// The description CFCopyDescription gives `cf`.
    static func describe(_ cf: UnsafeRawPointer) -> String {
        switch CFObjects.kind(cf) {
        case .string: return prefix("CFString", cf) + "{contents = \"\(CFObjects.string(cf) ?? "")\"}"
        case .url:
            let url = cf.assumingMemoryBound(to: CFURLObject.self).pointee
            return prefix("CFURL", cf) + "{string = \(CFObjects.string(url.string) ?? ""), encoding = 134217984, base = (null)}"
        case .runLoop: return prefix("CFRunLoop", cf) + "{}"
        case .runLoopTimer: return prefix("CFRunLoopTimer", cf) + (CFObjects.instance(cf, .runLoopTimer, as: RunLoopTimer.self)?.summary ?? "{}")
        case .notificationCenter: return prefix("CFNotificationCenter", cf) + "{}"
        case .bundle: return prefix("CFBundle", cf) + "{path = \(CFObjects.instance(cf, .bundle, as: MainBundle.self)?.directory ?? "")}"
        case .boolean: return prefix("CFBoolean", cf) + "{value = \(_CFBooleanGetValue(CFBooleanRef(cf)) ? "true" : "false")}"
        case .number: return prefix("CFNumber", cf) + (CFNumbers.number(cf).map(CFNumbers.describe) ?? "")
        case .data:
            guard let d = CFObjects.data(cf) else { return "" }
            let bytes = Array(UnsafeBufferPointer(start: d.bytes, count: d.length))
            let hex: (ArraySlice<UInt8>) -> String = { $0.map { cFormat("%02x", UInt32($0)) }.joined() }
            let shown = d.length <= 24 ? hex(bytes[...]) : hex(bytes[..<16]) + " ... " + hex(bytes[(d.length - 8)...])
            return prefix("CFData", cf) + "{length = \(d.length), capacity = \(d.length), bytes = 0x\(shown)}"
        case .array:
            guard let a = CFObjects.array(cf) else { return "" }
            var out = prefix("CFArray", cf) + "{type = \(a.mutable ? "mutable-small" : "immutable"), count = \(a.values.count), values = (\(a.values.isEmpty ? "" : "\n")"
            for (i, value) in a.values.enumerated() { out += "\t\(i) : \(element(value, a.callbacks?.copyDescription))\n" }
            return out + ")}"
        case .dictionary:
            guard let d = CFObjects.dictionary(cf) else { return "" }
            var out = prefix("CFBasicHash", cf) + "{type = \(d.mutable ? "mutable" : "immutable") dict, count = \(d.keys.count),\nentries =>\n"
            for i in d.keys.indices {
                out += "\t\(i) : \(element(d.keys[i], d.keyCallbacks?.copyDescription)) = \(element(d.values[i], d.valueCallbacks?.copyDescription))\n"
            }
            return out + "}\n"
        case nil: return "<\(address(cf))>"
        }
    }

    /// A collection's element through its copyDescription callback (`%@` of the result), else
    /// its address.
    static func element(_ value: UnsafeRawPointer?, _ copy: (@convention(c) (UnsafeRawPointer?) -> CFStringRef?)?) -> String {
        guard let copy, let made = copy(value) else { return "<\(address(value))>" }
        defer { _CFRelease(UnsafeRawPointer(made)) }
        return CFObjects.string(UnsafeRawPointer(made)) ?? ""
    }

    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        if a == b { return true }
        guard let kind = CFObjects.kind(a), kind == CFObjects.kind(b) else { return false }
        switch kind {
        case .string: return CFObjects.string(a) == CFObjects.string(b)
        case .url: return CFObjects.path(a) == CFObjects.path(b)
        case .number:
            guard let x = CFNumbers.number(a), let y = CFNumbers.number(b) else { return false }
            return CFNumbers.compare(x, y) == CFComparisonResult.compareEqualTo
        case .data:
            guard let x = CFObjects.data(a), let y = CFObjects.data(b), x.length == y.length else { return false }
            return memcmp(x.bytes, y.bytes, x.length) == 0
        case .array:
            guard let x = CFObjects.array(a), let y = CFObjects.array(b), x.values.count == y.values.count else { return false }
            return zip(x.values, y.values).allSatisfy { x.equal($0, $1) }
        case .dictionary:
            guard let x = CFObjects.dictionary(a), let y = CFObjects.dictionary(b), x.keys.count == y.keys.count else { return false }
            return x.keys.indices.allSatisfy { i in
                guard let j = y.index(of: x.keys[i]) else { return false }
                return x.values[i] == y.values[j] || (x.valueCallbacks?.equal?(x.values[i], y.values[j]) ?? false)
            }
        case .boolean, .runLoop, .runLoopTimer, .notificationCenter, .bundle: return false
        }
    }

    static func hash(_ cf: UnsafeRawPointer) -> UInt {
        switch CFObjects.kind(cf) {
        case .string: return UInt(bitPattern: fnv(Array((CFObjects.string(cf) ?? "").utf8)))
        case .url: return UInt(bitPattern: fnv(Array((CFObjects.path(cf) ?? "").utf8)))
        case .number: return CFNumbers.number(cf).map(CFNumbers.hash) ?? 0
        case .data: return CFObjects.data(cf).map { UInt(bitPattern: fnv(Array(UnsafeBufferPointer(start: $0.bytes, count: $0.length)))) } ?? 0
        case .array: return UInt(CFObjects.array(cf)?.values.count ?? 0)
        case .dictionary: return UInt(CFObjects.dictionary(cf)?.keys.count ?? 0)
        case .boolean, .runLoop, .runLoopTimer, .notificationCenter, .bundle, nil: return UInt(bitPattern: cf)
        }
    }

    /// FNV-1a over bytes.
    static func fnv(_ bytes: [UInt8]) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h)
    }
}

@_spi(CImplementation) @_cdecl("ATCFGetTypeID")
public func _CFGetTypeID(_ cf: CFTypeRef?) -> UInt { UInt(CFObjects.kind(cf)?.rawValue ?? 0) }

@_spi(CImplementation) @_cdecl("ATCFEqual")
public func _CFEqual(_ cf1: CFTypeRef?, _ cf2: CFTypeRef?) -> Bool {
    guard let cf1, let cf2 else { return cf1 == nil && cf2 == nil }
    return CFDescriptions.equal(cf1, cf2)
}

@_spi(CImplementation) @_cdecl("ATCFHash")
public func _CFHash(_ cf: CFTypeRef?) -> UInt {
    guard let cf else { return 0 }
    return CFDescriptions.hash(cf)
}

@_spi(CImplementation) @_cdecl("ATCFCopyDescription")
public func _CFCopyDescription(_ cf: CFTypeRef?) -> CFStringRef? {
    guard let cf else { return nil }
    return CFStringRef(CFObjects.makeString(CFDescriptions.describe(cf)))
}

@_spi(CImplementation) @_cdecl("ATCFShow")
public func _CFShow(_ obj: CFTypeRef?) {
    var text: String
    if let obj, let s = CFObjects.string(obj) {
        // A string's text, characters outside ASCII as \uXXXX, as CFShow writes them.
        text = ""
        for unit in s.utf16 {
            if unit < 0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(unit))) } else { text += cFormat("\\u%04x", UInt32(unit)) }
        }
    } else if let obj {
        text = CFDescriptions.describe(obj)
    } else {
        text = "(null)"
    }
    writeLineToStandardError(text)
}
