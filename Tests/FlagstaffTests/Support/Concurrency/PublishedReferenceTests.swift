import FlagstaffTestSupport
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

/// An immutable object that counts its deinitialisations.
private final class Tracked: Sendable {
    let number: Int
    let freed: FreedCount

    init(_ number: Int, freed: FreedCount) {
        self.number = number
        self.freed = freed
        freed.made.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    deinit { freed.value.wrappingAdd(1, ordering: .sequentiallyConsistent) }
}

private final class FreedCount: Sendable {
    let value = Atomic<Int>(0)
    /// Objects created (an update that loses a race builds one more, freed at once).
    let made = Atomic<Int>(0)
    var current: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// A reference shared between threads (a noncopyable value cannot be captured by an escaping closure).
private final class Shared: Sendable {
    let reference: PublishedReference<Tracked>
    init(_ reference: consuming PublishedReference<Tracked>) { self.reference = reference }
}

@Suite struct PublishedReferenceTests {
    @Test func anEmptyReferenceReadsNothingUntilPublished() {
        let freed = FreedCount()
        let reference = PublishedReference<Tracked>()
        let publishedAtFirst = reference.isPublished
        #expect(!publishedAtFirst)
        #expect(reference.readIfPublished { $0.number } == nil)
        reference.replace { Tracked(($0?.number ?? 0) + 1, freed: freed) }
        let publishedThen = reference.isPublished
        #expect(publishedThen)
        #expect(reference.readIfPublished { $0.number } == 1)
        #expect(reference.read { $0.number } == 1)
    }

    @Test func replacedObjectsAreFreedAndTheLastGoesWithTheReference() {
        let freed = FreedCount()
        do {
            let reference = PublishedReference(Tracked(0, freed: freed))
            for number in 1...50 {
                reference.update { current in (Tracked(current.number + 1, freed: freed), ()) }
                #expect(freed.current == number)
            }
            reference.publish(Tracked(100, freed: freed))
            #expect(freed.current == 51)
            #expect(reference.read { $0.number } == 100)
        }
        #expect(freed.current == 52)
    }

    @Test func anObjectReturnedFromAReadOutlivesItsReplacement() {
        let freed = FreedCount()
        let reference = PublishedReference(Tracked(1, freed: freed))
        let kept = reference.read { $0 }
        reference.publish(Tracked(2, freed: freed))
        #expect(freed.current == 0, "the read retained what it returned")
        #expect(kept.number == 1)
    }

    @Test func anUpdateThatThrowsChangesNothing() {
        struct Refused: Error {}
        let freed = FreedCount()
        let reference = PublishedReference(Tracked(1, freed: freed))
        #expect(throws: Refused.self) {
            try reference.update { _ throws(Refused) -> (Tracked, Void) in throw Refused() }
        }
        #expect(reference.read { $0.number } == 1)
        #expect(freed.current == 0)
    }

    @Test func anObjectReplacedDuringAReadIsFreedOnlyAfterTheRead() async throws {
        let freed = FreedCount()
        let shared = Shared(PublishedReference(Tracked(0, freed: freed)))
        // Another reference's writer too: every writer waits for every reader in the process.
        let other = Shared(PublishedReference(Tracked(0, freed: freed)))
        let readerInside = DispatchSemaphore(value: 0)
        let writersStarted = DispatchSemaphore(value: 0)
        let writersDone = Atomic<Int>(0)
        let sawFreedInside = Atomic<Bool>(true)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            shared.reference.read { first in
                readerInside.signal()
                writersStarted.wait()
                // Give the writers time to publish and start waiting for this read: nothing tells when they wait (a
                // writer that did not wait would free the object now, and the check below would see it).
                Thread.sleep(forTimeInterval: 0.2)
                sawFreedInside.store(
                    freed.current != 0 || first.number != 0 || writersDone.load(ordering: .sequentiallyConsistent) != 0,
                    ordering: .sequentiallyConsistent)
            }
        }
        DispatchQueue.global().async(group: done) {
            readerInside.wait()
            writersStarted.signal()
            shared.reference.publish(Tracked(1, freed: freed))
            other.reference.publish(Tracked(1, freed: freed))
            writersDone.add(1, ordering: .sequentiallyConsistent)
        }
        // Waited for on a thread of its own: the test does not hold a cooperative thread meanwhile.
        try await offCooperativePool { done.wait() }
        let sawFreed = sawFreedInside.load(ordering: .sequentiallyConsistent)
        #expect(!sawFreed)
        #expect(freed.current == 2)
        #expect(shared.reference.read { $0.number } == 1)
    }

    @Test func concurrentUpdatesLoseNoneAndFreeEveryReplacedObject() {
        let freed = FreedCount()
        let shared = Shared(PublishedReference(Tracked(0, freed: freed)))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                shared.reference.update { current in (Tracked(current.number + 1, freed: freed), ()) }
                _ = shared.reference.read { $0.number }
            }
        }
        #expect(shared.reference.read { $0.number } == 2_000)
        // Every object but the published one is freed: the 2,000 replaced and any built by an update that lost a
        // race and ran again.
        #expect(freed.current == freed.made.load(ordering: .sequentiallyConsistent) - 1)
        #expect(freed.current >= 2_000)
    }

    @Test func racingFirstPublicationsKeepOneObject() {
        let freed = FreedCount()
        let shared = Shared(PublishedReference())
        let kept = AnnotatedMutex<Set<Int>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let number = shared.reference.publishIfEmpty(Tracked(thread, freed: freed)) { $0.number }
            kept.withLock { _ = $0.insert(number) }
        }
        #expect(kept.withLock { $0.count } == 1)
        #expect(shared.reference.readIfPublishedOnce { $0.number } == kept.withLock { $0.first })
        #expect(freed.current < 8, "the kept object is alive")
    }
}
