public import AudioCore
public import AudioQueueServices
import Locking

/// What an input queue's callback got: each buffer's bytes, start time and packet count, in
/// order. Re-enqueues every buffer (as the guide's callback does) unless told to hold them.
public final class InputRecorder: @unchecked Sendable {
    public struct Delivery: Sendable {
        public let bytes: [UInt8]
        public let startTime: AudioTimeStamp
        public let packetCount: Int
        public let descriptions: [AudioStreamPacketDescription]?
        public let offCallbackQueue: Bool
    }

    private let state = Guarded<(deliveries: [Delivery], held: [AudioQueueBuffer], holding: Bool, enqueueErrors: [AudioQueueError.Code])>(
        ([], [], false, []))

    public init() {}

    /// The callback to give the queue.
    public var callback: AudioInputQueue.InputCallback {
        { [self] queue, buffer, start, packets, descriptions in
            let bytes = Array(UnsafeRawBufferPointer(start: buffer.audioData, count: buffer.audioDataByteSize))
            let delivery = Delivery(
                bytes: bytes, startTime: start, packetCount: packets, descriptions: descriptions.map(Array.init), offCallbackQueue: false)
            let hold = state.withLock { s -> Bool in
                s.deliveries.append(delivery)
                if s.holding { s.held.append(buffer) }
                return s.holding
            }
            if !hold {
                do throws(AudioQueueError) { try queue.enqueue(buffer) } catch {
                    state.withLock { $0.enqueueErrors.append(error.code) }
                }
            }
        }
    }

    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }
    public var count: Int { state.withLock { $0.deliveries.count } }
    public var enqueueErrors: [AudioQueueError.Code] { state.withLock { $0.enqueueErrors } }

    /// From now on buffers are kept, not re-enqueued.
    public func hold() { state.withLock { $0.holding = true } }

    /// Enqueues the buffers kept and re-enqueues again from now on.
    public func release(to queue: AudioInputQueue) throws {
        let held = state.withLock { s -> [AudioQueueBuffer] in
            s.holding = false
            defer { s.held = [] }
            return s.held
        }
        for buffer in held { try queue.enqueue(buffer) }
    }

    /// Every byte delivered, in order.
    public var allBytes: [UInt8] { deliveries.flatMap(\.bytes) }

    /// Every delivery's samples as native Float32.
    public var allFloats: [Float] {
        allBytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
