import Dispatch
import Flagstaff
import Foundation
import Synchronization
import Testing

@testable import FlagstaffUnleash

/// The lock-free publication of engine states: whole states only, and no state freed while a reader uses it.
@Suite("Unleash engine: lock-free state publication")
struct PublishedStateTests {
    /// Counts deinitialisations of the objects a test publishes.
    final class Tracked: Sendable {
        let generation: Int
        let freed: Counter

        init(_ generation: Int, freed: Counter) {
            self.generation = generation
            self.freed = freed
        }

        deinit { freed.value.wrappingAdd(1, ordering: .sequentiallyConsistent) }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        var current: Int { value.load(ordering: .sequentiallyConsistent) }
    }

    @Test("readers evaluating while a writer swaps states get every answer from one whole state")
    func answersComeFromWholeStates() async throws {
        // In state k the parent is on for even k and off for odd k, and the child (which depends on the parent)
        // carries the variant "v<k>": a whole state answers "v<even>" or disabled, a mix of two states does not.
        func state(_ generation: Int) throws -> Data {
            try TestState.body(features: [
                TestState.feature("parent", enabled: generation.isMultiple(of: 2)),
                TestState.feature(
                    "child",
                    extra: [
                        "dependencies": [["feature": "parent"]],
                        "variants": [["name": "v\(generation)", "weight": 1000, "stickiness": "default"]],
                    ]),
            ])
        }
        let states = try (0..<40).map(state)
        let engine = UnleashEngine()
        try engine.takeState(states[0])
        let context = UnleashContext(userId: "u")
        let mixed = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                for round in 1..<400 { try engine.takeState(states[round % states.count]) }
                return []
            }
            for _ in 0..<3 {
                group.addTask {
                    var mixed: [String] = []
                    for _ in 0..<4_000 {
                        let evaluation = engine.evaluate("child", context: context)
                        let variant = evaluation.variant
                        if variant.name == "disabled" {
                            if evaluation.enabled || variant.featureEnabled { mixed.append("\(evaluation)") }
                        } else if let generation = Int(variant.name.dropFirst()) {
                            if !generation.isMultiple(of: 2) || !evaluation.enabled { mixed.append("\(evaluation)") }
                        } else {
                            mixed.append("\(evaluation)")
                        }
                    }
                    return mixed
                }
            }
            return try await group.reduce([], +)
        }
        #expect(mixed.isEmpty, "\(mixed.prefix(3))")
    }

    @Test("an object replaced while a reader holds it is freed only after that read ends")
    func replacedObjectOutlivesItsReaders() throws {
        let freed = Counter()
        let published = PublishedReferenceBox(Tracked(0, freed: freed))
        let readerInside = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let observations = Counter()
        let writerFinished = Counter()

        done.enter()
        Thread.detachNewThread {
            published.read { first in
                readerInside.signal()
                // Wait (without a lock) until the writer has published generation 1: it is now waiting for us.
                while published.read({ $0.generation }) == 0 {}
                // Still inside the read of generation 0: it must not have been freed, and the writer not be done.
                if freed.current == 0 && first.generation == 0
                    && writerFinished.current == 0
                {
                    observations.value.wrappingAdd(1, ordering: .sequentiallyConsistent)
                }
            }
            done.leave()
        }
        done.enter()
        Thread.detachNewThread {
            readerInside.wait()
            published.update { _ in (Tracked(1, freed: freed), ()) }
            writerFinished.value.store(1, ordering: .sequentiallyConsistent)
            done.leave()
        }
        done.wait()
        #expect(observations.current == 1)
        // Once the read ended, the writer freed generation 0 (and only it).
        #expect(freed.current == 1)
        #expect(published.read { $0.generation } == 1)
    }

    @Test("every replaced object is freed: states do not pile up")
    func replacedObjectsAreFreed() {
        let freed = Counter()
        do {
            let published = PublishedReferenceBox(Tracked(0, freed: freed))
            for generation in 1...100 {
                published.update { _ in (Tracked(generation, freed: freed), ()) }
                #expect(freed.current == generation)
            }
            #expect(published.read { $0.generation } == 100)
        }
        // The last one goes with the publisher.
        #expect(freed.current == 101)
    }
}
