public import CAudioToolbox

// Apple's names for the CF objects' functions and constants in Swift (C and C++ get them from
// macros in the CoreFoundation headers). CFStringCreateWithFormat is variadic in C and has no
// Swift form; Swift code builds the text with string interpolation instead.

/// Callbacks for arrays of CF objects (pass as `&kCFTypeArrayCallBacks`).
nonisolated(unsafe) public var kCFTypeArrayCallBacks: CFArrayCallBacks = ATkCFTypeArrayCallBacks
/// Key callbacks for dictionaries of CF objects.
nonisolated(unsafe) public var kCFTypeDictionaryKeyCallBacks: CFDictionaryKeyCallBacks = ATkCFTypeDictionaryKeyCallBacks
/// Key callbacks that copy string keys.
nonisolated(unsafe) public var kCFCopyStringDictionaryKeyCallBacks: CFDictionaryKeyCallBacks = ATkCFCopyStringDictionaryKeyCallBacks
/// Value callbacks for dictionaries of CF objects.
nonisolated(unsafe) public var kCFTypeDictionaryValueCallBacks: CFDictionaryValueCallBacks = ATkCFTypeDictionaryValueCallBacks
/// The true boolean.
public var kCFBooleanTrue: CFBooleanRef { ATkCFBooleanTrue }
/// The false boolean.
public var kCFBooleanFalse: CFBooleanRef { ATkCFBooleanFalse }

/// The type ID of a CF object of this library.
public func CFGetTypeID(_ cf: CFTypeRef?) -> CAudioToolbox.CFTypeID { ATCFGetTypeID(cf) }
/// Whether two CF objects are equal.
public func CFEqual(_ cf1: CFTypeRef?, _ cf2: CFTypeRef?) -> Bool { ATCFEqual(cf1, cf2) }
/// A CF object's hash code.
public func CFHash(_ cf: CFTypeRef?) -> CFHashCode { ATCFHash(cf) }
/// A new string describing a CF object.
public func CFCopyDescription(_ cf: CFTypeRef?) -> CFStringRef? { ATCFCopyDescription(cf) }
/// Writes a string's text or an object's description to stderr.
public func CFShow(_ obj: CFTypeRef?) { ATCFShow(obj) }
/// A CF object's reference count.
public func CFGetRetainCount(_ cf: CFTypeRef) -> CFIndex { ATCFGetRetainCount(cf) }

/// The type ID of strings.
public func CFStringGetTypeID() -> CAudioToolbox.CFTypeID { ATCFStringGetTypeID() }
/// A string's text into a C buffer.
public func CFStringGetCString(_ string: CFStringRef, _ buffer: UnsafeMutablePointer<CChar>, _ size: CFIndex, _ encoding: CFStringEncoding) -> Bool {
    ATCFStringGetCString(string, buffer, size, encoding)
}
/// A string's length in UTF-16 units.
public func CFStringGetLength(_ string: CFStringRef) -> CFIndex { ATCFStringGetLength(string) }
/// Compares two strings.
public func CFStringCompare(_ s1: CFStringRef, _ s2: CFStringRef, _ options: CFStringCompareFlags) -> CFComparisonResult {
    ATCFStringCompare(s1, s2, options)
}
/// A copy of a string.
public func CFStringCreateCopy(_ allocator: CFAllocatorRef?, _ string: CFStringRef) -> CFStringRef? { ATCFStringCreateCopy(allocator, string) }

/// The type ID of numbers.
public func CFNumberGetTypeID() -> CAudioToolbox.CFTypeID { ATCFNumberGetTypeID() }
/// A number holding the value at `valuePtr`.
public func CFNumberCreate(_ allocator: CFAllocatorRef?, _ type: CFNumberType, _ valuePtr: UnsafeRawPointer) -> CFNumberRef? {
    ATCFNumberCreate(allocator, type, valuePtr)
}
/// The number's value converted to `type`; false when the conversion was lossy.
public func CFNumberGetValue(_ number: CFNumberRef, _ type: CFNumberType, _ valuePtr: UnsafeMutableRawPointer) -> Bool {
    ATCFNumberGetValue(number, type, valuePtr)
}
/// The fixed-width type a number holds.
public func CFNumberGetType(_ number: CFNumberRef) -> CFNumberType { ATCFNumberGetType(number) }
/// Whether a number holds a float.
public func CFNumberIsFloatType(_ number: CFNumberRef) -> Bool { ATCFNumberIsFloatType(number) }
/// A boolean's value.
public func CFBooleanGetValue(_ boolean: CFBooleanRef) -> Bool { ATCFBooleanGetValue(boolean) }

/// The type ID of arrays.
public func CFArrayGetTypeID() -> CAudioToolbox.CFTypeID { ATCFArrayGetTypeID() }
/// An immutable array.
public func CFArrayCreate(_ allocator: CFAllocatorRef?, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?, _ count: CFIndex, _ callBacks: UnsafePointer<CFArrayCallBacks>?) -> CFArrayRef? {
    ATCFArrayCreate(allocator, values, count, callBacks)
}
/// The number of values in an array.
public func CFArrayGetCount(_ array: CFArrayRef) -> CFIndex { ATCFArrayGetCount(array) }
/// The value at `index` (nil out of range).
public func CFArrayGetValueAtIndex(_ array: CFArrayRef, _ index: CFIndex) -> UnsafeRawPointer? { ATCFArrayGetValueAtIndex(array, index) }

/// The type ID of dictionaries.
public func CFDictionaryGetTypeID() -> CAudioToolbox.CFTypeID { ATCFDictionaryGetTypeID() }
/// A mutable dictionary.
public func CFDictionaryCreateMutable(_ allocator: CFAllocatorRef?, _ capacity: CFIndex, _ keyCallBacks: UnsafePointer<CFDictionaryKeyCallBacks>?, _ valueCallBacks: UnsafePointer<CFDictionaryValueCallBacks>?) -> CFMutableDictionaryRef? {
    ATCFDictionaryCreateMutable(allocator, capacity, keyCallBacks, valueCallBacks)
}
/// The number of pairs in a dictionary.
public func CFDictionaryGetCount(_ dict: CFDictionaryRef) -> CFIndex { ATCFDictionaryGetCount(dict) }
/// The value for `key`, or nil.
public func CFDictionaryGetValue(_ dict: CFDictionaryRef, _ key: UnsafeRawPointer?) -> UnsafeRawPointer? { ATCFDictionaryGetValue(dict, key) }
/// Adds or replaces the value for `key`.
public func CFDictionarySetValue(_ dict: CFMutableDictionaryRef, _ key: UnsafeRawPointer?, _ value: UnsafeRawPointer?) {
    ATCFDictionarySetValue(dict, key, value)
}
/// Calls `applier` with each pair.
public func CFDictionaryApplyFunction(_ dict: CFDictionaryRef, _ applier: CFDictionaryApplierFunction, _ context: UnsafeMutableRawPointer?) {
    ATCFDictionaryApplyFunction(dict, applier, context)
}
/// The keys and values, into arrays of `CFDictionaryGetCount` elements.
public func CFDictionaryGetKeysAndValues(_ dict: CFDictionaryRef, _ keys: UnsafeMutablePointer<UnsafeRawPointer?>?, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?) {
    ATCFDictionaryGetKeysAndValues(dict, keys, values)
}
