@testable import AudioToolbox
import Glibc
import Testing

/// What the C API lets go of, counted from the objects that hold it: a program that loops
/// over allocating and freeing keeps no more than it has live.
@Suite("C API: what is let go of")
struct LifetimeTests {
    static var format: AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
    }

    @Test("A freed buffer goes at once, however many are allocated and freed; its reference is refused after")
    func freedBuffersGo() throws {
        var format = Self.format
        var queue: AudioQueueRef?
        #expect(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue) == noErr)
        let q = try #require(queue)
        let box = try #require(QueueBox.find(q))
        var kept: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(q, 1024, &kept) == noErr)
        weak var last: AnyObject?
        for _ in 0..<5000 {
            var buffer: AudioQueueBufferRef?
            #expect(AudioQueueAllocateBufferWithPacketDescriptions(q, 4096, 16, &buffer) == noErr)
            let b = try #require(buffer)
            last = box.buffer(b)
            #expect(AudioQueueFreeBuffer(q, b) == noErr)
        }
        #expect(box.bufferCount == 1)
        #expect(last == nil, "the Swift buffer behind the last one freed (and its memory) is still held")

        // The freed reference names nothing now: refused with Apple's code, never read.
        var allocated: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(q, 4096, &allocated) == noErr)
        let freed = try #require(allocated)
        #expect(AudioQueueFreeBuffer(q, freed) == noErr)
        #expect(AudioQueueFreeBuffer(q, freed) == kAudioQueueErr_InvalidBuffer)
        #expect(AudioQueueEnqueueBuffer(q, freed, 0, nil) == kAudioQueueErr_InvalidBuffer)
        #expect(box.bufferCount == 1)
        #expect(AudioQueueDispose(q, true) == noErr)
    }

    /// What a thread saw of its run loop.
    final class Probe: @unchecked Sendable {
        weak var loop: AudioToolbox.RunLoop?
        var object: CFRunLoopRef?
        let retain: Bool
        init(retain: Bool) { self.retain = retain }
    }

    /// Runs a thread that asks for its run loop (and retains its object when `retain`), to
    /// its end.
    static func threadAskingForItsRunLoop(retain: Bool) -> Probe {
        let probe = Probe(retain: retain)
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let probe = Unmanaged<Probe>.fromOpaque(raw!).takeRetainedValue()
            let object = CFRunLoopGetCurrent()
            probe.loop = AudioToolbox.RunLoop.from(object)
            if probe.retain { probe.object = OpaquePointer(CFRetain(UnsafeRawPointer(object))) }
            return nil
        }, Unmanaged.passRetained(probe).toOpaque())
        #expect(status == 0)
        pthread_join(thread, nil)
        return probe
    }

    @Test("A thread's run loop goes when the thread ends, unless the program retained it")
    func threadRunLoopsGo() throws {
        // Each loop is watched through a weak reference of the test's own: a count of the
        // process's run loops would also move with the threads of tests running meanwhile.
        let probes = (0..<20).map { _ in Self.threadAskingForItsRunLoop(retain: false) }
        #expect(probes.filter { $0.loop != nil }.count == 0, "a run loop outlived its thread")

        // CFRetain keeps it (and its object) past its thread, as CF's does, until CFRelease.
        let retained = Self.threadAskingForItsRunLoop(retain: true)
        let object = try #require(retained.object)
        #expect(retained.loop != nil)
        #expect(AudioToolbox.RunLoop.from(object) === retained.loop)
        CFRunLoopStop(object)
        CFRelease(UnsafeRawPointer(object))
        #expect(retained.loop == nil)
    }
}
