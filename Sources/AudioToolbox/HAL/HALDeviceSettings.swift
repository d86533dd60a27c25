import CAudioToolbox
import AudioDevices
import Locking

// What a program sets on a device through the HAL — its I/O buffer size
// (kAudioDevicePropertyBufferFrameSize) and its sample rate (kAudioDevicePropertyNominalSampleRate,
// or a stream's virtual or physical format) — kept for the process, per device ID. Nothing is
// opened when they are set: the device I/O opens its stream at these values, and the sound
// server (or alsa-lib's plug PCM) converts to the hardware's own rate.

enum HALDeviceSettings {
    /// The buffer size in frames of a device nothing has set.
    static let defaultBufferFrameSize: UInt32 = 512
    /// The buffer sizes a program may set (kAudioDevicePropertyBufferFrameSizeRange).
    static let bufferFrameSizeRange: ClosedRange<UInt32> = 16...8192
    /// The sample rates every backend opens a stream at (the server or alsa-lib converts), beside
    /// the device's own rate.
    static let standardRates: [Double] = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000]

    private struct Stored {
        var bufferFrameSize: [AudioObjectID: UInt32] = [:]
        var sampleRate: [AudioObjectID: Double] = [:]
    }

    private static let stored = Guarded(Stored())

    // MARK: Reading

    /// The I/O buffer size in frames of device `id`: what the program set, else
    /// ``defaultBufferFrameSize``.
    static func bufferFrameSize(of id: AudioObjectID) -> UInt32 {
        stored.withLock { $0.bufferFrameSize[id] } ?? defaultBufferFrameSize
    }

    /// The sample rate `device` runs at for this process: what the program set, else the
    /// device's own rate.
    static func sampleRate(of device: HALDevice) -> Double {
        stored.withLock { $0.sampleRate[device.id] } ?? device.sampleRate
    }

    /// The rates `device` can run at: the standard rates and its own, ascending.
    static func availableRates(of device: HALDevice) -> [Double] {
        Array(Set(standardRates + [device.sampleRate])).sorted()
    }

    /// The format of `device`'s stream on `direction` (interleaved native Float32 at
    /// ``sampleRate(of:)`` with the side's channels), or nil when the device lacks that side.
    static func streamFormat(of device: HALDevice, direction: AudioDeviceDirection) -> AudioStreamBasicDescription? {
        guard let channels = device.channels(direction) else { return nil }
        return floatFormat(rate: sampleRate(of: device), channels: channels)
    }

    /// The format of device `id`'s stream on `direction`, as ``streamFormat(of:direction:)``
    /// gives it for the device of the last listing; nil for an unknown device or a side it lacks.
    static func streamFormat(of id: AudioObjectID, direction: AudioDeviceDirection) -> AudioStreamBasicDescription? {
        guard let device = HALObjects.current.device(id) else { return nil }
        return streamFormat(of: device, direction: direction)
    }

    /// Interleaved native-endian Float32 at `rate` with `channels`.
    static func floatFormat(rate: Double, channels: Int) -> AudioStreamBasicDescription {
        let frameBytes = UInt32(4 * channels)
        return AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
            mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)
    }

    // MARK: Setting

    /// Sets device `id`'s buffer size: kAudioHardwareIllegalOperationError outside
    /// ``bufferFrameSizeRange``.
    static func setBufferFrameSize(_ frames: UInt32, of id: AudioObjectID) throws(HALError) {
        guard bufferFrameSizeRange.contains(frames) else { throw .illegal }
        stored.withLock { $0.bufferFrameSize[id] = frames }
    }

    /// Sets `device`'s sample rate: kAudioDeviceUnsupportedFormatError for a rate it cannot
    /// run at.
    static func setSampleRate(_ rate: Double, of device: HALDevice) throws(HALError) {
        guard availableRates(of: device).contains(rate) else { throw .unsupportedFormat }
        stored.withLock { $0.sampleRate[device.id] = rate }
    }

    /// Sets `device`'s stream format on `direction` from `format`: it must be the stream's
    /// format at one of ``availableRates(of:)`` (a rate of 0 keeps the current one); anything
    /// else is kAudioDeviceUnsupportedFormatError. Sets the device's rate.
    static func setStreamFormat(_ format: AudioStreamBasicDescription, of device: HALDevice, direction: AudioDeviceDirection) throws(HALError) {
        guard let current = streamFormat(of: device, direction: direction) else { throw .unknownProperty }
        let rate = format.mSampleRate == 0 ? current.mSampleRate : format.mSampleRate
        var wanted = format
        wanted.mSampleRate = rate
        guard rate.isFinite, sameLayout(wanted, current) else { throw .unsupportedFormat }
        try setSampleRate(rate, of: device)
    }

    /// Whether two formats agree in everything but the rate.
    private static func sameLayout(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
        a.mFormatID == b.mFormatID && a.mFormatFlags == b.mFormatFlags && a.mBytesPerPacket == b.mBytesPerPacket
            && a.mFramesPerPacket == b.mFramesPerPacket && a.mBytesPerFrame == b.mBytesPerFrame
            && a.mChannelsPerFrame == b.mChannelsPerFrame && a.mBitsPerChannel == b.mBitsPerChannel
    }
}
