public import AudioCore

/// Where a stream's channels sit among a device's channels: what an audio queue's channel
/// assignments (`kAudioQueueProperty_ChannelAssignments`) become at the device.
///
/// Channel `i` of the stream is device channel ``deviceChannelIndices``[i] (0-based); the
/// device's other channels carry silence on output and are dropped on input.
public struct ChannelPlacement: Hashable, Sendable {
    /// The device channel (0-based) of each stream channel, all different.
    public let deviceChannelIndices: [Int]
    /// The channels the device is opened with: at least the highest placed channel.
    public let deviceChannels: Int

    /// A placement of `deviceChannelIndices.count` stream channels into a device of
    /// `deviceChannels` channels; nil when an index is negative, repeated or not below
    /// `deviceChannels`, or there is none.
    public init?(deviceChannelIndices: [Int], deviceChannels: Int) {
        guard !deviceChannelIndices.isEmpty, deviceChannels <= 64,
              deviceChannelIndices.allSatisfy({ $0 >= 0 && $0 < deviceChannels }),
              Set(deviceChannelIndices).count == deviceChannelIndices.count else { return nil }
        self.deviceChannelIndices = deviceChannelIndices
        self.deviceChannels = deviceChannels
    }

    /// The stream's channel count.
    public var streamChannels: Int { deviceChannelIndices.count }

    /// True when the placement changes nothing: every channel in its own place, none added.
    public var isIdentity: Bool { deviceChannels == streamChannels && deviceChannelIndices == Array(0..<streamChannels) }

    /// Writes `frames` interleaved stream frames from `stream` into `device` (interleaved,
    /// ``deviceChannels`` wide): each channel in its place, silence in the others.
    public func place(_ stream: UnsafePointer<Float>, into device: UnsafeMutablePointer<Float>, frames: Int) {
        let inCount = streamChannels, outCount = deviceChannels
        device.update(repeating: 0, count: frames * outCount)
        deviceChannelIndices.withUnsafeBufferPointer { slots in
            for f in 0..<frames {
                let from = stream + f * inCount, to = device + f * outCount
                for c in 0..<inCount { to[slots[c]] = from[c] }
            }
        }
    }

    /// Reads `frames` interleaved device frames from `device` and writes the placed channels,
    /// in the stream's order, into `stream`.
    public func pick(_ device: UnsafePointer<Float>, into stream: UnsafeMutablePointer<Float>, frames: Int) {
        let outCount = streamChannels, inCount = deviceChannels
        deviceChannelIndices.withUnsafeBufferPointer { slots in
            for f in 0..<frames {
                let from = device + f * inCount, to = stream + f * outCount
                for c in 0..<outCount { to[c] = from[slots[c]] }
            }
        }
    }
}

/// An output device opened with all the channels a ``ChannelPlacement`` needs, presented to
/// its source as a device of the placement's stream channels: what the source renders goes to
/// the placed channels, silence to the rest.
///
/// ``format`` is the stream's (the source renders that many channels); ``deviceFormat`` is the
/// device's. The source's frames pass through a buffer of the wrapper's own, allocated once:
/// nothing is allocated on the I/O thread.
public final class PlacedOutputDevice: AudioOutputDevice, AudioRenderSource, @unchecked Sendable {
    /// The device the audio goes to, opened with ``ChannelPlacement/deviceChannels``.
    public let device: any AudioOutputDevice
    /// Where the stream's channels go.
    public let placement: ChannelPlacement
    public let format: AudioStreamBasicDescription
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames: Int
    // Set before the device starts (its start orders the write before the I/O thread's reads),
    // and again only for another source; read only on the I/O thread.
    nonisolated(unsafe) private var source: (any AudioRenderSource)?

    /// Wraps `device`, which must have been opened with `placement.deviceChannels` channels;
    /// `formatNotSupported` when it was not.
    public init(device: any AudioOutputDevice, placement: ChannelPlacement) throws(AudioDeviceError) {
        guard Int(device.format.channelsPerFrame) == placement.deviceChannels else {
            throw AudioDeviceError(.formatNotSupported, "\(device.info.uid) plays \(device.format.channelsPerFrame) channels, not the \(placement.deviceChannels) the channel assignments need")
        }
        self.device = device
        self.placement = placement
        format = .deviceFloat(sampleRate: device.format.sampleRate, channels: placement.streamChannels)
        scratchFrames = 2048
        scratch = .allocate(capacity: scratchFrames * placement.streamChannels)
        scratch.initialize(repeating: 0, count: scratchFrames * placement.streamChannels)
    }

    deinit { scratch.deallocate() }

    public var info: AudioDeviceInfo { device.info }
    /// What the device plays: all its channels.
    public var deviceFormat: AudioStreamBasicDescription { device.format }

    public func start(source: any AudioRenderSource) throws(AudioDeviceError) {
        // Written only when it changes (a queue starts its device with the same feed every
        // time): a paused stream's I/O thread may still read it.
        if self.source !== source { self.source = source }
        try device.start(source: self)
    }

    public func stop(drain: Bool) { device.stop(drain: drain) }
    public func pause() { device.pause() }
    public var presentationDelay: Int { device.presentationDelay }
    public var framesRendered: Int64 { device.framesRendered }
    public var framesPlayed: Int64 { device.framesPlayed }
    public func sourceHasAudio() { device.sourceHasAudio() }
    public func close() { device.close() }

    // MARK: The device's source

    public func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard let source else { return 0 }
        var done = 0
        while done < frameCount {
            let asked = min(scratchFrames, frameCount - done)
            let got = min(max(source.render(into: scratch, frameCount: asked), 0), asked)
            placement.place(scratch, into: buffer + done * placement.deviceChannels, frames: got)
            done += got
            if got < asked { break }
        }
        return done
    }

    public func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        guard let source else { return (0, true) }
        var done = 0
        while done < frameCount {
            let asked = min(scratchFrames, frameCount - done)
            let (frames, ended) = source.renderReady(into: scratch, frameCount: asked)
            let got = min(max(frames, 0), asked)
            placement.place(scratch, into: buffer + done * placement.deviceChannels, frames: got)
            done += got
            if ended { return (done, true) }
            if got < asked { break }
        }
        return (done, false)
    }

    public func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent) {
        source?.device(self, didReport: event)
    }
}

extension AudioBackends {
    /// The device a UID names (`backend:name`; a bare backend name or `backend:default` for its
    /// default), as its backend lists it for `direction`; nil when no registered backend has
    /// that name, the backend cannot list its devices, or does not list that one (ALSA PCM
    /// names and file paths are open-ended: a backend opens more than it lists).
    public static func listedDevice(uid: String, direction: AudioDeviceDirection) -> AudioDeviceInfo? {
        let (backendName, name) = split(uid)
        guard let backend = backend(named: backendName), let devices = try? backend.devices() else { return nil }
        let candidates = devices.filter { $0.direction == direction }
        guard let name, name != "default" else { return candidates.first { $0.isDefault } }
        return candidates.first { $0.name == name }
    }
}

/// A backend whose devices can take a stream's channels by index — the stream's channel N on
/// the device's channel N — where it would otherwise place them by the positions it gives them
/// (PulseAudio remaps channels by name). Devices opened for a ``ChannelPlacement`` are opened
/// so; a backend that is not one already plays channel N on the device's channel N (ALSA, a
/// file).
public protocol AudioIndexedChannelsBackend: AudioBackend {
    /// Opens output `name` as ``AudioBackend/makeOutput(name:sampleRate:channels:bufferFrames:)``
    /// does, by index with `channelsByIndex`.
    func makeOutput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioOutputDevice
    /// Opens input `name` as ``AudioBackend/makeInput(name:sampleRate:channels:bufferFrames:)``
    /// does, by index with `channelsByIndex`.
    func makeInput(name: String?, sampleRate: Double, channels: Int, bufferFrames: Int, channelsByIndex: Bool) throws(AudioDeviceError) -> any AudioInputDevice
}

extension AudioBackends {
    /// Opens the output a UID names with `placement.deviceChannels` channels, taken by index,
    /// and wraps it in a ``PlacedOutputDevice`` of the placement's stream channels.
    public static func makePlacedOutput(uid: String, sampleRate: Double, placement: ChannelPlacement, bufferFrames: Int) throws(AudioDeviceError) -> PlacedOutputDevice {
        let (backendName, name) = split(uid)
        guard let backend = backend(named: backendName) else { throw AudioDeviceError(.notFound, "no audio backend '\(backendName)'") }
        let channels = placement.deviceChannels
        let device: any AudioOutputDevice
        if let indexed = backend as? any AudioIndexedChannelsBackend {
            device = try indexed.makeOutput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, channelsByIndex: true)
        } else {
            device = try backend.makeOutput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        do throws(AudioDeviceError) {
            return try PlacedOutputDevice(device: device, placement: placement)
        } catch {
            device.close()
            throw error
        }
    }

    /// Opens the input a UID names with `placement.deviceChannels` channels, taken by index,
    /// and wraps it in a ``PlacedInputDevice`` of the placement's stream channels.
    public static func makePlacedInput(uid: String, sampleRate: Double, placement: ChannelPlacement, bufferFrames: Int) throws(AudioDeviceError) -> PlacedInputDevice {
        let (backendName, name) = split(uid)
        guard let backend = backend(named: backendName) else { throw AudioDeviceError(.notFound, "no audio backend '\(backendName)'") }
        let channels = placement.deviceChannels
        let device: any AudioInputDevice
        if let indexed = backend as? any AudioIndexedChannelsBackend {
            device = try indexed.makeInput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, channelsByIndex: true)
        } else {
            device = try backend.makeInput(name: name, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames)
        }
        do throws(AudioDeviceError) {
            return try PlacedInputDevice(device: device, placement: placement)
        } catch {
            device.close()
            throw error
        }
    }
}
