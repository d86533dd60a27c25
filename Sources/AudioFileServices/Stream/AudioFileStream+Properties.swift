import AudioCore

extension AudioFileStream {
    /// `kAudioFileStreamProperty_AverageBytesPerPacket`: the packet size where it is constant,
    /// else the audio data's bytes over its packets where the header gives both, else the
    /// average frame so far (ADTS, MPEG audio); nil before any is known.
    public var averageBytesPerPacket: Double? {
        if let format = known.dataFormat, format.bytesPerPacket > 0 { return Double(format.bytesPerPacket) }
        if let bytes = known.byteCount, let packets = known.packetCount, packets > 0 { return Double(bytes) / Double(packets) }
        return (cutter as? FrameCutter)?.averageBytesPerPacket
    }

    /// `kAudioFileStreamProperty_BitRate`, in bits per second, from ``averageBytesPerPacket``.
    public var bitRate: Int? {
        guard let format = known.dataFormat, format.framesPerPacket > 0, format.sampleRate > 0,
              let average = averageBytesPerPacket
        else { return nil }
        let bits = average * 8 * format.sampleRate / Double(format.framesPerPacket)
        return bits.isFinite && bits >= 0 ? Int(UInt32(clamping: Int64(min(bits.rounded(), 4e9)))) : nil
    }

    /// `kAudioFileStreamProperty_InfoDictionary`: the stream's metadata under Apple's keys (the
    /// first value of each key).
    public var infoDictionary: [String: String] {
        var out: [String: String] = [:]
        for (key, value) in known.info where out[key] == nil { out[key] = value }
        return out
    }

    /// `kAudioFileStreamProperty_PacketToFrame`: the first frame of `packet`.
    public func frame(forPacket packet: Int64) throws(AudioFileStreamError) -> Int64 {
        guard packet >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is negative") }
        if let table = (cutter as? TableCutter)?.table, !table.frames.isEmpty {
            guard packet <= Int64(table.count) else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is beyond the stream") }
            var frame: Int64 = 0
            for i in 0..<Int(packet) { frame += Int64(table.framesInPacket(i)) }
            return frame
        }
        let perPacket = try framesPerPacket()
        let (frame, overflow) = packet.multipliedReportingOverflow(by: perPacket)
        guard !overflow else { throw AudioFileStreamError(.invalidPacketOffset, "packet \(packet) is too far") }
        return frame
    }

    /// `kAudioFileStreamProperty_FrameToPacket`: the packet holding `frame`, and where in it.
    public func packet(forFrame frame: Int64) throws(AudioFileStreamError) -> (packet: Int64, frameOffsetInPacket: Int) {
        guard frame >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "frame \(frame) is negative") }
        if let table = (cutter as? TableCutter)?.table, !table.frames.isEmpty {
            var first: Int64 = 0
            var packet = 0
            while packet < table.count, first + Int64(table.framesInPacket(packet)) <= frame {
                first += Int64(table.framesInPacket(packet))
                packet += 1
            }
            return (Int64(packet), Int(clamping: frame - first))
        }
        let perPacket = try framesPerPacket()
        return (frame / perPacket, Int(frame % perPacket))
    }

    /// `kAudioFileStreamProperty_PacketToByte`: where `packet` starts in the audio data, and
    /// whether that is an estimate (see ``seek(toPacket:)``).
    public func byteOffset(forPacket packet: Int64) throws(AudioFileStreamError) -> (byteOffset: Int64, isEstimated: Bool) {
        guard let cutter, known.ready else { throw AudioFileStreamError(.dataUnavailable, "the parser is not ready to produce packets yet") }
        let result = try cutter.byteOffset(ofPacket: packet)
        return (result.offset, result.isEstimated)
    }

    /// `kAudioFileStreamProperty_ByteToPacket`: the packet at `byteOffset` in the audio data, the
    /// offset in it, and whether that is an estimate.
    public func packet(forByteOffset byteOffset: Int64) throws(AudioFileStreamError) -> (packet: Int64, byteOffsetInPacket: Int, isEstimated: Bool) {
        guard byteOffset >= 0 else { throw AudioFileStreamError(.invalidPacketOffset, "byte offset \(byteOffset) is negative") }
        guard known.ready, let cutter else { throw AudioFileStreamError(.dataUnavailable, "the parser is not ready to produce packets yet") }
        if let table = (cutter as? TableCutter)?.table, let dataOffset = known.dataOffset {
            let (target, overflow) = byteOffset.addingReportingOverflow(dataOffset)
            guard !overflow else { throw AudioFileStreamError(.invalidPacketOffset, "byte offset \(byteOffset) lies beyond any stream") }
            var low = 0, high = table.count
            while low < high {
                let mid = (low + high) / 2
                if table.offsets[mid] <= target { low = mid + 1 } else { high = mid }
            }
            let packet = max(0, low - 1)
            return (Int64(packet), Int(clamping: max(0, target - (table.offsets.isEmpty ? target : table.offsets[packet]))), false)
        }
        if let format = known.dataFormat, format.bytesPerPacket > 0 {
            let size = Int64(format.bytesPerPacket)
            return (byteOffset / size, Int(byteOffset % size), false)
        }
        guard let average = averageBytesPerPacket, average > 0 else {
            throw AudioFileStreamError(.dataUnavailable, "no packet has been parsed yet")
        }
        let packet = (Double(byteOffset) / average).rounded(.down)
        return (Int64(min(packet, 9e18)), 0, true)
    }

    private func framesPerPacket() throws(AudioFileStreamError) -> Int64 {
        guard let format = known.dataFormat else { throw AudioFileStreamError(.dataUnavailable, "the data format is not known yet") }
        guard format.framesPerPacket > 0 else { throw AudioFileStreamError(.valueUnknown, "packets of varying frame counts") }
        return Int64(format.framesPerPacket)
    }
}
