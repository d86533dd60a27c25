/// Apple's AudioToolbox C API for Swift: `import AudioToolbox` brings in the functions, types
/// and constants of `<AudioToolbox/AudioToolbox.h>` with Apple's signatures, so Swift code
/// written against macOS's AudioToolbox (`AudioQueueNewOutput(&format, callback, userData, nil,
/// nil, 0, &queue)`) compiles here. The same functions are exported from libAudioToolbox.so for
/// C and C++ programs.
@_exported public import CAudioToolbox

// The CoreFoundation subset under Apple's names. The library exports these as ATCF… symbols so
// that they never interpose on swift-corelibs-foundation's own CoreFoundation; C and C++ get the
// names from macros in <AudioToolbox/ATBase.h>, Swift from these.

/// The default allocator (NULL).
public var kCFAllocatorDefault: CFAllocatorRef? { nil }
/// The run loop mode most code runs in.
public var kCFRunLoopDefaultMode: CFStringRef { ATkCFRunLoopDefaultMode }
/// The common modes (the default mode among them).
public var kCFRunLoopCommonModes: CFStringRef { ATkCFRunLoopCommonModes }

/// Adds a reference to a CF object of this library.
@discardableResult
public func CFRetain(_ cf: CFTypeRef) -> CFTypeRef { ATCFRetain(cf) }
/// Drops a reference to a CF object of this library.
public func CFRelease(_ cf: CFTypeRef) { ATCFRelease(cf) }
/// A file URL for a path given as bytes.
public func CFURLCreateFromFileSystemRepresentation(_ allocator: CFAllocatorRef?, _ buffer: UnsafePointer<UInt8>, _ length: CFIndex, _ isDirectory: Bool) -> CFURLRef? {
    ATCFURLCreateFromFileSystemRepresentation(allocator, buffer, length, isDirectory)
}
/// A file URL for a POSIX path string.
public func CFURLCreateWithFileSystemPath(_ allocator: CFAllocatorRef?, _ path: CFStringRef, _ style: CFURLPathStyle, _ isDirectory: Bool) -> CFURLRef? {
    ATCFURLCreateWithFileSystemPath(allocator, path, style, isDirectory)
}
/// A string from a C string.
public func CFStringCreateWithCString(_ allocator: CFAllocatorRef?, _ cString: UnsafePointer<CChar>, _ encoding: CFStringEncoding) -> CFStringRef? {
    ATCFStringCreateWithCString(allocator, cString, encoding)
}
/// The calling thread's run loop.
public func CFRunLoopGetCurrent() -> CFRunLoopRef { ATCFRunLoopGetCurrent() }
/// The main thread's run loop.
public func CFRunLoopGetMain() -> CFRunLoopRef { ATCFRunLoopGetMain() }
/// Runs the current thread's run loop in `mode` for at most `seconds`.
@discardableResult
public func CFRunLoopRunInMode(_ mode: CFStringRef, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
    ATCFRunLoopRunInMode(mode, seconds, returnAfterSourceHandled)
}
/// Runs the current thread's run loop until it is stopped.
public func CFRunLoopRun() { ATCFRunLoopRun() }
/// Stops a run loop.
public func CFRunLoopStop(_ runLoop: CFRunLoopRef) { ATCFRunLoopStop(runLoop) }
