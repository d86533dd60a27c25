import AudioCodecs
import AudioCore
import AudioFileServices
import Dispatch
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One piece's decoded frames in the client format, and what went wrong decoding it.
///
/// A slot belongs to one thread at a time, handed over by semaphores: the worker decoding a
/// piece into it, then (after ``done``) the joining thread, then (after the window's semaphore
/// is released) the worker that takes the next piece for this slot. Hence `@unchecked Sendable`.
final class PieceSlot: @unchecked Sendable {
    /// Client-format buffers, one per batch of packets; the first ``used`` hold this piece.
    var outputs: [PCMBuffer] = []
    var used = 0
    /// The error that ended the piece early, as the single-threaded read reports it.
    var error: ExtAudioFileError?
    /// Packets of the piece (pre-roll excepted) concealed by the decoder.
    var badPackets = 0
    /// The packet after the last one decoded, when the file gave no more before the piece's end.
    var endedAt: Int64?
    /// Signalled when the piece is decoded.
    let done = DispatchSemaphore(value: 0)
    let packetBytes: UnsafeMutableRawBufferPointer
    let descriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>
    /// The decoder's output before conversion; nil when it is the client format.
    let decoded: PCMBuffer?

    init(packetBytes: Int, descriptions: Int, decoded: PCMBuffer?) {
        self.packetBytes = .allocate(byteCount: max(packetBytes, 16), alignment: 16)
        self.descriptions = .allocate(capacity: max(descriptions, 1))
        self.descriptions.initialize(repeating: AudioStreamPacketDescription(startOffset: 0, dataByteSize: 0))
        self.decoded = decoded
    }

    deinit {
        packetBytes.deallocate()
        descriptions.deallocate()
    }
}

/// Decodes the pieces of a file on worker threads into a window of ``PieceSlot``s that the
/// calling thread empties in order (``ExtAudioFile/readAll(maximumThreads:packetsPerPiece:_:)``).
///
/// Every property is immutable or synchronised (semaphores, a mutex, an atomic); the slots are
/// handed between threads as ``PieceSlot`` describes.
final class PieceDecoding: @unchecked Sendable {
    let file: AudioFile
    let converter: PCMConverter?
    let clientFormat: AudioStreamBasicDescription
    let batchFrames: Int
    let planner: BatchPlanner
    let firstPacket: Int64
    let packetsPerPiece: Int64
    let pieceCount: Int
    let slots: [PieceSlot]
    /// Free places in the window: a worker takes one before it takes a piece.
    private let window: DispatchSemaphore
    private let nextPiece = Guarded(0)
    private let cancelled = Atomic(false)
    private var threads: [pthread_t] = []

    init(
        file: AudioFile, converter: PCMConverter?, decodedFormat: AudioStreamBasicDescription, batchFrames: Int,
        planner: BatchPlanner, firstPacket: Int64, packetsPerPiece: Int64, pieceCount: Int, slotCount: Int
    ) {
        self.file = file
        self.converter = converter
        clientFormat = converter?.output ?? decodedFormat
        self.batchFrames = batchFrames
        self.planner = planner
        self.firstPacket = firstPacket
        self.packetsPerPiece = packetsPerPiece
        self.pieceCount = pieceCount
        let bytes = max(file.packetSizeUpperBound, 1) * planner.readable
        slots = (0..<slotCount).map { _ in
            PieceSlot(
                packetBytes: bytes, descriptions: planner.readable,
                decoded: converter == nil ? nil : PCMBuffer(format: decodedFormat, frameCapacity: batchFrames))
        }
        // Made empty and signalled: libdispatch traps when a semaphore is freed holding less
        // than its initial value, which this one may (the workers' last waits).
        window = DispatchSemaphore(value: 0)
        for _ in 0..<slotCount { window.signal() }
    }

    func pieceStart(_ index: Int) -> Int64 { firstPacket + Int64(index) * packetsPerPiece }
    func pieceEnd(_ index: Int) -> Int64 { min(pieceStart(index) + packetsPerPiece, file.packetCount) }

    /// Starts up to `count` worker threads; returns how many started.
    func start(threads count: Int) -> Int {
        for _ in 0..<count {
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { context in
                let job = Unmanaged<PieceDecoding>.fromOpaque(context!).takeRetainedValue()
                job.work()
                return nil
            }, context)
            guard status == 0 else {
                Unmanaged<PieceDecoding>.fromOpaque(context).release()
                break
            }
            threads.append(thread)
        }
        return threads.count
    }

    /// Waits until piece `index` is decoded and returns its slot.
    func wait(for index: Int) -> PieceSlot {
        let slot = slots[index % slots.count]
        slot.done.wait()
        return slot
    }

    /// Gives piece `index`'s slot back to the workers.
    func release(_ index: Int) { window.signal() }

    /// Stops the workers after the pieces they are decoding.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        for _ in threads { window.signal() }
    }

    /// Waits for every worker to end (after the last piece, or after ``cancel()``).
    func finish() {
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func work() {
        while true {
            window.wait()
            if cancelled.load(ordering: .acquiring) { return }
            let index = nextPiece.withLock { next in
                defer { next += 1 }
                return next
            }
            guard index < pieceCount else { return }
            let slot = slots[index % slots.count]
            decode(piece: index, into: slot)
            slot.done.signal()
        }
    }

    /// Decodes piece `index` with a decoder of its own, from its pre-roll on.
    private func decode(piece index: Int, into slot: PieceSlot) {
        slot.used = 0
        slot.error = nil
        slot.badPackets = 0
        slot.endedAt = nil
        let start = pieceStart(index), end = pieceEnd(index)
        let format = file.dataFormat
        let decoder: PacketDecoder
        do {
            decoder = try PacketDecoder(format: format, magicCookie: file.magicCookie)
        } catch {
            slot.error = .file(AudioFileError(.unsupportedDataFormat, "cannot decode \(format.formatID.messageName): \(error.reason)"))
            return
        }
        // A fresh decoder starts where any read's decoder for `start` would have started: the
        // pre-roll before it, or before the reset point it follows.
        var packet = planner.startPacket(for: start)
        var resetPoint = planner.resetPoint(for: start)
        while packet < end {
            if cancelled.load(ordering: .relaxed) { return }
            let plan = planner.plan(cursor: packet, keep: start, end: end, resetPoint: &resetPoint)
            if plan.reset { decoder.reset() }
            let packets: Int
            do {
                packets = try file.readPackets(
                    from: plan.from, count: plan.count, into: slot.packetBytes, descriptions: slot.descriptions
                ).packetCount
            } catch {
                slot.error = .file(error)
                return
            }
            guard packets > 0 else {
                slot.endedAt = packet
                return
            }
            if slot.used == slot.outputs.count {
                guard let buffer = PCMBuffer(format: clientFormat, frameCapacity: batchFrames) else {
                    slot.error = .codec(AudioCodecError(.formatNotSupported, "cannot hold \(batchFrames) frames of the client format"))
                    return
                }
                slot.outputs.append(buffer)
            }
            let output = slot.outputs[slot.used]
            output.frameLength = 0
            let target = slot.decoded ?? output
            target.frameLength = 0
            do {
                let bad = decoder.badPackets
                let used = try decoder.decode(
                    packets: packets, bytes: UnsafeRawBufferPointer(slot.packetBytes),
                    descriptions: file.needsDescriptions ? slot.descriptions : nil, dropping: min(plan.dropping, packets), into: target)
                slot.badPackets += decoder.badPackets - bad
                packet = plan.from + Int64(used)
                if let converter, let decoded = slot.decoded {
                    try converter.convert(decoded, appendingTo: output)
                }
            } catch {
                slot.error = .codec(error)
                return
            }
            if output.frameLength > 0 { slot.used += 1 }
        }
    }
}
