public import CAudioToolbox

// The CFString and CFURL functions beyond creation and C-string access (CFObjects.swift).

/// `text` compared by `flags` (case-insensitive; digit runs as numbers).
func compareStrings(_ a: String, _ b: String, _ flags: CFOptionFlags) -> CFComparisonResult {
    let insensitive = flags & CFStringCompareFlags.compareCaseInsensitive.rawValue != 0
    let numerically = flags & CFStringCompareFlags.compareNumerically.rawValue != 0
    let x = Array((insensitive ? a.lowercased() : a).unicodeScalars)
    let y = Array((insensitive ? b.lowercased() : b).unicodeScalars)
    func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
    var (i, j) = (0, 0)
    while i < x.count && j < y.count {
        if numerically && isDigit(x[i]) && isDigit(y[j]) {
            var (ei, ej) = (i, j)
            while ei < x.count && isDigit(x[ei]) { ei += 1 }
            while ej < y.count && isDigit(y[ej]) { ej += 1 }
            let dx = String(String.UnicodeScalarView(x[i..<ei])).drop { $0 == "0" }
            let dy = String(String.UnicodeScalarView(y[j..<ej])).drop { $0 == "0" }
            if dx.count != dy.count { return dx.count < dy.count ? CFComparisonResult.compareLessThan : CFComparisonResult.compareGreaterThan }
            if dx != dy { return dx < dy ? CFComparisonResult.compareLessThan : CFComparisonResult.compareGreaterThan }
            (i, j) = (ei, ej)
            continue
        }
        if x[i] != y[j] { return x[i].value < y[j].value ? CFComparisonResult.compareLessThan : CFComparisonResult.compareGreaterThan }
        i += 1
        j += 1
    }
    let (rx, ry) = (x.count - i, y.count - j)
    return rx == ry ? CFComparisonResult.compareEqualTo : rx < ry ? CFComparisonResult.compareLessThan : CFComparisonResult.compareGreaterThan
}

@_spi(CImplementation) @_cdecl("ATCFStringGetTypeID")
public func _CFStringGetTypeID() -> UInt { UInt(CFTypeID.string.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFStringCompare")
public func _CFStringCompare(_ theString1: CFStringRef?, _ theString2: CFStringRef?, _ compareOptions: CFStringCompareFlags) -> CFComparisonResult {
    guard let a = CFObjects.string(UnsafeRawPointer(theString1)), let b = CFObjects.string(UnsafeRawPointer(theString2)) else {
        return CFComparisonResult.compareEqualTo
    }
    return compareStrings(a, b, compareOptions.rawValue)
}

@_spi(CImplementation) @_cdecl("ATCFStringCreateCopy")
public func _CFStringCreateCopy(_ alloc: CFAllocatorRef?, _ theString: CFStringRef?) -> CFStringRef? {
    guard let text = CFObjects.string(UnsafeRawPointer(theString)) else { return nil }
    return CFStringRef(CFObjects.makeString(text))
}

@_spi(CImplementation) @_cdecl("ATCFStringGetMaximumSizeForEncoding")
public func _CFStringGetMaximumSizeForEncoding(_ length: CFIndex, _ encoding: CFStringEncoding) -> CFIndex {
    guard length >= 0 else { return kCFNotFound }
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue:
        let (size, overflow) = length.multipliedReportingOverflow(by: 3)
        return overflow ? kCFNotFound : size
    case CFStringBuiltInEncodings.ASCII.rawValue, CFStringBuiltInEncodings.isoLatin1.rawValue,
         CFStringBuiltInEncodings.macRoman.rawValue:
        return length
    default:
        return kCFNotFound
    }
}

@_spi(CImplementation) @_cdecl("ATCFStringGetCharacterAtIndex")
public func _CFStringGetCharacterAtIndex(_ theString: CFStringRef?, _ idx: CFIndex) -> UInt16 {
    guard let text = CFObjects.string(UnsafeRawPointer(theString)), idx >= 0 else { return 0 }
    let units = text.utf16
    guard idx < units.count else { return 0 }
    return units[units.index(units.startIndex, offsetBy: idx)]
}

/// CFStringCreateWithFormat's `%@`: a string's text, or another object's description.
@_spi(CImplementation) @_cdecl("__ATCFFormatObject")
public func _ATCFFormatObject(_ cf: CFTypeRef?) -> CFStringRef? {
    guard let cf else { return CFStringRef(CFObjects.makeString("(null)")) }
    if let text = CFObjects.string(cf) { return CFStringRef(CFObjects.makeString(text)) }
    return CFStringRef(CFObjects.makeString(CFDescriptions.describe(cf)))
}

@_spi(CImplementation) @_cdecl("ATCFURLGetTypeID")
public func _CFURLGetTypeID() -> UInt { UInt(CFTypeID.url.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFURLCopyFileSystemPath")
public func _CFURLCopyFileSystemPath(_ anURL: CFURLRef?, _ pathStyle: CFURLPathStyle) -> CFStringRef? {
    guard let path = CFObjects.path(UnsafeRawPointer(anURL)), pathStyle == .cfurlposixPathStyle else { return nil }
    // Without its trailing slash, as CoreFoundation gives a directory's path.
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    return CFStringRef(CFObjects.makeString(trimmed))
}

@_spi(CImplementation) @_cdecl("ATCFURLGetString")
public func _CFURLGetString(_ anURL: CFURLRef?) -> CFStringRef? {
    guard let url = CFObjects.object(UnsafeRawPointer(anURL), .url, as: CFURLObject.self) else { return nil }
    return CFStringRef(url.pointee.string)
}

@_spi(CImplementation) @_cdecl("ATCFURLCopyLastPathComponent")
public func _CFURLCopyLastPathComponent(_ url: CFURLRef?) -> CFStringRef? {
    guard let path = CFObjects.path(UnsafeRawPointer(url)) else { return nil }
    let last = path.split(separator: "/").last.map(String.init) ?? (path.hasPrefix("/") ? "/" : "")
    return CFStringRef(CFObjects.makeString(last))
}
