public import CAudioToolbox
import AudioDevices
import Locking

// <CoreAudio/AudioHardware.h>: the IOProc functions. A device ID that names no device is
// kAudioHardwareBadDeviceError; a NULL IOProc, time or result pointer, and an IOProc ID the
// device does not know, kAudioHardwareIllegalOperationError; the time of a device that is not
// running, kAudioHardwareNotRunningError.

private func status(_ body: () throws(HALError) -> Void) -> OSStatus { HALError.status(body) }

private func key(_ proc: AudioDeviceIOProcID) -> UInt { UInt(bitPattern: unsafeBitCast(proc, to: UnsafeRawPointer.self)) }

/// The IDs `AudioDeviceCreateIOProcID` gave out: each an address of its own (never an
/// IOProc's, which `AudioDeviceAddIOProc` uses as the ID), kept until destroyed.
private enum MadeIDs {
    static let table = Guarded<[UInt: UnsafeMutableRawPointer]>([:])

    static func make() -> AudioDeviceIOProcID {
        let address = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        table.withLock { $0[UInt(bitPattern: address)] = address }
        return unsafeBitCast(UnsafeRawPointer(address), to: AudioDeviceIOProcID.self)
    }

    static func release(_ key: UInt) {
        table.withLock { $0.removeValue(forKey: key) }?.deallocate()
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceCreateIOProcID")
public func _AudioDeviceCreateIOProcID(
    _ inDevice: AudioObjectID, _ inProc: AudioDeviceIOProc?, _ inClientData: UnsafeMutableRawPointer?,
    _ outIOProcID: UnsafeMutablePointer<AudioDeviceIOProcID?>?
) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let inProc, let outIOProcID else { throw .illegal }
        let id = MadeIDs.make()
        guard device.register(key: key(id), proc: inProc, clientData: inClientData) else {
            MadeIDs.release(key(id))
            throw .unspecified
        }
        outIOProcID.pointee = id
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceDestroyIOProcID")
public func _AudioDeviceDestroyIOProcID(_ inDevice: AudioObjectID, _ inIOProcID: AudioDeviceIOProcID?) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let inIOProcID, try device.unregister(key(inIOProcID)) else { throw .illegal }
        MadeIDs.release(key(inIOProcID))
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceAddIOProc")
public func _AudioDeviceAddIOProc(_ inDevice: AudioObjectID, _ inProc: AudioDeviceIOProc?, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let inProc else { throw .illegal }
        guard device.register(key: key(inProc), proc: inProc, clientData: inClientData) else { throw .unspecified }
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceRemoveIOProc")
public func _AudioDeviceRemoveIOProc(_ inDevice: AudioObjectID, _ inProc: AudioDeviceIOProc?) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let inProc, try device.unregister(key(inProc)) else { throw .illegal }
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceRead")
public func _AudioDeviceRead(
    _ inDevice: AudioObjectID, _ inStartTime: UnsafePointer<CAudioToolbox.AudioTimeStamp>?,
    _ outData: UnsafeMutablePointer<CAudioToolbox.AudioBufferList>?
) -> OSStatus {
    status { () throws(HALError) in
        _ = try IOProcDevices.device(inDevice)
        throw HALError(status: kAudioHardwareUnsupportedOperationError)
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceStart")
public func _AudioDeviceStart(_ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?) -> OSStatus {
    status { () throws(HALError) in
        try IOProcDevices.device(inDevice).start(inProcID.map(key))
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceStop")
public func _AudioDeviceStop(_ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?) -> OSStatus {
    status { () throws(HALError) in
        try IOProcDevices.device(inDevice).stop(inProcID.map(key))
    }
}

// MARK: Time

private let frameFlags = AudioTimeStampFlags([.sampleTimeValid, .hostTimeValid, .rateScalarValid])

/// A time stamp on the device's line: sample time `sample`, its host time, rate scalar 1.
private func stamp(_ sample: Double, _ line: (rate: Double, hostOfZero: UInt64)) -> CAudioToolbox.AudioTimeStamp {
    var t = CAudioToolbox.AudioTimeStamp()
    t.mSampleTime = sample
    let offset = sample / line.rate * 1e9
    t.mHostTime = offset >= 0 ? line.hostOfZero &+ UInt64(offset) : line.hostOfZero &- UInt64(-offset)
    t.mRateScalar = 1
    t.mFlags = frameFlags
    return t
}

/// The device's line (its rate and the host time of sample 0); kAudioHardwareNotRunningError
/// when it does not run. Before its first cycle, sample 0 is now.
private func runningLine(_ device: IOProcDevice) throws(HALError) -> (rate: Double, hostOfZero: UInt64) {
    guard device.isRunning else { throw HALError(status: kAudioHardwareNotRunningError) }
    if let line = device.clock.line { return line }
    let rate = HALObjects.current.device(device.id).map(HALDeviceSettings.sampleRate(of:)) ?? 44100
    return (rate, HostTime.now())
}

@_spi(CImplementation) @_cdecl("AudioDeviceGetCurrentTime")
public func _AudioDeviceGetCurrentTime(_ inDevice: AudioObjectID, _ outTime: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let outTime else { throw .illegal }
        let line = try runningLine(device)
        let now = HostTime.now()
        let sample = (now >= line.hostOfZero ? Double(now - line.hostOfZero) : -Double(line.hostOfZero - now)) * line.rate / 1e9
        var t = stamp(sample.rounded(.down), line)
        t.mHostTime = now
        outTime.pointee = t
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceTranslateTime")
public func _AudioDeviceTranslateTime(
    _ inDevice: AudioObjectID, _ inTime: UnsafePointer<CAudioToolbox.AudioTimeStamp>?, _ outTime: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?
) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let inTime, let outTime else { throw .illegal }
        let line = try runningLine(device)
        let given = inTime.pointee
        let sample: Double
        if given.mFlags.contains(.sampleTimeValid) {
            sample = given.mSampleTime
        } else if given.mFlags.contains(.hostTimeValid) {
            let host = given.mHostTime
            sample = (host >= line.hostOfZero ? Double(host - line.hostOfZero) : -Double(line.hostOfZero - host)) * line.rate / 1e9
        } else {
            throw .illegal
        }
        let wanted = outTime.pointee.mFlags.isEmpty ? frameFlags : outTime.pointee.mFlags.intersection(frameFlags)
        var t = stamp(sample, line)
        t.mFlags = wanted
        if !wanted.contains(.sampleTimeValid) { t.mSampleTime = 0 }
        if !wanted.contains(.hostTimeValid) { t.mHostTime = 0 }
        if !wanted.contains(.rateScalarValid) { t.mRateScalar = 0 }
        outTime.pointee = t
    }
}

/// The first cycle boundary at or after the requested time: its output sample time (input
/// with kAudioDeviceStartTimeIsInputFlag), no earlier than the next cycle's.
private func nearestStart(_ device: IOProcDevice, _ requested: CAudioToolbox.AudioTimeStamp, _ flags: UInt32) throws(HALError) -> Double {
    let line = try runningLine(device)
    let frames = Double(ioBufferFrames(for: device.id))
    let isInput = flags & kAudioDeviceStartTimeIsInputFlag != 0
    // The next cycle: cycle k has now (k+1)·N, input k·N, output (k+2)·N.
    let next = Double(device.clock.cycleCount) * frames + (isInput ? 0 : 2 * frames)
    var wanted = next
    if requested.mFlags.contains(.sampleTimeValid) {
        wanted = requested.mSampleTime
    } else if requested.mFlags.contains(.hostTimeValid) {
        let host = requested.mHostTime
        wanted = (host >= line.hostOfZero ? Double(host - line.hostOfZero) : -Double(line.hostOfZero - host)) * line.rate / 1e9
    }
    return max(next, (wanted / frames).rounded(.up) * frames)
}

@_spi(CImplementation) @_cdecl("AudioDeviceGetNearestStartTime")
public func _AudioDeviceGetNearestStartTime(
    _ inDevice: AudioObjectID, _ ioRequestedStartTime: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?, _ inFlags: UInt32
) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let ioRequestedStartTime else { throw .illegal }
        let sample = try nearestStart(device, ioRequestedStartTime.pointee, inFlags)
        ioRequestedStartTime.pointee = stamp(sample, try runningLine(device))
    }
}

@_spi(CImplementation) @_cdecl("AudioDeviceStartAtTime")
public func _AudioDeviceStartAtTime(
    _ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?, _ ioRequestedStartTime: UnsafeMutablePointer<CAudioToolbox.AudioTimeStamp>?,
    _ inFlags: UInt32
) -> OSStatus {
    status { () throws(HALError) in
        let device = try IOProcDevices.device(inDevice)
        guard let ioRequestedStartTime else { throw .illegal }
        let isInput = inFlags & kAudioDeviceStartTimeIsInputFlag != 0
        if device.isRunning {
            let sample = try nearestStart(device, ioRequestedStartTime.pointee, inFlags)
            try device.start(inProcID.map(key), startSample: sample, startIsInput: isInput)
            ioRequestedStartTime.pointee = stamp(sample, try runningLine(device))
        } else {
            // A device that was not running starts now: its first cycle is the start.
            try device.start(inProcID.map(key))
            let frames = Double(ioBufferFrames(for: device.id))
            ioRequestedStartTime.pointee = stamp(isInput ? 0 : 2 * frames, try runningLine(device))
        }
    }
}
