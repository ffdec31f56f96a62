import Foundation
import Synchronization
import Testing

@testable import FlagstaffRemote

/// The lock-free publication behind `RemoteConfig`'s reads. Run under `--sanitize=thread` for the race checks.
@Suite("PublishedSnapshot")
struct PublishedSnapshotTests {
    final class Box: Sendable {
        let first: Int
        let second: Int
        init(_ value: Int) {
            first = value
            second = value
        }
    }

    @Test("a publish frees the replaced snapshots when no read is under way, and keeps them while one is")
    func reclamation() {
        var original: Box? = Box(0)
        weak let replaced = original
        let cell = PublishedSnapshot(original ?? Box(-1))
        original = nil
        cell.read { reading in
            cell.publish(Box(1))
            #expect(cell.retiredCount == 1, "a read is under way: the replaced snapshot is kept")
            #expect(reading.first == 0)
        }
        #expect(replaced != nil)
        cell.publish(Box(2))
        #expect(cell.retiredCount == 0)
        #expect(replaced == nil, "freed by the first publish with no read under way")
        #expect(cell.read { $0.first } == 2)
    }

    @Test("readers on several threads always see a whole snapshot while another thread publishes")
    func concurrentReads() {
        let cell = PublishedSnapshot(Box(0))
        let stop = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<3 {
            finished.enter()
            Thread {
                defer { finished.leave() }
                while !stop.load(ordering: .relaxed) {
                    if cell.read({ $0.first != $0.second }) { torn.add(1, ordering: .relaxed) }
                    reads.add(1, ordering: .relaxed)
                }
            }.start()
        }
        for value in 1...20_000 { cell.publish(Box(value)) }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(cell.read { $0.first } == 20_000)
        cell.publish(Box(0))
        #expect(cell.retiredCount == 0, "with the readers gone, every replaced snapshot is freed")
    }
}
