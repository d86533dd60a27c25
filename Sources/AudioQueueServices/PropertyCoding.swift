import AudioCore

/// The byte layouts of `AudioQueue.h` that both queue types' untyped property calls use: a
/// 40-byte `AudioStreamBasicDescription`, an `AudioChannelLayout` (12-byte header plus 20 bytes
/// per description), UInt32 values.
enum PropertyCoding {
    static func bytes(of f: AudioStreamBasicDescription) -> [UInt8] {
        var out: [UInt8] = []
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        put(f.sampleRate); put(f.formatID.rawValue); put(f.formatFlags.rawValue); put(f.bytesPerPacket)
        put(f.framesPerPacket); put(f.bytesPerFrame); put(f.channelsPerFrame); put(f.bitsPerChannel); put(UInt32(0))
        return out
    }

    /// Copies a property's value into `data`; `invalidPropertySize` when it is too small.
    static func copy(_ bytes: [UInt8], id: UInt32, into data: UnsafeMutableRawBufferPointer) throws(AudioQueueError) -> Int {
        guard data.count >= bytes.count else {
            throw AudioQueueError(.invalidPropertySize, "'\(FourCharCode(rawValue: id))' needs \(bytes.count) bytes, not \(data.count)")
        }
        bytes.withUnsafeBytes { data.baseAddress?.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return bytes.count
    }

    /// A 4-byte UInt32 value; `invalidPropertySize` for any other size.
    static func u32(_ data: UnsafeRawBufferPointer, id: UInt32) throws(AudioQueueError) -> UInt32 {
        guard data.count == 4 else {
            throw AudioQueueError(.invalidPropertySize, "'\(FourCharCode(rawValue: id))' is a 4-byte UInt32, not \(data.count) bytes")
        }
        return data.loadUnaligned(as: UInt32.self)
    }

    static func layout(from data: UnsafeRawBufferPointer) throws(AudioQueueError) -> AudioChannelLayout? {
        if data.isEmpty { return nil }
        guard data.count >= 12 else {
            throw AudioQueueError(.invalidPropertySize, "a channel layout is at least 12 bytes, not \(data.count)")
        }
        let count = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        // At least the descriptions it counts: programs pass sizeof(AudioChannelLayout) (room
        // for one description) with a tag or bitmap and none, and a Mac takes that.
        guard count <= 64, data.count >= 12 + 20 * count else {
            throw AudioQueueError(.invalidPropertySize, "a channel layout with \(count) descriptions is at least \(12 + 20 * min(count, 1 << 20)) bytes, not \(data.count)")
        }
        // The size holds the descriptions counted, so the layout is always read.
        return AudioChannelLayout(nativeBytes: data, maximumDescriptions: 64)
    }

    /// Channel assignments from their untyped bytes (see `UntypedQueueProperties`): per entry
    /// the UInt32 channel number, the UInt32 UID length and the UID's UTF-8 bytes; empty for
    /// none. `invalidPropertySize` when the entries do not fill the bytes exactly,
    /// `invalidPropertyValue` for a UID that is not UTF-8.
    static func assignments(from data: UnsafeRawBufferPointer) throws(AudioQueueError) -> [AudioQueueChannelAssignment] {
        var out: [AudioQueueChannelAssignment] = []
        var offset = 0
        while offset < data.count {
            guard data.count - offset >= 8, out.count < 64 else {
                throw AudioQueueError(.invalidPropertySize, "channel assignments: \(data.count - offset) bytes left over")
            }
            let number = data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let length = Int(data.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            offset += 8
            guard length <= data.count - offset else {
                throw AudioQueueError(.invalidPropertySize, "channel assignments: a UID of \(length) bytes runs past the value")
            }
            guard let uid = String(validating: UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]), as: UTF8.self) else {
                throw AudioQueueError(.invalidPropertyValue, "channel assignments: the device UID is not UTF-8")
            }
            offset += length
            out.append(AudioQueueChannelAssignment(deviceUID: uid, channelNumber: Int(number)))
        }
        return out
    }

    /// The untyped bytes of `assignments` (what ``assignments(from:)`` reads).
    static func bytes(of assignments: [AudioQueueChannelAssignment]) -> [UInt8] {
        var out: [UInt8] = []
        for a in assignments {
            let uid = Array(a.deviceUID.utf8)
            withUnsafeBytes(of: UInt32(clamping: a.channelNumber)) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(uid.count)) { out.append(contentsOf: $0) }
            out.append(contentsOf: uid)
        }
        return out
    }
}
