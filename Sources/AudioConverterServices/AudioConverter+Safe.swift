public import AudioCore
public import AudioCodecs

/// Packets (frames, for linear PCM) in arrays, as the converter's forms without pointers take
/// and give them: the bytes back to back — for non-interleaved linear PCM one channel after
/// another, each the same length — and a description per packet for formats whose packets vary
/// in size or duration.
public struct AudioConverterPackets: Sendable, Equatable {
    /// The bytes.
    public var data: [UInt8]
    /// Packets in ``data`` (frames, for linear PCM).
    public var packetCount: Int
    /// One per packet for formats whose packets vary; nil otherwise.
    public var descriptions: [AudioStreamPacketDescription]?

    /// `packetCount` packets (frames, for linear PCM) in `data`.
    public init(data: [UInt8], packetCount: Int, descriptions: [AudioStreamPacketDescription]? = nil) {
        self.data = data
        self.packetCount = packetCount
        self.descriptions = descriptions
    }
}

extension AudioConverter {
    /// ``fill(_:input:)`` without pointers: converts what `input` provides into at most
    /// `packetCapacity` output packets (frames, for linear PCM) and returns them with whether
    /// the stream has ended. `input` is called with the packets the converter would like and
    /// returns nil (or no packets) at the end of the stream. Each input is copied once; the
    /// output is allocated for `packetCapacity` packets of the largest size the output format has.
    ///
    /// Throws as ``fill(_:input:)`` does, and the input's error where it stopped the fill before
    /// anything was converted.
    public func fill(
        packetCapacity: Int, input: (Int) throws(AudioCodecError) -> AudioConverterPackets?
    ) throws(AudioCodecError) -> (packets: AudioConverterPackets, endOfStream: Bool) {
        let capacity = max(packetCapacity, 0)
        let out = outputFormat
        let regions = out.bufferCount
        let regionBytes = capacity * max(out.isPCM ? Int(out.bytesPerFrame) : maximumOutputPacketSize, 1)
        let varies = !out.isPCM && (out.bytesPerPacket == 0 || out.framesPerPacket == 0)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(regionBytes * regions, 1), alignment: 16)
        let descriptionStorage = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: varies ? max(capacity, 1) : 1)
        var held: UnsafeMutableRawBufferPointer?
        var heldDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?
        defer {
            storage.deallocate()
            descriptionStorage.deallocate()
            held?.deallocate()
            heldDescriptions?.deallocate()
        }
        let buffers = (0..<regions).map { UnsafeMutableRawBufferPointer(rebasing: storage[($0 * regionBytes)..<(($0 + 1) * regionBytes)]) }
        let output = AudioConverterOutput(
            buffers: buffers, packetCapacity: capacity, packetDescriptions: varies ? descriptionStorage : nil)
        let inputRegions = inputFormat.bufferCount
        let result = try fill(output) { (wanted: Int) throws(AudioCodecError) -> AudioConverterInputData? in
            held?.deallocate()
            heldDescriptions?.deallocate()
            held = nil
            heldDescriptions = nil
            guard let given = try input(wanted), given.packetCount > 0 else { return nil }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(given.data.count, 1), alignment: 16)
            copy.copyBytes(from: given.data)
            held = copy
            var descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
            if let list = given.descriptions {
                let d = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: max(list.count, 1))
                _ = d.initialize(from: list)
                heldDescriptions = d
                descriptions = UnsafeBufferPointer(rebasing: d[0..<list.count])
            }
            let per = given.data.count / inputRegions
            let pieces = (0..<inputRegions).map { UnsafeRawBufferPointer(rebasing: copy[($0 * per)..<(($0 + 1) * per)]) }
            return AudioConverterInputData(buffers: pieces, packetCount: given.packetCount, packetDescriptions: descriptions)
        }
        if let error = result.inputError, result.packetCount == 0 { throw error }
        var data: [UInt8] = []
        data.reserveCapacity(result.byteCount * regions)
        for buffer in buffers { data += UnsafeRawBufferPointer(rebasing: buffer[0..<result.byteCount]) }
        let descriptions = varies ? Array(descriptionStorage[0..<result.packetCount]) : nil
        return (AudioConverterPackets(data: data, packetCount: result.packetCount, descriptions: descriptions), result.endOfStream)
    }

    /// Converts every packet of `input` and ends the stream: the whole output, the
    /// converter's and encoder's tails included. For a converter used once; call ``reset()``
    /// to use it again.
    public func convertAll(_ input: AudioConverterPackets) throws(AudioCodecError) -> AudioConverterPackets {
        var given = false
        var all = AudioConverterPackets(data: [], packetCount: 0, descriptions: nil)
        while true {
            let (packets, ended) = try fill(packetCapacity: 4096) { _ throws(AudioCodecError) in
                defer { given = true }
                return given ? nil : input
            }
            if var descriptions = packets.descriptions {
                let base = Int64(all.data.count)
                for i in descriptions.indices { descriptions[i].startOffset += base }
                all.descriptions = (all.descriptions ?? []) + descriptions
            }
            all.data += packets.data
            all.packetCount += packets.packetCount
            if ended || packets.packetCount == 0 { return all }
        }
    }

    /// Converts the frames of `buffer` (linear PCM of the input format) into a new buffer of
    /// the output format (linear PCM of the same rate): Apple's `AudioConverterConvertComplexBuffer`
    /// without pointers. Throws `formatNotSupported` otherwise.
    public func convert(_ buffer: PCMBuffer) throws(AudioCodecError) -> PCMBuffer {
        guard buffer.format == inputFormat else {
            throw AudioCodecError(.formatNotSupported, "buffer format \(buffer.format) is not the input format \(inputFormat)")
        }
        guard let output = PCMBuffer(format: outputFormat, frameCapacity: buffer.frameLength) else {
            throw AudioCodecError(.formatNotSupported, "converting a buffer needs linear PCM of one rate on both sides")
        }
        let input = (0..<buffer.regionCount).map { UnsafeRawBufferPointer(rebasing: buffer.region($0)[0..<buffer.byteLength]) }
        let regions = (0..<output.regionCount).map { output.region($0) }
        output.frameLength = try convert(frameCount: buffer.frameLength, input: input, output: regions)
        return output
    }
}
