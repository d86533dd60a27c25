/// A device that says whether its I/O thread is paced by a clock — a sound card's, a sound
/// server's, or the monotonic clock at the sample rate — rather than running as fast as its
/// source or sink allows.
///
/// A queue gives its render or capture thread real-time scheduling only for a device that
/// is (``ThreadPriority/pipeline(serving:)``): such a thread is woken by the device's I/O
/// thread, as often as that runs. Devices of other packages are taken as unpaced.
package protocol ClockPacedDevice: AnyObject {
    /// True when audio moves at the sample rate.
    var isPacedByClock: Bool { get }
}

extension ThreadPriority {
    /// ``pipeline`` for a queue's thread that `device` wakes, when the device is paced by a
    /// clock (``ClockPacedDevice``); else ``normal``.
    package static func pipeline(serving device: AnyObject) -> ThreadPriority {
        (device as? any ClockPacedDevice)?.isPacedByClock == true ? .pipeline : .normal
    }
}

extension NullDevice: ClockPacedDevice {
    package var isPacedByClock: Bool { loopPacing == .realTime }
}

extension NullInputDevice: ClockPacedDevice {
    package var isPacedByClock: Bool { true }
}

extension PlacedOutputDevice: ClockPacedDevice {
    package var isPacedByClock: Bool { (device as? any ClockPacedDevice)?.isPacedByClock ?? false }
}

extension PlacedInputDevice: ClockPacedDevice {
    package var isPacedByClock: Bool { (device as? any ClockPacedDevice)?.isPacedByClock ?? false }
}
