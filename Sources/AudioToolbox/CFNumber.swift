public import CAudioToolbox

// CFNumber and CFBoolean. A number keeps its value as Apple's does: in the fixed-width type
// its CFNumberType stands for (kCFNumberIntType as kCFNumberSInt32Type, kCFNumberDoubleType
// as kCFNumberFloat64Type, …), integers as an Int64 and floats as a Double. CFNumberGetValue
// converts as CoreFoundation does: integers saturate, floats truncate toward zero, and the
// result says whether the value came through exactly.

/// A number: the header, its canonical type (kCFNumberSInt8Type…kCFNumberFloat64Type) and value.
struct CFNumberObject {
    var header: CFObjectHeader
    var type: CFIndex
    var integer: Int64
    var float: Double
}

/// A boolean (only CFConstants.c's two immortal ones exist).
struct CFBooleanObject {
    var header: CFObjectHeader
    var value: UInt8
}

enum CFNumbers {
    /// The fixed-width type (1…6) a CFNumberType stands for on an LP64 system; nil for others.
    static func canonical(_ type: CFIndex) -> CFIndex? {
        switch type {
        case 1...6: type
        case 7: 1          // char
        case 8: 2          // short
        case 9: 3          // int
        case 10, 11, 14, 15: 4  // long, long long, CFIndex, NSInteger
        case 12: 5         // float
        case 13, 16: 6     // double, CGFloat
        default: nil
        }
    }

    static func isFloat(_ canonical: CFIndex) -> Bool { canonical >= 5 }

    static func byteSize(_ canonical: CFIndex) -> Int { [0, 1, 2, 4, 8, 4, 8][Int(canonical)] }

    /// The number, or nil when `cf` is not one.
    static func number(_ cf: UnsafeRawPointer?) -> CFNumberObject? {
        CFObjects.object(cf, .number, as: CFNumberObject.self)?.pointee
    }

    /// A new number (reference count 1).
    static func make(type: CFIndex, integer: Int64, float: Double) -> UnsafeMutablePointer<CFNumberObject> {
        let object = UnsafeMutablePointer<CFNumberObject>.allocate(capacity: 1)
        object.initialize(to: CFNumberObject(
            header: CFObjectHeader(typeID: CFTypeID.number.rawValue, retainCount: 1), type: type, integer: integer, float: float))
        return object
    }

    /// Stores an integer as `canonical`, saturating; true when it fit.
    static func store(_ value: Int64, _ canonical: CFIndex, _ out: UnsafeMutableRawPointer) -> Bool {
        switch canonical {
        case 1: out.storeBytes(of: Int8(clamping: value), as: Int8.self); return Int8(exactly: value) != nil
        case 2: out.storeBytes(of: Int16(clamping: value), as: Int16.self); return Int16(exactly: value) != nil
        case 3: out.storeBytes(of: Int32(clamping: value), as: Int32.self); return Int32(exactly: value) != nil
        case 4: out.storeBytes(of: value, as: Int64.self); return true
        case 5:
            let f = Float(value)
            out.storeBytes(of: f, as: Float.self)
            return Int64(exactly: f) == value
        default:
            let d = Double(value)
            out.storeBytes(of: d, as: Double.self)
            return Int64(exactly: d) == value
        }
    }

    /// Stores a float as `canonical`: integers truncate toward zero and saturate; true when
    /// the value came through exactly.
    static func store(_ value: Double, _ canonical: CFIndex, _ out: UnsafeMutableRawPointer) -> Bool {
        switch canonical {
        case 5:
            if !value.isFinite { out.storeBytes(of: Float(value), as: Float.self); return true }
            let limit = Double(Float.greatestFiniteMagnitude)
            let f = Float(min(max(value, -limit), limit))
            out.storeBytes(of: f, as: Float.self)
            return Double(f) == value
        case 6:
            out.storeBytes(of: value, as: Double.self)
            return true
        default:
            guard !value.isNaN else { _ = store(Int64(0), canonical, out); return false }
            let truncated = value.rounded(.towardZero)
            let integer: Int64 = truncated >= 9.223372036854775807e18 ? .max : truncated <= -9.223372036854775808e18 ? .min : Int64(truncated)
            return store(integer, canonical, out) && Double(integer) == value
        }
    }

    /// The value as a Double (for comparing numbers of different kinds).
    static func double(_ n: CFNumberObject) -> Double { isFloat(n.type) ? n.float : Double(n.integer) }

    static func compare(_ a: CFNumberObject, _ b: CFNumberObject) -> CFComparisonResult {
        if !isFloat(a.type) && !isFloat(b.type) {
            return a.integer < b.integer ? CFComparisonResult.compareLessThan : a.integer > b.integer ? CFComparisonResult.compareGreaterThan : CFComparisonResult.compareEqualTo
        }
        let (x, y) = (double(a), double(b))
        // NaN sorts after everything, as CoreFoundation's comparison has it.
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? CFComparisonResult.compareEqualTo : x.isNaN ? CFComparisonResult.compareGreaterThan : CFComparisonResult.compareLessThan }
        return x < y ? CFComparisonResult.compareLessThan : x > y ? CFComparisonResult.compareGreaterThan : CFComparisonResult.compareEqualTo
    }

    static func hash(_ n: CFNumberObject) -> UInt {
        if !isFloat(n.type) { return UInt(bitPattern: Int(n.integer)) }
        if let i = Int64(exactly: n.float) { return UInt(bitPattern: Int(i)) }
        return UInt(truncatingIfNeeded: n.float.bitPattern)
    }

    static let typeNames = ["", "kCFNumberSInt8Type", "kCFNumberSInt16Type", "kCFNumberSInt32Type", "kCFNumberSInt64Type",
                            "kCFNumberFloat32Type", "kCFNumberFloat64Type"]

    /// Apple's `{value = +44100, type = kCFNumberSInt32Type}` (floats with 10 digits for
    /// Float32, 20 for Float64, as `%+.*f` prints them).
    static func describe(_ n: CFNumberObject) -> String {
        let value: String
        if isFloat(n.type) {
            let d = n.float
            if d.isNaN { value = "nan" }
            else if d.isInfinite { value = d > 0 ? "+infinity" : "-infinity" }
            else if d == 0 { value = d.sign == .minus ? "-0.0" : "+0.0" }
            else { value = cFormat("%+.*f", Int32(n.type == 5 ? 10 : 20), d) }
        } else {
            value = n.integer < 0 ? "\(n.integer)" : "+\(n.integer)"
        }
        return "{value = \(value), type = \(typeNames[Int(n.type)])}"
    }
}

@_spi(CImplementation) @_cdecl("ATCFBooleanGetTypeID")
public func _CFBooleanGetTypeID() -> UInt { UInt(CFTypeID.boolean.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFBooleanGetValue")
public func _CFBooleanGetValue(_ boolean: CFBooleanRef?) -> Bool {
    (CFObjects.object(UnsafeRawPointer(boolean), .boolean, as: CFBooleanObject.self)?.pointee.value ?? 0) != 0
}

@_spi(CImplementation) @_cdecl("ATCFNumberGetTypeID")
public func _CFNumberGetTypeID() -> UInt { UInt(CFTypeID.number.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFNumberCreate")
public func _CFNumberCreate(_ allocator: CFAllocatorRef?, _ theType: CFNumberType, _ valuePtr: UnsafeRawPointer?) -> CFNumberRef? {
    guard let valuePtr, let canonical = CFNumbers.canonical(theType.rawValue) else { return nil }
    let made: UnsafeMutablePointer<CFNumberObject>
    switch canonical {
    case 1: made = CFNumbers.make(type: 1, integer: Int64(valuePtr.loadUnaligned(as: Int8.self)), float: 0)
    case 2: made = CFNumbers.make(type: 2, integer: Int64(valuePtr.loadUnaligned(as: Int16.self)), float: 0)
    case 3: made = CFNumbers.make(type: 3, integer: Int64(valuePtr.loadUnaligned(as: Int32.self)), float: 0)
    case 4: made = CFNumbers.make(type: 4, integer: valuePtr.loadUnaligned(as: Int64.self), float: 0)
    case 5: made = CFNumbers.make(type: 5, integer: 0, float: Double(valuePtr.loadUnaligned(as: Float.self)))
    default: made = CFNumbers.make(type: 6, integer: 0, float: valuePtr.loadUnaligned(as: Double.self))
    }
    return CFNumberRef(made)
}

@_spi(CImplementation) @_cdecl("ATCFNumberGetType")
public func _CFNumberGetType(_ number: CFNumberRef?) -> CFNumberType {
    let raw = CFNumbers.number(UnsafeRawPointer(number))?.type ?? 0
    // 0 (no type) for what is not a number, as the C enumeration can carry.
    return CFNumberType(rawValue: raw) ?? unsafeBitCast(raw, to: CFNumberType.self)
}

@_spi(CImplementation) @_cdecl("ATCFNumberGetByteSize")
public func _CFNumberGetByteSize(_ number: CFNumberRef?) -> CFIndex {
    guard let n = CFNumbers.number(UnsafeRawPointer(number)) else { return 0 }
    return CFNumbers.byteSize(n.type)
}

@_spi(CImplementation) @_cdecl("ATCFNumberIsFloatType")
public func _CFNumberIsFloatType(_ number: CFNumberRef?) -> Bool {
    guard let n = CFNumbers.number(UnsafeRawPointer(number)) else { return false }
    return CFNumbers.isFloat(n.type)
}

@_spi(CImplementation) @_cdecl("ATCFNumberGetValue")
public func _CFNumberGetValue(_ number: CFNumberRef?, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer?) -> Bool {
    guard let n = CFNumbers.number(UnsafeRawPointer(number)), let valuePtr,
          let canonical = CFNumbers.canonical(theType.rawValue) else { return false }
    return CFNumbers.isFloat(n.type) ? CFNumbers.store(n.float, canonical, valuePtr) : CFNumbers.store(n.integer, canonical, valuePtr)
}

@_spi(CImplementation) @_cdecl("ATCFNumberCompare")
public func _CFNumberCompare(_ number: CFNumberRef?, _ otherNumber: CFNumberRef?, _ context: UnsafeMutableRawPointer?) -> CFComparisonResult {
    guard let a = CFNumbers.number(UnsafeRawPointer(number)), let b = CFNumbers.number(UnsafeRawPointer(otherNumber)) else {
        return CFComparisonResult.compareEqualTo
    }
    return CFNumbers.compare(a, b)
}
