import Foundation
import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// A device's failure reaches the program with the device's own code, however the queue came
/// to start it.
@Suite("Device failures keep their codes")
struct DeviceFailureTests {
    static let float2 = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true)

    /// Codes a device may throw from its start: a named one that is not `openFailed` (what a
    /// start at a later time once reported, whatever the device said), and one no release
    /// names ('tst!').
    static let codes: [AudioDeviceError.Code] = [.invalidState, .formatNotSupported, AudioDeviceError.Code(rawValue: 0x7473_7421)]

    /// A start at a later time whose device will not start stops the queue: the converter-error
    /// listeners hear `queueInvalidated`, and `deviceFailure` holds the device's code.
    @Test(arguments: codes)
    func outputStartAtALaterTime(code: AudioDeviceError.Code) throws {
        let queue = try AudioQueue(format: Self.float2, device: RefusingDevice(code)) { _, _ in }
        try queue.enqueue(try floatBuffer(queue, ramp(frames: 480, channels: 2)))
        try queue.start(at: AudioTimeStamp(hostTime: HostTime.now() + 20_000_000, flags: .hostTimeValid))
        #expect(eventually { queue.deviceFailure != nil })
        #expect(queue.deviceFailure?.code == code)
        #expect(queue.deviceFailure?.status == code.rawValue)
        #expect(queue.converterError == AudioQueueError.Code.queueInvalidated.rawValue)
        #expect(eventually { queue.state == .stopped })
        try queue.dispose(immediate: true)
    }

    @Test(arguments: codes)
    func inputStartAtALaterTime(code: AudioDeviceError.Code) throws {
        let queue = try AudioInputQueue(format: Self.float2, device: RefusingInputDevice(code)) { _, _, _, _, _ in }
        try queue.enqueue(try queue.allocateBuffer(byteCapacity: 3840))
        try queue.start(at: AudioTimeStamp(hostTime: HostTime.now() + 20_000_000, flags: .hostTimeValid))
        #expect(eventually { queue.deviceFailure != nil })
        #expect(queue.deviceFailure?.code == code)
        #expect(queue.converterError == AudioQueueError.Code.queueInvalidated.rawValue)
        #expect(eventually { queue.state == .stopped })
        try queue.dispose(immediate: true)
    }

    /// A start now is refused at once, with Apple's queue code; the queue stays stopped.
    @Test func outputStartNow() throws {
        let queue = try AudioQueue(format: Self.float2, device: RefusingDevice(.invalidState)) { _, _ in }
        expectCode(.cannotStart) { try queue.start() }
        #expect(queue.state == .stopped)
        #expect(queue.deviceFailure == nil)
        try queue.dispose(immediate: true)
    }
}

/// An input device that will not start, throwing `code`.
final class RefusingInputDevice: AudioInputDevice {
    let info = AudioDeviceInfo(backend: "test", name: "refusing", description: "never starts", direction: .input)
    let format = AudioStreamBasicDescription.deviceFloat(sampleRate: 48000, channels: 2)
    let code: AudioDeviceError.Code
    init(_ code: AudioDeviceError.Code) { self.code = code }
    func start(sink: any AudioCaptureSink) throws(AudioDeviceError) { throw AudioDeviceError(code, "busy") }
    func stop(drain: Bool) {}
    var framesCaptured: Int64 { 0 }
    func close() {}
}
