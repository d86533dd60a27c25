import Testing
import AudioCore
import AudioDevices

/// The device error codes and events as values: Apple's numbers, and values no release names.
/// No sound server needed.
@Suite("Device error codes and events")
struct DeviceValueTests {
    /// Apple's HAL result codes (`AudioHardwareBase.h`), as the four characters the header
    /// spells them with.
    static let appleCodes: [(AudioDeviceError.Code, String)] = [
        (.notFound, "!dev"),  // kAudioHardwareBadDeviceError
        (.openFailed, "stop"),  // kAudioHardwareNotRunningError
        (.formatNotSupported, "!dat"),  // kAudioDeviceUnsupportedFormatError
        (.disconnected, "!obj"),  // kAudioHardwareBadObjectError
        (.ioFailed, "what"),  // kAudioHardwareUnspecifiedError
        (.invalidState, "nope"),  // kAudioHardwareIllegalOperationError
    ]

    @Test(arguments: appleCodes)
    func appleResultCodes(code: AudioDeviceError.Code, characters: String) {
        #expect(code.rawValue == OSStatus(bitPattern: FourCharCode(characters).rawValue))
        #expect(AudioDeviceError(code, "x").status == code.rawValue)
    }

    @Test func namedCodesAreDistinct() {
        #expect(Set(Self.appleCodes.map(\.0)).count == Self.appleCodes.count)
    }

    /// A code no release names keeps its value, prints it, matches no named code, and a switch
    /// reaches `default:`.
    @Test func unnamedCodeRoundTrips() {
        let future = AudioDeviceError.Code(rawValue: 0x7468_6D21)  // 'thm!'
        #expect(future.rawValue == 0x7468_6D21)
        #expect(AudioDeviceError.Code(rawValue: future.rawValue) == future)
        #expect(future.description == "'thm!'")
        #expect(!Self.appleCodes.map(\.0).contains(future))
        let error = AudioDeviceError(future, "too hot")
        #expect(error.status == 0x7468_6D21)
        #expect(error.description == "too hot")
        func name(_ error: AudioDeviceError) -> String {
            switch error.code {
            case .notFound: "not found"
            case .disconnected: "disconnected"
            default: "other"
            }
        }
        #expect(name(error) == "other")
        #expect(name(AudioDeviceError(.disconnected, "gone")) == "disconnected")
        // An error matches its code in a pattern.
        #expect(AudioDeviceError.Code.disconnected ~= AudioDeviceError(.disconnected, "gone"))
    }

    /// Each event kind carries what it says, and nothing else.
    @Test func eventsCarryTheirPayload() {
        let started = AudioDeviceEvent.started(hostTime: 42)
        #expect(started.kind == .started && started.hostTime == 42 && started.error == nil && started.device == nil)
        let stopped = AudioDeviceEvent.stopped(drained: true)
        #expect(stopped.kind == .stopped && stopped.drained && stopped.hostTime == nil)
        let failure = AudioDeviceError(.disconnected, "the server went away")
        let failed = AudioDeviceEvent.failed(failure)
        #expect(failed.kind == .failed && failed.error == failure && !failed.drained)
        let info = AudioDeviceInfo(backend: "pulse", name: "sink2", description: "Second sink")
        let moved = AudioDeviceEvent.moved(info)
        #expect(moved.kind == .moved && moved.device == info)
        #expect(AudioDeviceEvent.underrun.kind == .underrun && AudioDeviceEvent.overrun.kind == .overrun)
        #expect(Set([started, stopped, failed, moved, .underrun, .overrun].map(\.kind.rawValue)).count == 6)
        #expect(started.description == "started(hostTime: 42)")
        #expect(stopped.description == "stopped(drained: true)")
        #expect(failed.description == "failed(the server went away)")
        #expect(moved.description == "moved(pulse:sink2)")
        #expect(AudioDeviceEvent.underrun.description == "underrun")
    }

    /// A kind no release names round-trips, and a switch over kinds (or over events, through
    /// `~=`) reaches `default:`.
    @Test func unknownKindRoundTrips() {
        let kind = AudioDeviceEvent.Kind(rawValue: "thermalThrottle")
        #expect(kind.rawValue == "thermalThrottle")
        #expect(AudioDeviceEvent.Kind(rawValue: kind.rawValue) == kind)
        let event = AudioDeviceEvent(kind, hostTime: 7)
        #expect(event.kind == kind && event.hostTime == 7)
        func name(_ event: AudioDeviceEvent) -> String {
            switch event {
            case AudioDeviceEvent.Kind.started: "started"
            case AudioDeviceEvent.Kind.failed: "failed"
            default: "other"
            }
        }
        #expect(name(event) == "other")
        #expect(name(.started(hostTime: 1)) == "started")
        #expect(name(.failed(AudioDeviceError(.ioFailed, "x"))) == "failed")
        #expect(!(AudioDeviceEvent.Kind.started ~= event))
    }
}
