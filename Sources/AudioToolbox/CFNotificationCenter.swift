public import CAudioToolbox
import Locking

/// A notification centre (`CFNotificationCenterRef`): observers' functions by name and object,
/// called at once on the posting thread, in the order they registered, with no lock held (a
/// function may post, add or remove observers). The local centre passes the object and user
/// info through; the Darwin notify centre (and the distributed one) reach only this process's
/// observers and pass neither, as Darwin notifications carry none.
final class NotificationCenter: @unchecked Sendable {
    struct Observer {
        let observer: UnsafeRawPointer?
        let callback: CFNotificationCallback
        /// nil: every name.
        let name: String?
        /// nil: any object.
        let object: UnsafeRawPointer?
    }

    let carriesObjects: Bool
    private let observers = Guarded<[Observer]>([])
    private(set) var object: CFNotificationCenterRef!

    init(carriesObjects: Bool) {
        self.carriesObjects = carriesObjects
        object = CFNotificationCenterRef(CFObjects.makeClassObject(.notificationCenter, self, immortal: true).assumingMemoryBound(to: CFClassObject.self))
    }

    static let local = NotificationCenter(carriesObjects: true)
    static let darwin = NotificationCenter(carriesObjects: false)
    static let distributed = NotificationCenter(carriesObjects: false)

    static func from(_ ref: CFNotificationCenterRef?) -> NotificationCenter? {
        CFObjects.instance(UnsafeRawPointer(ref), .notificationCenter, as: NotificationCenter.self)
    }

    func add(_ entry: Observer) {
        let object = carriesObjects ? entry.object : nil
        observers.withLock { list in
            let same = { (o: Observer) in o.observer == entry.observer && o.name == entry.name && o.object == object }
            let made = Observer(observer: entry.observer, callback: entry.callback, name: entry.name, object: object)
            if let i = list.firstIndex(where: same) { list[i] = made } else { list.append(made) }
        }
    }

    /// Removes the observer's registrations for `name` (nil: all) and `object` (nil: all).
    func remove(observer: UnsafeRawPointer?, name: String?, object: UnsafeRawPointer?) {
        observers.withLock { list in
            list.removeAll { o in
                o.observer == observer && (name == nil || o.name == name) && (object == nil || o.object == object)
            }
        }
    }

    func post(name: CFStringRef, text: String, object: UnsafeRawPointer?, userInfo: CFDictionaryRef?) {
        let passedObject = carriesObjects ? object : nil
        let passedInfo = carriesObjects ? userInfo : nil
        let matching = observers.withLock { list in
            list.filter { o in (o.name == nil || o.name == text) && (o.object == nil || o.object == passedObject) }
        }
        for o in matching {
            o.callback(self.object, UnsafeMutableRawPointer(mutating: o.observer), name, passedObject, passedInfo)
        }
    }
}

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterGetTypeID")
public func _CFNotificationCenterGetTypeID() -> UInt { UInt(CFTypeID.notificationCenter.rawValue) }

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterGetLocalCenter")
public func _CFNotificationCenterGetLocalCenter() -> CFNotificationCenterRef { NotificationCenter.local.object }

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterGetDarwinNotifyCenter")
public func _CFNotificationCenterGetDarwinNotifyCenter() -> CFNotificationCenterRef { NotificationCenter.darwin.object }

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterGetDistributedCenter")
public func _CFNotificationCenterGetDistributedCenter() -> CFNotificationCenterRef { NotificationCenter.distributed.object }

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterAddObserver")
public func _CFNotificationCenterAddObserver(
    _ center: CFNotificationCenterRef?, _ observer: UnsafeRawPointer?, _ callBack: CFNotificationCallback?,
    _ name: CFStringRef?, _ object: UnsafeRawPointer?, _ suspensionBehavior: CFNotificationSuspensionBehavior
) {
    guard let center = NotificationCenter.from(center), let callBack else { return }
    let text = name.flatMap { CFObjects.string(UnsafeRawPointer($0)) }
    // A name that is not a string matches nothing rather than everything.
    guard name == nil || text != nil else { return }
    center.add(.init(observer: observer, callback: callBack, name: text, object: object))
}

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterRemoveObserver")
public func _CFNotificationCenterRemoveObserver(_ center: CFNotificationCenterRef?, _ observer: UnsafeRawPointer?, _ name: CFStringRef?, _ object: UnsafeRawPointer?) {
    guard let center = NotificationCenter.from(center) else { return }
    let text = name.flatMap { CFObjects.string(UnsafeRawPointer($0)) }
    guard name == nil || text != nil else { return }
    center.remove(observer: observer, name: text, object: object)
}

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterRemoveEveryObserver")
public func _CFNotificationCenterRemoveEveryObserver(_ center: CFNotificationCenterRef?, _ observer: UnsafeRawPointer?) {
    NotificationCenter.from(center)?.remove(observer: observer, name: nil, object: nil)
}

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterPostNotification")
public func _CFNotificationCenterPostNotification(
    _ center: CFNotificationCenterRef?, _ name: CFStringRef?, _ object: UnsafeRawPointer?, _ userInfo: CFDictionaryRef?,
    _ deliverImmediately: UInt8
) {
    guard let center = NotificationCenter.from(center), let name, let text = CFObjects.string(UnsafeRawPointer(name)) else { return }
    center.post(name: name, text: text, object: object, userInfo: userInfo)
}

@_spi(CImplementation) @_cdecl("ATCFNotificationCenterPostNotificationWithOptions")
public func _CFNotificationCenterPostNotificationWithOptions(
    _ center: CFNotificationCenterRef?, _ name: CFStringRef?, _ object: UnsafeRawPointer?, _ userInfo: CFDictionaryRef?,
    _ options: CFOptionFlags
) {
    _CFNotificationCenterPostNotification(center, name, object, userInfo, 1)
}
