import Foundation
import Testing
import Locking
import Synchronization

/// The package's sequence lock (`Published`), through which devices publish their clocks, and
/// the position that never goes back (`MonotonicPosition`).
@Suite("Published values")
struct PublishedTests {
    /// Four words that must always be seen together: a reader that saw one write's first
    /// fields with another's last would find them disagree.
    struct Quad: Equatable {
        var a: Int64
        var b: Double
        var c: UInt64
        var flag: Bool
        static func of(_ n: Int64) -> Quad { Quad(a: n, b: Double(-n), c: UInt64(n) &* 3, flag: n % 2 == 0) }
    }

    @Test func aReaderNeverSeesHalfOfAWrite() {
        let published = Published(Quad.of(0))
        let torn = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let readers = DispatchGroup()
        for _ in 0..<2 {
            readers.enter()
            Thread {
                var last: Int64 = 0
                while !done.load(ordering: .acquiring) {
                    let q = published.read()
                    if q != Quad.of(q.a) || q.a < last { torn.add(1, ordering: .relaxed) }
                    last = q.a
                    reads.add(1, ordering: .relaxed)
                }
                readers.leave()
            }.start()
        }
        for n in 1...200_000 { published.publish(Quad.of(Int64(n))) }
        done.store(true, ordering: .releasing)
        readers.wait()
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(published.read() == Quad.of(200_000))
    }

    @Test func aValueOfOneByteAndOneOfManyWords() {
        let small = Published(UInt8(7))
        small.publish(200)
        #expect(small.read() == 200)
        let large = Published((1.5, 2.5, Int64(-3), UInt64.max, Int32(9)))
        #expect(large.read().3 == UInt64.max && large.read().0 == 1.5 && large.read().4 == 9)
    }

    @Test func thePositionNeverGoesBackWithinAnEpoch() {
        let position = MonotonicPosition()
        #expect(position.advance(to: 100, epoch: 1) == 100)
        #expect(position.advance(to: 90, epoch: 1) == 100)
        #expect(position.advance(to: 150, epoch: 1) == 150)
        // A new epoch (a new stream) starts again from what it says.
        #expect(position.advance(to: 10, epoch: 2) == 10)
        // An older epoch's reading answers the newest epoch's position.
        #expect(position.advance(to: 500, epoch: 1) == 10)
        #expect(position.advance(to: -5, epoch: 3) == 0)
    }
}
