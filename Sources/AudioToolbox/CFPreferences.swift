public import CAudioToolbox
import Glibc
import Locking

/// Preferences as this process keeps them (`CFPreferences…`): nothing is read from disk, so
/// every key starts unset and a program's reads fall back to its defaults; values set are kept
/// (retained) until the process exits. Domains are (application, user, host) names; the
/// `…App…` calls use the current user and any host, as a Mac's do.
enum Preferences {
    struct Domain: Hashable {
        let application: String
        let user: String
        let host: String
    }

    /// Values by domain, then key; each retained.
    static let store = Guarded<[Domain: [String: UnsafeRawPointer]]>([:])

    static let currentApplication = "kCFPreferencesCurrentApplication"
    static let anyApplication = "kCFPreferencesAnyApplication"
    static let currentUser = "kCFPreferencesCurrentUser"
    static let anyHost = "kCFPreferencesAnyHost"

    static func text(_ ref: CFStringRef?) -> String? { ref.flatMap { CFObjects.string(UnsafeRawPointer($0)) } }

    static func appDomain(_ application: String) -> Domain { Domain(application: application, user: currentUser, host: anyHost) }

    /// A retained value of `key` in `domain`, or nil.
    static func copy(_ key: String, _ domain: Domain) -> UnsafeRawPointer? {
        store.withLock { $0[domain]?[key].map { _CFRetain($0)! } }
    }

    static func set(_ key: String, _ value: UnsafeRawPointer?, _ domain: Domain) {
        let retained = value.map { _CFRetain($0)! }
        let old = store.withLock { s -> UnsafeRawPointer? in
            let old = s[domain]?[key]
            s[domain, default: [:]][key] = retained
            return old
        }
        if let old { _CFRelease(old) }
    }

    /// The application's value, else the one for any application.
    static func copyApp(_ key: CFStringRef?, _ application: CFStringRef?) -> UnsafeRawPointer? {
        guard let key = text(key), let application = text(application) else { return nil }
        return copy(key, appDomain(application)) ?? copy(key, appDomain(anyApplication))
    }

    /// A value as a boolean, when it reads as one.
    static func boolean(_ value: UnsafeRawPointer) -> Bool? {
        switch CFObjects.kind(value) {
        case .boolean: return _CFBooleanGetValue(CFBooleanRef(value))
        case .number: return integer(value).map { $0 != 0 }
        case .string:
            switch CFObjects.string(value)?.lowercased() {
            case "true", "yes": return true
            case "false", "no": return false
            default: return integer(value).map { $0 != 0 }
            }
        default: return nil
        }
    }

    /// A value as an integer, when it reads as one.
    static func integer(_ value: UnsafeRawPointer) -> Int? {
        switch CFObjects.kind(value) {
        case .number:
            var out = 0
            _ = _CFNumberGetValue(CFNumberRef(value), .cfIndexType, &out)
            return out
        case .string: return CFObjects.string(value).flatMap { Int($0.trimmingPrefix(while: { $0 == " " })) }
        default: return nil
        }
    }
}

private extension String {
    func trimmingPrefix(while skip: (Character) -> Bool) -> Substring { self[...].drop(while: skip) }
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesCopyAppValue")
public func _CFPreferencesCopyAppValue(_ key: CFStringRef?, _ applicationID: CFStringRef?) -> CFPropertyListRef? {
    Preferences.copyApp(key, applicationID)
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesGetAppBooleanValue")
public func _CFPreferencesGetAppBooleanValue(_ key: CFStringRef?, _ applicationID: CFStringRef?, _ valid: UnsafeMutablePointer<UInt8>?) -> Bool {
    let value = Preferences.copyApp(key, applicationID)
    defer { if let value { _CFRelease(value) } }
    let result = value.flatMap(Preferences.boolean)
    valid?.pointee = result == nil ? 0 : 1
    return result ?? false
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesGetAppIntegerValue")
public func _CFPreferencesGetAppIntegerValue(_ key: CFStringRef?, _ applicationID: CFStringRef?, _ valid: UnsafeMutablePointer<UInt8>?) -> CFIndex {
    let value = Preferences.copyApp(key, applicationID)
    defer { if let value { _CFRelease(value) } }
    let result = value.flatMap(Preferences.integer)
    valid?.pointee = result == nil ? 0 : 1
    return result ?? 0
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesSetAppValue")
public func _CFPreferencesSetAppValue(_ key: CFStringRef?, _ value: CFPropertyListRef?, _ applicationID: CFStringRef?) {
    guard let key = Preferences.text(key), let application = Preferences.text(applicationID) else { return }
    Preferences.set(key, value, Preferences.appDomain(application))
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesAppSynchronize")
public func _CFPreferencesAppSynchronize(_ applicationID: CFStringRef?) -> Bool { applicationID != nil }

@_spi(CImplementation) @_cdecl("ATCFPreferencesCopyValue")
public func _CFPreferencesCopyValue(_ key: CFStringRef?, _ applicationID: CFStringRef?, _ userName: CFStringRef?, _ hostName: CFStringRef?) -> CFPropertyListRef? {
    guard let key = Preferences.text(key), let application = Preferences.text(applicationID),
          let user = Preferences.text(userName), let host = Preferences.text(hostName) else { return nil }
    return Preferences.copy(key, .init(application: application, user: user, host: host))
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesSetValue")
public func _CFPreferencesSetValue(_ key: CFStringRef?, _ value: CFPropertyListRef?, _ applicationID: CFStringRef?, _ userName: CFStringRef?, _ hostName: CFStringRef?) {
    guard let key = Preferences.text(key), let application = Preferences.text(applicationID),
          let user = Preferences.text(userName), let host = Preferences.text(hostName) else { return }
    Preferences.set(key, value, .init(application: application, user: user, host: host))
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesSynchronize")
public func _CFPreferencesSynchronize(_ applicationID: CFStringRef?, _ userName: CFStringRef?, _ hostName: CFStringRef?) -> Bool {
    applicationID != nil && userName != nil && hostName != nil
}

@_spi(CImplementation) @_cdecl("ATCFPreferencesAppValueIsForced")
public func _CFPreferencesAppValueIsForced(_ key: CFStringRef?, _ applicationID: CFStringRef?) -> Bool { false }

@_spi(CImplementation) @_cdecl("ATCFPreferencesCopyKeyList")
public func _CFPreferencesCopyKeyList(_ applicationID: CFStringRef?, _ userName: CFStringRef?, _ hostName: CFStringRef?) -> CFArrayRef? {
    guard let application = Preferences.text(applicationID), let user = Preferences.text(userName),
          let host = Preferences.text(hostName) else { return nil }
    let keys = Preferences.store.withLock { $0[.init(application: application, user: user, host: host)]?.keys.sorted() ?? [] }
    guard !keys.isEmpty else { return nil }
    var strings: [UnsafeRawPointer?] = keys.map { UnsafeRawPointer(CFObjects.makeString($0)) }
    defer { for s in strings { _CFRelease(s) } }
    return withUnsafePointer(to: ATkCFTypeArrayCallBacks) { callbacks in
        _CFArrayCreate(nil, &strings, CFIndex(strings.count), callbacks)
    }
}
