import AudioDevices

/// One queue channel's place on a device (Apple's `AudioQueueChannelAssignment`): the device
/// channel a queue channel plays to or records from.
///
/// A queue takes one per channel (``AudioQueue/setChannelAssignments(_:)``,
/// ``AudioInputQueue/setChannelAssignments(_:)``), in the order of its format's channels: a
/// stereo queue with `[("pulse:quad", 3), ("pulse:quad", 4)]` plays on the third and fourth
/// channels of a four-channel sink, silence on the first two.
public struct AudioQueueChannelAssignment: Hashable, Sendable {
    /// The device's UID (`backend:name`, what ``AudioQueue/currentDevice`` holds). Every
    /// assignment of a queue names the same device.
    public var deviceUID: String
    /// The device channel, counting from 1.
    public var channelNumber: Int

    /// Queue channel to device channel `channelNumber` (from 1) of device `deviceUID`.
    public init(deviceUID: String, channelNumber: Int) {
        self.deviceUID = deviceUID
        self.channelNumber = channelNumber
    }
}

/// A queue's channel assignments once checked: the device they name and where each channel goes.
struct AssignedChannels: Sendable {
    let assignments: [AudioQueueChannelAssignment]
    let uid: String
    /// The 0-based device channel of each queue channel, and how many channels the device is
    /// opened with: its own count when its backend lists it, else the highest assigned.
    let placement: ChannelPlacement
}

extension QueueCore where Side: DeviceSide {
    /// Sets or clears (`list` empty) the channel assignments; only while stopped. The queue
    /// moves to the device they name, opened at the next start with the device's channels.
    ///
    /// `offlineChannels` gives the channel count of the offline render format, when the queue
    /// renders offline: that is the "device" then. `invalidPropertySize` for a count other than
    /// `queueChannels`; `invalidPropertyValue` for assignments naming different devices,
    /// channel numbers below 1, past the device's channels or repeated, and for clearing them
    /// while an offline format needs them; `invalidDevice` when no backend has the UID's name;
    /// `invalidRunState` unless stopped.
    func assignChannels(
        _ driver: DeviceDriver<Side.Device>, _ list: [AudioQueueChannelAssignment], queueChannels: Int, direction: AudioDeviceDirection,
        offlineChannels: @escaping (Side) -> Int?, call: StaticString = #function
    ) throws(AudioQueueError) {
        // Checking the list asks the device's server: inside a tap, refused before that.
        try refuseInsideTap(call)
        let offline = try state.withLock { s throws(AudioQueueError) -> Int? in
            try s.checkUsable()
            return offlineChannels(s.side)
        }
        let assigned = try list.isEmpty ? nil : Self.check(list, queueChannels: queueChannels, direction: direction, offlineChannels: offline)
        try transitions.run { () throws(AudioQueueError) in
            let old = try state.withLock { s throws(AudioQueueError) -> Side.Device? in
                try s.checkUsable()
                guard s.phase.isStopped else {
                    throw AudioQueueError(.invalidRunState, "channel assignments can be changed only while the queue is stopped")
                }
                if let offline = offlineChannels(s.side) {
                    let highest = assigned.map { ($0.placement.deviceChannelIndices.max() ?? 0) + 1 } ?? queueChannels
                    guard highest <= offline, assigned != nil || offline == queueChannels else {
                        throw AudioQueueError(.invalidPropertyValue, assigned == nil
                            ? "the offline render format has \(offline) channels: it needs channel assignments"
                            : "channel \(highest) is past the offline render format's \(offline) channels")
                    }
                }
                // Clearing none changes nothing (a device the program supplied stays).
                if assigned == nil && s.side.session.assignments == nil { return nil }
                // The device opened for the old assignments (or none) will not do.
                let uid = assigned?.uid ?? s.side.session.requestedUID
                let old = s.side.session.replace(with: nil, owned: false, uid: uid)
                s.side.session.assignments = assigned
                return old
            }
            if let old { driver.close(old) }
        }
    }

    /// Checks `list` against the queue and the device it names (no lock held: listing a
    /// server's devices takes a round trip).
    static func check(
        _ list: [AudioQueueChannelAssignment], queueChannels: Int, direction: AudioDeviceDirection, offlineChannels: Int?
    ) throws(AudioQueueError) -> AssignedChannels {
        guard list.count == queueChannels else {
            throw AudioQueueError(.invalidPropertySize, "\(list.count) channel assignments for a queue of \(queueChannels) channels")
        }
        let uid = list[0].deviceUID
        guard !uid.isEmpty, list.allSatisfy({ $0.deviceUID == uid }) else {
            throw AudioQueueError(.invalidPropertyValue, "the channel assignments must all name one device")
        }
        let numbers = list.map(\.channelNumber)
        guard numbers.allSatisfy({ $0 >= 1 && $0 <= 64 }), Set(numbers).count == numbers.count else {
            throw AudioQueueError(.invalidPropertyValue, "channel numbers \(numbers): each from 1 to 64, none twice")
        }
        let backendName = String(uid.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard AudioBackends.backend(named: backendName) != nil else {
            throw AudioQueueError(.invalidDevice, "no audio backend '\(backendName)'")
        }
        let highest = numbers.max()!
        var deviceChannels = highest
        if let offlineChannels {
            deviceChannels = offlineChannels
        } else if let listed = AudioBackends.listedDevice(uid: uid, direction: direction)?.channels {
            deviceChannels = listed
        }
        guard highest <= deviceChannels,
              let placement = ChannelPlacement(deviceChannelIndices: numbers.map { $0 - 1 }, deviceChannels: deviceChannels) else {
            throw AudioQueueError(.invalidPropertyValue, "channel \(highest) is past the \(deviceChannels) channels of \(uid)")
        }
        return AssignedChannels(assignments: list, uid: uid, placement: placement)
    }
}

extension AudioQueue {
    /// Plays the queue's channels on the device channels `assignments` name, one per queue
    /// channel in order (`kAudioQueueProperty_ChannelAssignments`); empty clears them. The
    /// queue moves to the device they name (its ``currentDevice``), opened at the next start
    /// with all its channels (as many as its backend lists, else the highest assigned), silence
    /// on the channels not assigned. Offline, the offline render format's channels are the
    /// device's (``setOfflineRenderFormat(_:channelLayout:)`` then takes a wider format).
    ///
    /// Only while stopped (`invalidRunState`). `invalidPropertySize` unless there is one per
    /// queue channel; `invalidPropertyValue` when they name different devices, or a channel
    /// number is below 1, past the device's channels or repeated; `invalidDevice` when no
    /// backend has the UID's name.
    public func setChannelAssignments(_ assignments: [AudioQueueChannelAssignment]) throws(AudioQueueError) {
        try core.assignChannels(
            Self.driver, assignments, queueChannels: channels, direction: .output,
            offlineChannels: { $0.offline.map { Int($0.format.channelsPerFrame) } })
    }

    /// The channel assignments set; nil for none. (Apple's property is write-only: the C API's
    /// `AudioQueueGetProperty` refuses it.)
    public var channelAssignments: [AudioQueueChannelAssignment]? {
        core.state.withLock { $0.side.session.assignments?.assignments }
    }
}

extension AudioInputQueue {
    /// Records the queue's channels from the device channels `assignments` name, one per
    /// queue channel in order (`kAudioQueueProperty_ChannelAssignments`); empty clears them.
    /// The queue moves to the device they name, opened at the next start with all its channels
    /// (as many as its backend lists, else the highest assigned); the others are not recorded.
    /// Errors as for ``AudioQueue/setChannelAssignments(_:)``, and `invalidDevice` for a queue
    /// made with a device of another channel count (it records that many channels, mapped).
    public func setChannelAssignments(_ assignments: [AudioQueueChannelAssignment]) throws(AudioQueueError) {
        let deviceChannels = try capture.withLock { $0.deviceChannels }
        guard deviceChannels == channels || assignments.isEmpty else {
            throw AudioQueueError(.invalidDevice, "the queue was made for a device of \(deviceChannels) channels; channel assignments need one of its own")
        }
        try core.assignChannels(Self.driver, assignments, queueChannels: channels, direction: .input, offlineChannels: { _ in nil })
    }

    /// The channel assignments set; nil for none.
    public var channelAssignments: [AudioQueueChannelAssignment]? {
        core.state.withLock { $0.side.session.assignments?.assignments }
    }
}

extension AudioQueueChannelAssignment {
    /// What `setProperty(_:from:)` takes for `kAudioQueueProperty_ChannelAssignments`: per
    /// assignment the UInt32 channel number, the UInt32 length of the UID and its UTF-8 bytes.
    package static func untypedBytes(_ assignments: [AudioQueueChannelAssignment]) -> [UInt8] {
        PropertyCoding.bytes(of: assignments)
    }
}
