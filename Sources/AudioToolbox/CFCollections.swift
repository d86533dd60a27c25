public import CAudioToolbox

// CFArray and CFDictionary: the header, then a reference to a Swift class holding the values
// and a copy of the callbacks they were made with. The callbacks retain a value as it goes in
// and release it as it goes out (or when the collection is freed); without callbacks the
// pointers are kept as they are and compared by identity. Dictionary lookups compare the
// key's hash, then the key callbacks' `equal`, over the keys in insertion order (the small
// dictionaries audio code makes need no hash table).

final class CFArrayStorage {
    var values: [UnsafeRawPointer?] = []
    let callbacks: CFArrayCallBacks?
    let mutable: Bool
    init(callbacks: CFArrayCallBacks?, mutable: Bool) { (self.callbacks, self.mutable) = (callbacks, mutable) }

    func append(_ value: UnsafeRawPointer?) { values.append(callbacks?.retain?(nil, value) ?? value) }
    func equal(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?) -> Bool {
        if a == b { return true }
        return callbacks?.equal?(a, b) ?? false
    }
    deinit { for value in values { callbacks?.release?(nil, value) } }
}

final class CFDictionaryStorage {
    var keys: [UnsafeRawPointer?] = []
    var values: [UnsafeRawPointer?] = []
    var hashes: [UInt] = []
    let keyCallbacks: CFDictionaryKeyCallBacks?
    let valueCallbacks: CFDictionaryValueCallBacks?
    let mutable: Bool
    init(keyCallbacks: CFDictionaryKeyCallBacks?, valueCallbacks: CFDictionaryValueCallBacks?, mutable: Bool) {
        (self.keyCallbacks, self.valueCallbacks, self.mutable) = (keyCallbacks, valueCallbacks, mutable)
    }

    func hash(_ key: UnsafeRawPointer?) -> UInt {
        if let h = keyCallbacks?.hash { return h(key) }
        return UInt(bitPattern: key)
    }

    func index(of key: UnsafeRawPointer?) -> Int? {
        let h = hash(key)
        for i in keys.indices where hashes[i] == h {
            if keys[i] == key || (keyCallbacks?.equal?(keys[i], key) ?? false) { return i }
        }
        return nil
    }

    func retainValue(_ value: UnsafeRawPointer?) -> UnsafeRawPointer? { valueCallbacks?.retain?(nil, value) ?? value }
    func releaseValue(_ value: UnsafeRawPointer?) { valueCallbacks?.release?(nil, value) }

    /// Adds the pair; replaces the value of a key already there when `replace`.
    func set(_ key: UnsafeRawPointer?, _ value: UnsafeRawPointer?, add: Bool, replace: Bool) {
        if let i = index(of: key) {
            guard replace else { return }
            let old = values[i]
            values[i] = retainValue(value)
            releaseValue(old)
        } else if add {
            keys.append(keyCallbacks?.retain?(nil, key) ?? key)
            values.append(retainValue(value))
            hashes.append(hash(key))
        }
    }

    func remove(at i: Int) {
        let (key, value) = (keys.remove(at: i), values.remove(at: i))
        hashes.remove(at: i)
        keyCallbacks?.release?(nil, key)
        releaseValue(value)
    }

    deinit { while !keys.isEmpty { remove(at: keys.count - 1) } }
}

/// An array or dictionary object: the header and its storage (retained).
struct CFCollectionObject<Storage: AnyObject> {
    var header: CFObjectHeader
    var storage: Unmanaged<Storage>
}

extension CFObjects {
    static func makeCollection<S: AnyObject>(_ kind: CFTypeID, _ storage: S) -> UnsafeMutablePointer<CFCollectionObject<S>> {
        let object = UnsafeMutablePointer<CFCollectionObject<S>>.allocate(capacity: 1)
        object.initialize(to: CFCollectionObject(
            header: CFObjectHeader(typeID: kind.rawValue, retainCount: 1), storage: .passRetained(storage)))
        return object
    }

    static func array(_ cf: UnsafeRawPointer?) -> CFArrayStorage? {
        object(cf, .array, as: CFCollectionObject<CFArrayStorage>.self)?.pointee.storage.takeUnretainedValue()
    }

    static func dictionary(_ cf: UnsafeRawPointer?) -> CFDictionaryStorage? {
        object(cf, .dictionary, as: CFCollectionObject<CFDictionaryStorage>.self)?.pointee.storage.takeUnretainedValue()
    }

    /// Frees an array or dictionary; its storage releases the values.
    static func freeCollection(_ cf: UnsafeRawPointer) {
        if kind(cf) == .array {
            let o = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFCollectionObject<CFArrayStorage>.self))
            o.pointee.storage.release()
            o.deallocate()
        } else {
            let o = UnsafeMutablePointer(mutating: cf.assumingMemoryBound(to: CFCollectionObject<CFDictionaryStorage>.self))
            o.pointee.storage.release()
            o.deallocate()
        }
    }
}

/// The indices of `range` when it lies within `count` elements.
private func indices(_ range: CFRange, _ count: Int) -> Range<Int>? {
    guard range.location >= 0, range.length >= 0, range.location <= count, range.length <= count - range.location else { return nil }
    return range.location..<(range.location + range.length)
}

// MARK: Arrays

@_spi(CImplementation) @_cdecl("ATCFArrayGetTypeID")
public func _CFArrayGetTypeID() -> UInt { UInt(CFTypeID.array.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFArrayCreate")
public func _CFArrayCreate(_ allocator: CFAllocatorRef?, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?, _ numValues: CFIndex, _ callBacks: UnsafePointer<CFArrayCallBacks>?) -> CFArrayRef? {
    guard numValues >= 0, values != nil || numValues == 0 else { return nil }
    let storage = CFArrayStorage(callbacks: callBacks?.pointee, mutable: false)
    for i in 0..<numValues { storage.append(values?[i]) }
    return CFArrayRef(CFObjects.makeCollection(.array, storage))
}

@_spi(CImplementation) @_cdecl("ATCFArrayCreateMutable")
public func _CFArrayCreateMutable(_ allocator: CFAllocatorRef?, _ capacity: CFIndex, _ callBacks: UnsafePointer<CFArrayCallBacks>?) -> CFMutableArrayRef? {
    guard capacity >= 0 else { return nil }
    return CFMutableArrayRef(CFObjects.makeCollection(.array, CFArrayStorage(callbacks: callBacks?.pointee, mutable: true)))
}

@_spi(CImplementation) @_cdecl("ATCFArrayAppendValue")
public func _CFArrayAppendValue(_ theArray: CFMutableArrayRef?, _ value: UnsafeRawPointer?) {
    guard let a = CFObjects.array(UnsafeRawPointer(theArray)), a.mutable else { return }
    a.append(value)
}

@_spi(CImplementation) @_cdecl("ATCFArrayGetCount")
public func _CFArrayGetCount(_ theArray: CFArrayRef?) -> CFIndex {
    CFObjects.array(UnsafeRawPointer(theArray))?.values.count ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFArrayGetValueAtIndex")
public func _CFArrayGetValueAtIndex(_ theArray: CFArrayRef?, _ idx: CFIndex) -> UnsafeRawPointer? {
    guard let a = CFObjects.array(UnsafeRawPointer(theArray)), a.values.indices.contains(idx) else { return nil }
    return a.values[idx]
}

@_spi(CImplementation) @_cdecl("ATCFArrayGetValues")
public func _CFArrayGetValues(_ theArray: CFArrayRef?, _ range: CFRange, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?) {
    guard let a = CFObjects.array(UnsafeRawPointer(theArray)), let values, let r = indices(range, a.values.count) else { return }
    for (n, i) in r.enumerated() { values[n] = a.values[i] }
}

@_spi(CImplementation) @_cdecl("ATCFArrayContainsValue")
public func _CFArrayContainsValue(_ theArray: CFArrayRef?, _ range: CFRange, _ value: UnsafeRawPointer?) -> Bool {
    guard let a = CFObjects.array(UnsafeRawPointer(theArray)), let r = indices(range, a.values.count) else { return false }
    return r.contains { a.equal(a.values[$0], value) }
}

@_spi(CImplementation) @_cdecl("ATCFArrayApplyFunction")
public func _CFArrayApplyFunction(_ theArray: CFArrayRef?, _ range: CFRange, _ applier: CFArrayApplierFunction?, _ context: UnsafeMutableRawPointer?) {
    guard let a = CFObjects.array(UnsafeRawPointer(theArray)), let applier, let r = indices(range, a.values.count) else { return }
    let values = Array(a.values[r])
    for value in values { applier(value, context) }
}

// MARK: Dictionaries

@_spi(CImplementation) @_cdecl("ATCFDictionaryGetTypeID")
public func _CFDictionaryGetTypeID() -> UInt { UInt(CFTypeID.dictionary.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFDictionaryCreate")
public func _CFDictionaryCreate(_ allocator: CFAllocatorRef?, _ keys: UnsafeMutablePointer<UnsafeRawPointer?>?, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?, _ numValues: CFIndex, _ keyCallBacks: UnsafePointer<CFDictionaryKeyCallBacks>?, _ valueCallBacks: UnsafePointer<CFDictionaryValueCallBacks>?) -> CFDictionaryRef? {
    guard numValues >= 0, (keys != nil && values != nil) || numValues == 0 else { return nil }
    let storage = CFDictionaryStorage(keyCallbacks: keyCallBacks?.pointee, valueCallbacks: valueCallBacks?.pointee, mutable: false)
    for i in 0..<numValues { storage.set(keys?[i], values?[i], add: true, replace: true) }
    return CFDictionaryRef(CFObjects.makeCollection(.dictionary, storage))
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryCreateMutable")
public func _CFDictionaryCreateMutable(_ allocator: CFAllocatorRef?, _ capacity: CFIndex, _ keyCallBacks: UnsafePointer<CFDictionaryKeyCallBacks>?, _ valueCallBacks: UnsafePointer<CFDictionaryValueCallBacks>?) -> CFMutableDictionaryRef? {
    guard capacity >= 0 else { return nil }
    let storage = CFDictionaryStorage(keyCallbacks: keyCallBacks?.pointee, valueCallbacks: valueCallBacks?.pointee, mutable: true)
    return CFMutableDictionaryRef(CFObjects.makeCollection(.dictionary, storage))
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryCreateMutableCopy")
public func _CFDictionaryCreateMutableCopy(_ allocator: CFAllocatorRef?, _ capacity: CFIndex, _ theDict: CFDictionaryRef?) -> CFMutableDictionaryRef? {
    guard capacity >= 0, let d = CFObjects.dictionary(UnsafeRawPointer(theDict)) else { return nil }
    let storage = CFDictionaryStorage(keyCallbacks: d.keyCallbacks, valueCallbacks: d.valueCallbacks, mutable: true)
    for i in d.keys.indices { storage.set(d.keys[i], d.values[i], add: true, replace: true) }
    return CFMutableDictionaryRef(CFObjects.makeCollection(.dictionary, storage))
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryGetCount")
public func _CFDictionaryGetCount(_ theDict: CFDictionaryRef?) -> CFIndex {
    CFObjects.dictionary(UnsafeRawPointer(theDict))?.keys.count ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryGetValue")
public func _CFDictionaryGetValue(_ theDict: CFDictionaryRef?, _ key: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)), let i = d.index(of: key) else { return nil }
    return d.values[i]
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryGetValueIfPresent")
public func _CFDictionaryGetValueIfPresent(_ theDict: CFDictionaryRef?, _ key: UnsafeRawPointer?, _ value: UnsafeMutablePointer<UnsafeRawPointer?>?) -> Bool {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)), let i = d.index(of: key) else { return false }
    value?.pointee = d.values[i]
    return true
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryContainsKey")
public func _CFDictionaryContainsKey(_ theDict: CFDictionaryRef?, _ key: UnsafeRawPointer?) -> Bool {
    CFObjects.dictionary(UnsafeRawPointer(theDict))?.index(of: key) != nil
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryContainsValue")
public func _CFDictionaryContainsValue(_ theDict: CFDictionaryRef?, _ value: UnsafeRawPointer?) -> Bool {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)) else { return false }
    return d.values.contains { $0 == value || (d.valueCallbacks?.equal?($0, value) ?? false) }
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryGetKeysAndValues")
public func _CFDictionaryGetKeysAndValues(_ theDict: CFDictionaryRef?, _ keys: UnsafeMutablePointer<UnsafeRawPointer?>?, _ values: UnsafeMutablePointer<UnsafeRawPointer?>?) {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)) else { return }
    for i in d.keys.indices {
        keys?[i] = d.keys[i]
        values?[i] = d.values[i]
    }
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryApplyFunction")
public func _CFDictionaryApplyFunction(_ theDict: CFDictionaryRef?, _ applier: CFDictionaryApplierFunction?, _ context: UnsafeMutableRawPointer?) {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)), let applier else { return }
    let pairs = Array(zip(d.keys, d.values))
    for (key, value) in pairs { applier(key, value, context) }
}

/// The mutable dictionary `theDict` stands for, or nil.
private func mutableDictionary(_ theDict: CFMutableDictionaryRef?) -> CFDictionaryStorage? {
    guard let d = CFObjects.dictionary(UnsafeRawPointer(theDict)), d.mutable else { return nil }
    return d
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryAddValue")
public func _CFDictionaryAddValue(_ theDict: CFMutableDictionaryRef?, _ key: UnsafeRawPointer?, _ value: UnsafeRawPointer?) {
    mutableDictionary(theDict)?.set(key, value, add: true, replace: false)
}

@_spi(CImplementation) @_cdecl("ATCFDictionarySetValue")
public func _CFDictionarySetValue(_ theDict: CFMutableDictionaryRef?, _ key: UnsafeRawPointer?, _ value: UnsafeRawPointer?) {
    mutableDictionary(theDict)?.set(key, value, add: true, replace: true)
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryReplaceValue")
public func _CFDictionaryReplaceValue(_ theDict: CFMutableDictionaryRef?, _ key: UnsafeRawPointer?, _ value: UnsafeRawPointer?) {
    mutableDictionary(theDict)?.set(key, value, add: false, replace: true)
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryRemoveValue")
public func _CFDictionaryRemoveValue(_ theDict: CFMutableDictionaryRef?, _ key: UnsafeRawPointer?) {
    guard let d = mutableDictionary(theDict), let i = d.index(of: key) else { return }
    d.remove(at: i)
}

@_spi(CImplementation) @_cdecl("ATCFDictionaryRemoveAllValues")
public func _CFDictionaryRemoveAllValues(_ theDict: CFMutableDictionaryRef?) {
    guard let d = mutableDictionary(theDict) else { return }
    while !d.keys.isEmpty { d.remove(at: d.keys.count - 1) }
}
