public import CAudioToolbox
import Glibc

/// The main bundle (`CFBundleGetMainBundle`), as a Mac gives it to a program outside an
/// application bundle: the executable's directory, where its resources are looked up too. It
/// has no Info.plist: no identifier, and an empty info dictionary.
final class MainBundle: @unchecked Sendable {
    let executable: String
    let directory: String
    private(set) var object: CFBundleRef!
    /// The empty info dictionary, immortal.
    let infoDictionary: CFDictionaryRef?

    init(executable: String) {
        self.executable = executable
        let slash = executable.lastIndex(of: "/") ?? executable.startIndex
        let parent = String(executable[..<slash])
        directory = parent.isEmpty ? "/" : parent
        let dictionary = _CFDictionaryCreate(nil, nil, nil, 0, nil, nil)
        if let dictionary { CFObjects.header(UnsafeRawPointer(dictionary)).pointee.retainCount = -1 }
        infoDictionary = dictionary
        object = CFBundleRef(CFObjects.makeClassObject(.bundle, self, immortal: true).assumingMemoryBound(to: CFClassObject.self))
    }

    /// Made on first use from /proc/self/exe; nil when that cannot be read.
    static let main: MainBundle? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return MainBundle(executable: String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }()

    static func from(_ ref: CFBundleRef?) -> MainBundle? { CFObjects.instance(UnsafeRawPointer(ref), .bundle, as: MainBundle.self) }

    static func url(_ path: String) -> CFURLRef { CFURLRef(CFObjects.makeURL(path: path)) }

    /// The path of an existing resource `name[.type]` in `subdirectory` (or the directory).
    func resource(_ name: String, type: String?, subdirectory: String?) -> String? {
        guard !name.isEmpty else { return nil }
        var file = name
        if let type, !type.isEmpty { file += type.hasPrefix(".") ? type : "." + type }
        var folder = directory
        if let subdirectory, !subdirectory.isEmpty {
            folder += subdirectory.hasPrefix("/") ? subdirectory : "/" + subdirectory
        }
        let path = (folder.hasSuffix("/") ? folder : folder + "/") + file
        var info = stat()
        return stat(path, &info) == 0 ? path : nil
    }
}

@_spi(CImplementation) @_cdecl("ATCFBundleGetTypeID")
public func _CFBundleGetTypeID() -> UInt { UInt(CFTypeID.bundle.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFBundleGetMainBundle")
public func _CFBundleGetMainBundle() -> CFBundleRef? { MainBundle.main?.object }

@_spi(CImplementation) @_cdecl("ATCFBundleGetBundleWithIdentifier")
public func _CFBundleGetBundleWithIdentifier(_ bundleID: CFStringRef?) -> CFBundleRef? { nil }

@_spi(CImplementation) @_cdecl("ATCFBundleGetIdentifier")
public func _CFBundleGetIdentifier(_ bundle: CFBundleRef?) -> CFStringRef? { nil }

@_spi(CImplementation) @_cdecl("ATCFBundleCopyBundleURL")
public func _CFBundleCopyBundleURL(_ bundle: CFBundleRef?) -> CFURLRef? { MainBundle.from(bundle).map { MainBundle.url($0.directory) } }

@_spi(CImplementation) @_cdecl("ATCFBundleCopyResourcesDirectoryURL")
public func _CFBundleCopyResourcesDirectoryURL(_ bundle: CFBundleRef?) -> CFURLRef? {
    MainBundle.from(bundle).map { MainBundle.url($0.directory) }
}

@_spi(CImplementation) @_cdecl("ATCFBundleCopyExecutableURL")
public func _CFBundleCopyExecutableURL(_ bundle: CFBundleRef?) -> CFURLRef? { MainBundle.from(bundle).map { MainBundle.url($0.executable) } }

@_spi(CImplementation) @_cdecl("ATCFBundleCopyResourceURL")
public func _CFBundleCopyResourceURL(_ bundle: CFBundleRef?, _ resourceName: CFStringRef?, _ resourceType: CFStringRef?, _ subDirName: CFStringRef?) -> CFURLRef? {
    guard let bundle = MainBundle.from(bundle), let name = Preferences.text(resourceName) else { return nil }
    return bundle.resource(name, type: Preferences.text(resourceType), subdirectory: Preferences.text(subDirName)).map(MainBundle.url)
}

@_spi(CImplementation) @_cdecl("ATCFBundleGetInfoDictionary")
public func _CFBundleGetInfoDictionary(_ bundle: CFBundleRef?) -> CFDictionaryRef? { MainBundle.from(bundle)?.infoDictionary }

@_spi(CImplementation) @_cdecl("ATCFBundleGetValueForInfoDictionaryKey")
public func _CFBundleGetValueForInfoDictionaryKey(_ bundle: CFBundleRef?, _ key: CFStringRef?) -> CFTypeRef? { nil }
