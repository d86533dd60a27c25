import CAudioToolbox
import AudioCore
import AudioUnitServices
import Locking

// What the C API's `AudioComponent` and `AudioUnit` (`AudioComponentInstance`) handles stand
// for. A component's handle is an address of its own, given out once per component and kept
// for the process; a unit's is a number from a HandleTable, never reused, so a disposed unit's
// handle finds nothing and answers an error.

typealias SwiftUnit = AudioUnitServices.AudioUnit
typealias SwiftComponent = AudioUnitServices.AudioComponent
typealias SwiftFlags = AudioUnitServices.AudioUnitRenderActionFlags

enum ComponentHandles {
    private static let table = Guarded<[(component: SwiftComponent, address: UnsafeMutableRawPointer)]>([])

    /// The handle of `component`: the same address every time.
    static func handle(_ component: SwiftComponent) -> OpaquePointer {
        table.withLock { t in
            if let entry = t.first(where: { $0.component === component }) { return OpaquePointer(entry.address) }
            let address = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
            t.append((component, address))
            return OpaquePointer(address)
        }
    }

    /// The component a handle stands for; nil for anything else.
    static func component(_ handle: OpaquePointer?) -> SwiftComponent? {
        guard let handle else { return nil }
        let address = UnsafeMutableRawPointer(handle)
        return table.withLock { $0.first { $0.address == address }?.component }
    }
}

/// A unit as the C API sees it: the Swift unit and what its C callers registered — callbacks as
/// C function pointers with their user data, to give back from the Get calls and to remove by
/// pointer.
final class UnitBox: @unchecked Sendable {
    static let table = HandleTable<UnitBox>(kind: 12)
    let unit: SwiftUnit
    var handle: UInt = 0

    struct Registrations {
        var renderCallbacks: [UInt32: AURenderCallbackStruct] = [:]
        var inputCallback: AURenderCallbackStruct?
        var connections: [UInt32: AudioUnitConnection] = [:]
        var listeners: [(proc: AudioUnitPropertyListenerProc, refCon: UnsafeMutableRawPointer?, id: UInt32, token: Int)] = []
        var notifications: [NotifyRegistration] = []
    }
    let registrations = Guarded(Registrations())

    init(_ unit: SwiftUnit) { self.unit = unit }

    static func insert(_ unit: SwiftUnit) -> UInt {
        let box = UnitBox(unit)
        box.handle = table.insert(box)
        return box.handle
    }

    static func box(_ handle: OpaquePointer?) -> UnitBox? { table.object(handle) }

    /// The box of a unit made through the C API (a connection's source, a graph's node).
    static func box(of unit: SwiftUnit) -> UnitBox? { table.all.first { $0.unit === unit } }
}

/// A C render callback as the Swift unit calls it: the program's function with its user data,
/// given Apple's structures in place.
func renderCallback(_ callback: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) -> AudioUnitRenderCallback {
    let data = UserData(refCon)
    // The user data may be NULL: called through a type that says so.
    let proc = unsafeBitCast(callback, to: NullableRenderCallback.self)
    return { flags, time, bus, frames, list in
        proc(
            data.pointer, UnsafeMutableRawPointer(flags).assumingMemoryBound(to: CAudioToolbox.AudioUnitRenderActionFlags.self),
            UnsafeRawPointer(time.raw).assumingMemoryBound(to: CAudioToolbox.AudioTimeStamp.self), bus, frames,
            list.map { $0.raw.assumingMemoryBound(to: CAudioToolbox.AudioBufferList.self) })
    }
}

/// A render notification the C API registered: the program's function and user data, and the
/// token the Swift unit or graph gave for it.
typealias NotifyRegistration = (proc: AURenderCallback, refCon: UnsafeMutableRawPointer?, token: Int)

/// Removes the registrations of `proc` with `refCon` from `list`; their tokens, to remove from
/// the unit or graph (`AudioUnitRemoveRenderNotify`, `AUGraphRemoveRenderNotify`).
func removeNotifications(_ list: inout [NotifyRegistration], _ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) -> [Int] {
    let same = { (n: NotifyRegistration) in
        unsafeBitCast(n.proc, to: UnsafeRawPointer.self) == unsafeBitCast(proc, to: UnsafeRawPointer.self) && n.refCon == refCon
    }
    let tokens = list.filter(same).map(\.token)
    list.removeAll(where: same)
    return tokens
}

/// `AURenderCallback` with the user data a program may leave NULL.
typealias NullableRenderCallback = @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutablePointer<CAudioToolbox.AudioUnitRenderActionFlags>, UnsafePointer<CAudioToolbox.AudioTimeStamp>,
    UInt32, UInt32, UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus

/// Runs a unit call: noErr or the error's code; `kAudio_ParamError` for a handle that names no
/// unit (Apple's answer to a NULL unit; a disposed one would crash a Mac).
func unitStatus(_ handle: OpaquePointer?, _ body: (UnitBox) throws(AudioUnitError) -> Void) -> OSStatus {
    guard let box = UnitBox.box(handle) else { return paramError }
    return resultStatus { () throws(AudioUnitError) in try body(box) }
}
