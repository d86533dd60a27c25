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
