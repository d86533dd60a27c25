/// Which device an ``AudioDeviceRequest`` asks for.
public enum AudioDeviceTarget: Hashable, Sendable {
    /// The default chain that ``AudioBackends`` describes: the backend and device the
    /// environment names, else the first sound backend that opens its default, else (for
    /// output, with no device named) the fallback backend's device.
    case defaultChain
    /// Backend `backend`'s default alone: the device `AUDIOQUEUE_DEVICE` (for input
    /// `AUDIOQUEUE_INPUT_DEVICE`) names when set, else the backend's own default. No other
    /// backend is tried and no file stands in: what a queue that follows the default opens
    /// again when its device goes away.
    case defaultOf(backend: String)
    /// The device a UID names (`backend:name`, or a bare backend name for its default).
    case uid(String)

    /// The device `uid` names when given, else backend `backend`'s default when given, else
    /// the default chain.
    public init(uid: String?, defaultOf backend: String?) {
        if let uid {
            self = .uid(uid)
        } else if let backend {
            self = .defaultOf(backend: backend)
        } else {
            self = .defaultChain
        }
    }
}

/// A device to open with ``AudioBackends/open(_:tried:)``: its direction, which device, the
/// format and buffer size it is opened with, and, with a ``ChannelPlacement``, where the
/// stream's channels sit among the device's.
///
/// `Device` is `any AudioOutputDevice` for output (`init(output:…)`) and
/// `any AudioInputDevice` for input (`init(input:…)`).
public struct AudioDeviceRequest<Device>: Sendable {
    /// Whether the device plays or records.
    public var direction: AudioDeviceDirection { hooks.direction }
    /// Which device.
    public var target: AudioDeviceTarget
    /// The rate of the interleaved Float32 the device takes or gives.
    public let sampleRate: Double
    /// The stream's channels: with a placement, its stream channels.
    public let channels: Int
    /// How much audio the caller keeps ahead (output) or takes at a time (input): a hint for
    /// the device's buffer.
    public let bufferFrames: Int
    /// Where the stream's channels sit: the device is then opened with
    /// ``ChannelPlacement/deviceChannels`` channels, taken by index where the backend places
    /// them by name (``AudioIndexedChannelsBackend``), and wrapped in a ``PlacedOutputDevice``
    /// or ``PlacedInputDevice`` of the stream's channels. nil: the device has the stream's.
    public let placement: ChannelPlacement?
    let hooks: AudioDirectionHooks<Device>

    init(_ hooks: AudioDirectionHooks<Device>, target: AudioDeviceTarget, sampleRate: Double, channels: Int, bufferFrames: Int, placement: ChannelPlacement?) {
        self.hooks = hooks
        self.target = target
        self.sampleRate = sampleRate
        self.channels = placement?.streamChannels ?? channels
        self.bufferFrames = bufferFrames
        self.placement = placement
    }

    /// Opens the device `name` of `backend` (nil: its default) as the request says.
    func open(on backend: any AudioBackend, name: String?) throws(AudioDeviceError) -> Device {
        guard let placement else { return try hooks.make(backend, name, sampleRate, channels, bufferFrames) }
        let device: Device
        if let indexed = backend as? any AudioIndexedChannelsBackend {
            device = try hooks.makeByIndex(indexed, name, sampleRate, placement.deviceChannels, bufferFrames)
        } else {
            device = try hooks.make(backend, name, sampleRate, placement.deviceChannels, bufferFrames)
        }
        return try placed(device)
    }

    /// `device`, wrapped for the placement if there is one; closed when it cannot be.
    func placed(_ device: Device) throws(AudioDeviceError) -> Device {
        guard let placement else { return device }
        do throws(AudioDeviceError) {
            return try hooks.place(device, placement)
        } catch {
            hooks.close(device)
            throw error
        }
    }
}

extension AudioDeviceRequest where Device == any AudioOutputDevice {
    /// An output of `channels` channels at `sampleRate`; see
    /// ``AudioBackend/makeOutput(name:sampleRate:channels:bufferFrames:)``.
    public init(output target: AudioDeviceTarget, sampleRate: Double, channels: Int, bufferFrames: Int) {
        self.init(.output, target: target, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, placement: nil)
    }

    /// An output with all the channels `placement` needs, playing the placement's stream
    /// channels in their places.
    public init(output target: AudioDeviceTarget, sampleRate: Double, placement: ChannelPlacement, bufferFrames: Int) {
        self.init(.output, target: target, sampleRate: sampleRate, channels: placement.streamChannels, bufferFrames: bufferFrames, placement: placement)
    }
}

extension AudioDeviceRequest where Device == any AudioInputDevice {
    /// An input of `channels` channels at `sampleRate`; see
    /// ``AudioBackend/makeInput(name:sampleRate:channels:bufferFrames:)``.
    public init(input target: AudioDeviceTarget, sampleRate: Double, channels: Int, bufferFrames: Int) {
        self.init(.input, target: target, sampleRate: sampleRate, channels: channels, bufferFrames: bufferFrames, placement: nil)
    }

    /// An input with all the channels `placement` needs, recording the placement's stream
    /// channels from their places.
    public init(input target: AudioDeviceTarget, sampleRate: Double, placement: ChannelPlacement, bufferFrames: Int) {
        self.init(.input, target: target, sampleRate: sampleRate, channels: placement.streamChannels, bufferFrames: bufferFrames, placement: placement)
    }
}

/// What differs between opening an output and an input: the backend's calls, the placed
/// wrapper, and the device that stands in when the default chain finds none (output only).
struct AudioDirectionHooks<Device>: Sendable {
    typealias Make<Backend> = @Sendable (
        _ backend: Backend, _ name: String?, _ sampleRate: Double, _ channels: Int, _ bufferFrames: Int
    ) throws(AudioDeviceError) -> Device

    let direction: AudioDeviceDirection
    let make: Make<any AudioBackend>
    let makeByIndex: Make<any AudioIndexedChannelsBackend>
    let place: @Sendable (Device, ChannelPlacement) throws(AudioDeviceError) -> Device
    let close: @Sendable (Device) -> Void
    /// The fallback backend's device, given why no sound backend opened one; nil: none stands in.
    let fallback: (@Sendable (any AudioFallbackBackend, _ sampleRate: Double, _ channels: Int, _ bufferFrames: Int, _ reason: String)
        throws(AudioDeviceError) -> Device)?
}

extension AudioDirectionHooks where Device == any AudioOutputDevice {
    /// Output: the backends' `makeOutput`, ``PlacedOutputDevice``, and the fallback's device.
    static var output: Self {
        Self(direction: .output, make: { b, name, rate, n, f throws(AudioDeviceError) in try b.makeOutput(name: name, sampleRate: rate, channels: n, bufferFrames: f) },
             makeByIndex: { b, name, rate, n, f throws(AudioDeviceError) in
                 try b.makeOutput(name: name, sampleRate: rate, channels: n, bufferFrames: f, channelsByIndex: true) },
             place: { d, placement throws(AudioDeviceError) in try PlacedOutputDevice(device: d, placement: placement) }, close: { $0.close() },
             fallback: { b, rate, n, f, why throws(AudioDeviceError) in try b.makeFallbackOutput(sampleRate: rate, channels: n, bufferFrames: f, reason: why) })
    }
}

extension AudioDirectionHooks where Device == any AudioInputDevice {
    /// Input: the backends' `makeInput` and ``PlacedInputDevice``; nothing stands in when no
    /// sound backend records.
    static var input: Self {
        Self(direction: .input, make: { b, name, rate, n, f throws(AudioDeviceError) in try b.makeInput(name: name, sampleRate: rate, channels: n, bufferFrames: f) },
             makeByIndex: { b, name, rate, n, f throws(AudioDeviceError) in
                 try b.makeInput(name: name, sampleRate: rate, channels: n, bufferFrames: f, channelsByIndex: true) },
             place: { d, placement throws(AudioDeviceError) in try PlacedInputDevice(device: d, placement: placement) }, close: { $0.close() }, fallback: nil)
    }
}
