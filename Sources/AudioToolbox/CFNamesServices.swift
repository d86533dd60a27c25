public import CAudioToolbox

// Apple's names in Swift for run loop timers, the notification centres, preferences and the
// main bundle (C and C++ get them from macros in the CoreFoundation headers).

/// The current time in seconds since 1 January 2001 00:00:00 UTC.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { ATCFAbsoluteTimeGetCurrent() }
/// Seconds from 1 January 1970 to 1 January 2001.
public var kCFAbsoluteTimeIntervalSince1970: CFTimeInterval { ATkCFAbsoluteTimeIntervalSince1970 }

/// The type ID of run loop timers.
public func CFRunLoopTimerGetTypeID() -> CAudioToolbox.CFTypeID { ATCFRunLoopTimerGetTypeID() }
/// A new timer firing at `fireDate`, then every `interval` seconds (once when 0).
public func CFRunLoopTimerCreate(_ allocator: CFAllocatorRef?, _ fireDate: CFAbsoluteTime, _ interval: CFTimeInterval, _ flags: CFOptionFlags, _ order: CFIndex, _ callout: CFRunLoopTimerCallBack?, _ context: UnsafeMutablePointer<CFRunLoopTimerContext>?) -> CFRunLoopTimerRef? {
    ATCFRunLoopTimerCreate(allocator, fireDate, interval, flags, order, callout, context)
}
/// Adds a timer to a run loop in `mode`.
public func CFRunLoopAddTimer(_ rl: CFRunLoopRef, _ timer: CFRunLoopTimerRef, _ mode: CFRunLoopMode) { ATCFRunLoopAddTimer(rl, timer, mode) }
/// Removes a timer from a run loop's `mode`.
public func CFRunLoopRemoveTimer(_ rl: CFRunLoopRef, _ timer: CFRunLoopTimerRef, _ mode: CFRunLoopMode) { ATCFRunLoopRemoveTimer(rl, timer, mode) }
/// Whether a run loop has the timer in `mode`.
public func CFRunLoopContainsTimer(_ rl: CFRunLoopRef, _ timer: CFRunLoopTimerRef, _ mode: CFRunLoopMode) -> Bool { ATCFRunLoopContainsTimer(rl, timer, mode) }
/// Stops a timer for good.
public func CFRunLoopTimerInvalidate(_ timer: CFRunLoopTimerRef) { ATCFRunLoopTimerInvalidate(timer) }
/// Whether a timer is valid.
public func CFRunLoopTimerIsValid(_ timer: CFRunLoopTimerRef) -> Bool { ATCFRunLoopTimerIsValid(timer) }
/// When a timer fires next.
public func CFRunLoopTimerGetNextFireDate(_ timer: CFRunLoopTimerRef) -> CFAbsoluteTime { ATCFRunLoopTimerGetNextFireDate(timer) }
/// Moves a timer's next firing.
public func CFRunLoopTimerSetNextFireDate(_ timer: CFRunLoopTimerRef, _ fireDate: CFAbsoluteTime) { ATCFRunLoopTimerSetNextFireDate(timer, fireDate) }
/// A timer's interval.
public func CFRunLoopTimerGetInterval(_ timer: CFRunLoopTimerRef) -> CFTimeInterval { ATCFRunLoopTimerGetInterval(timer) }
/// Whether a timer repeats.
public func CFRunLoopTimerDoesRepeat(_ timer: CFRunLoopTimerRef) -> Bool { ATCFRunLoopTimerDoesRepeat(timer) }

/// The process's local notification centre.
public func CFNotificationCenterGetLocalCenter() -> CFNotificationCenterRef { ATCFNotificationCenterGetLocalCenter() }
/// The Darwin notify centre (within this process).
public func CFNotificationCenterGetDarwinNotifyCenter() -> CFNotificationCenterRef { ATCFNotificationCenterGetDarwinNotifyCenter() }
/// Registers an observer's function for a name (nil: all) and object (nil: any).
public func CFNotificationCenterAddObserver(_ center: CFNotificationCenterRef, _ observer: UnsafeRawPointer?, _ callBack: CFNotificationCallback, _ name: CFStringRef?, _ object: UnsafeRawPointer?, _ suspensionBehavior: CFNotificationSuspensionBehavior) {
    ATCFNotificationCenterAddObserver(center, observer, callBack, name, object, suspensionBehavior)
}
/// Removes an observer's registrations for a name and object (nil: all).
public func CFNotificationCenterRemoveObserver(_ center: CFNotificationCenterRef, _ observer: UnsafeRawPointer?, _ name: CFNotificationName?, _ object: UnsafeRawPointer?) {
    ATCFNotificationCenterRemoveObserver(center, observer, name, object)
}
/// Removes every registration of an observer.
public func CFNotificationCenterRemoveEveryObserver(_ center: CFNotificationCenterRef, _ observer: UnsafeRawPointer?) {
    ATCFNotificationCenterRemoveEveryObserver(center, observer)
}
/// Calls the matching observers now, on this thread.
public func CFNotificationCenterPostNotification(_ center: CFNotificationCenterRef, _ name: CFNotificationName, _ object: UnsafeRawPointer?, _ userInfo: CFDictionaryRef?, _ deliverImmediately: Bool) {
    ATCFNotificationCenterPostNotification(center, name, object, userInfo, deliverImmediately)
}

/// The current application's preferences domain.
public var kCFPreferencesCurrentApplication: CFStringRef { ATkCFPreferencesCurrentApplication }
/// The domain of every application.
public var kCFPreferencesAnyApplication: CFStringRef { ATkCFPreferencesAnyApplication }
/// The current user.
public var kCFPreferencesCurrentUser: CFStringRef { ATkCFPreferencesCurrentUser }
/// Any host.
public var kCFPreferencesAnyHost: CFStringRef { ATkCFPreferencesAnyHost }
/// The value the process set for `key`, or nil.
public func CFPreferencesCopyAppValue(_ key: CFStringRef, _ applicationID: CFStringRef) -> CFPropertyListRef? { ATCFPreferencesCopyAppValue(key, applicationID) }
/// The value as a boolean; `keyExistsAndHasValidFormat` false when unset.
public func CFPreferencesGetAppBooleanValue(_ key: CFStringRef, _ applicationID: CFStringRef, _ keyExistsAndHasValidFormat: UnsafeMutablePointer<Bool>?) -> Bool {
    ATCFPreferencesGetAppBooleanValue(key, applicationID, keyExistsAndHasValidFormat)
}
/// The value as an integer; `keyExistsAndHasValidFormat` false when unset.
public func CFPreferencesGetAppIntegerValue(_ key: CFStringRef, _ applicationID: CFStringRef, _ keyExistsAndHasValidFormat: UnsafeMutablePointer<Bool>?) -> CFIndex {
    ATCFPreferencesGetAppIntegerValue(key, applicationID, keyExistsAndHasValidFormat)
}
/// Sets (nil: removes) a value for this process.
public func CFPreferencesSetAppValue(_ key: CFStringRef, _ value: CFPropertyListRef?, _ applicationID: CFStringRef) { ATCFPreferencesSetAppValue(key, value, applicationID) }
/// Nothing to write: true.
public func CFPreferencesAppSynchronize(_ applicationID: CFStringRef) -> Bool { ATCFPreferencesAppSynchronize(applicationID) }

/// The main bundle: the executable's directory.
public func CFBundleGetMainBundle() -> CFBundleRef? { ATCFBundleGetMainBundle() }
/// The bundle's identifier (nil: it has no Info.plist).
public func CFBundleGetIdentifier(_ bundle: CFBundleRef) -> CFStringRef? { ATCFBundleGetIdentifier(bundle) }
/// The bundle's directory.
public func CFBundleCopyBundleURL(_ bundle: CFBundleRef) -> CFURLRef? { ATCFBundleCopyBundleURL(bundle) }
/// An existing resource in the bundle's directory, or nil.
public func CFBundleCopyResourceURL(_ bundle: CFBundleRef, _ resourceName: CFStringRef, _ resourceType: CFStringRef?, _ subDirName: CFStringRef?) -> CFURLRef? {
    ATCFBundleCopyResourceURL(bundle, resourceName, resourceType, subDirName)
}
