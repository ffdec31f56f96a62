import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffServer

/// The bodies a change prepares: the new snapshot renders (and compresses) what the one it replaces was asked for,
/// so the clients' refetches find them made; a body is made once even when asked for at the same time.
@Suite struct PreparedBodyTests {
    @Test("a new snapshot prepares the bodies its predecessor was asked for, compressed as they were asked")
    func preparesWhatWasAsked() throws {
        let registry = try ServedFixtures.registry()
        let renders = AnnotatedMutex(0)
        let chunks: @Sendable (ServedSnapshot) -> BodyChunks = { snapshot in
            renders.withLock { $0 += 1 }
            return OFREPBodies.bulkChunks(snapshot)
        }
        let before = ServedSnapshot(registry: registry)
        let first = before.reply(.ofrepBulk, variant: "host", ifNoneMatch: nil, acceptsGzip: true, chunks: chunks)
        #expect(first.contentEncoding == "gzip")
        #expect(renders.withLock { $0 } == 1)

        try registry.setOverrideValues(["maxItems": .set(OverrideValue(json: "55"))])
        let after = ServedSnapshot(registry: registry)
        after.prepareBodies(like: before)
        #expect(renders.withLock { $0 } == 2, "rendered ahead of any request")
        let asked = after.reply(.ofrepBulk, variant: "host", ifNoneMatch: nil, acceptsGzip: true, chunks: chunks)
        #expect(renders.withLock { $0 } == 2, "the request finds it made")
        #expect(asked.contentEncoding == "gzip")
        #expect(asked.allBytes == OFREPBodies.bulk(after))
        #expect(asked.allBytes != first.allBytes)
        // Another variant was never asked for: not prepared.
        _ = after.reply(.ofrepBulk, variant: "other", ifNoneMatch: nil, chunks: chunks)
        #expect(renders.withLock { $0 } == 3)
    }

    @Test("a body only prepared, never asked for, is not prepared again by the next change")
    func preparesOnlyWhatIsStillAsked() throws {
        let registry = try ServedFixtures.registry()
        let renders = AnnotatedMutex(0)
        let chunks: @Sendable (ServedSnapshot) -> BodyChunks = { snapshot in
            renders.withLock { $0 += 1 }
            return OFREPBodies.bulkChunks(snapshot)
        }
        let first = ServedSnapshot(registry: registry)
        _ = first.reply(.ofrepBulk, variant: "poller", ifNoneMatch: nil, chunks: chunks)
        var previous = first
        // The poller asked once: the next change prepares its body, the ones after it no longer.
        for (change, expected) in [(1, 2), (2, 2), (3, 2)] {
            try registry.setOverrideValues(["maxItems": .set(OverrideValue(json: "\(50 + change)"))])
            let next = ServedSnapshot(registry: registry)
            next.prepareBodies(like: previous)
            #expect(renders.withLock { $0 } == expected, "change \(change)")
            previous = next
        }
        // Asked again (plain, as before): the change after prepares it again, still uncompressed.
        let asked = previous.reply(.ofrepBulk, variant: "poller", ifNoneMatch: nil, chunks: chunks)
        #expect(asked.contentEncoding == nil)
        #expect(renders.withLock { $0 } == 3)
        try registry.setOverrideValues(["maxItems": .set(OverrideValue(json: "60"))])
        let last = ServedSnapshot(registry: registry)
        last.prepareBodies(like: previous)
        #expect(renders.withLock { $0 } == 4)
        #expect(
            last.reply(.ofrepBulk, variant: "poller", ifNoneMatch: nil, chunks: chunks).allBytes
                == OFREPBodies.bulk(last))
        #expect(renders.withLock { $0 } == 4)
    }

    @Test("the change feed prepares, on each change it sees, the bodies the snapshot it replaces was asked for")
    func feedPreparesOnChange() async throws {
        let registry = try ServedFixtures.registry()
        let feed = ChangeFeed(live: LiveSnapshot(registry: registry), firstID: 1)
        let renders = AnnotatedMutex(0)
        let chunks: @Sendable (ServedSnapshot) -> BodyChunks = { snapshot in
            renders.withLock { $0 += 1 }
            return OFREPBodies.bulkChunks(snapshot)
        }
        _ = feed.latest.snapshot.reply(.ofrepBulk, variant: "host", ifNoneMatch: nil, chunks: chunks)
        #expect(renders.withLock { $0 } == 1)
        // The loop ticks after each look for a change (each time: the interval is zero), once that change's bodies
        // are prepared; the revision it saw then tells the test that the change has been handled.
        let handled = AnnotatedMutex<UInt32>(1)
        let following = Task {
            await feed.run(pollInterval: .seconds(3600), tickInterval: .zero) {
                let id = feed.latest.id
                handled.withLock { $0 = id }
            }
        }
        defer {
            following.cancel()
            feed.stop()
        }
        // The registry's change handler nudges the feed: no request, no poll.
        try registry.setOverrideValues(["maxItems": .set(OverrideValue(json: "55"))])
        #expect(await eventually { handled.withLock { $0 } == 2 }, "the feed did not see the change")
        #expect(renders.withLock { $0 } == 2, "rendered by the feed, ahead of any request")
        let asked = feed.latest.snapshot.reply(.ofrepBulk, variant: "host", ifNoneMatch: nil, chunks: chunks)
        #expect(renders.withLock { $0 } == 2, "the request finds it made")
        #expect(asked.allBytes == OFREPBodies.bulk(feed.latest.snapshot))
    }

    @Test("requests that come together for a body not made yet make it once")
    func madeOnce() async throws {
        let snapshot = ServedSnapshot(registry: try ServedFixtures.registry())
        let renders = AnnotatedMutex(0)
        let chunks: @Sendable (ServedSnapshot) -> BodyChunks = { snapshot in
            renders.withLock { $0 += 1 }
            return UnleashBodies.frontendChunks(snapshot)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { _ = snapshot.reply(.frontend, ifNoneMatch: nil, acceptsGzip: true, chunks: chunks) }
            }
        }
        #expect(renders.withLock { $0 } == 1)
    }
}
