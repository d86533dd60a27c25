import AudioDevices
import CPulseAudio

/// A stream on the server's default sink or source follows it: the server moves the stream
/// when the default changes, or when the sink or source it runs on goes away. The device then
/// describes the new one (looked up for its description) and tells its owner.
extension PulseStream {
    /// The server moved `moved` (on the loop's thread, lock held): looks up where to.
    func streamMoved(_ moved: OpaquePointer?) {
        guard isCurrent(moved), let stream, let cName = pa_stream_get_device_name(stream) else { return }
        let name = String(cString: cName)
        movingTo = name
        let me = Unmanaged.passUnretained(self).toOpaque()
        let operation: OpaquePointer?
        switch direction {
        case .output:
            operation = pa_context_get_sink_info_by_name(connection.context, cName, { _, info, eol, userdata in
                let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
                if let info { me.described(info.pointee.name, info.pointee.description) } else if eol != 0 { me.described(nil, nil) }
            }, me)
        case .input:
            operation = pa_context_get_source_info_by_name(connection.context, cName, { _, info, eol, userdata in
                let me = Unmanaged<PulseStream>.fromOpaque(userdata!).takeUnretainedValue()
                if let info { me.described(info.pointee.name, info.pointee.description) } else if eol != 0 { me.described(nil, nil) }
            }, me)
        }
        if operation == nil { described(nil, nil) } else { pulseDiscard(operation) }
    }

    /// The description of the sink or source the stream moved to has come (nil: the server
    /// did not give it; its name stands in).
    private func described(_ cName: UnsafePointer<CChar>?, _ cDescription: UnsafePointer<CChar>?) {
        guard let target = movingTo else { return }
        if let cName, String(cString: cName) != target { return }
        movingTo = nil
        let description = cDescription.map { String(cString: $0) } ?? target
        let info = currentInfo.withLock { info -> AudioDeviceInfo? in
            guard info.name != target else { return nil }
            info.name = target
            info.description = description
            info.isDefault = true
            info.note = nil
            return info
        }
        if let info { owner?.pulseStreamMoved(info) }
    }
}
