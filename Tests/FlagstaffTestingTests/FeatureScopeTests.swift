import Flagstaff
import FlagstaffTesting
import Testing

struct CheckoutFeatures: FeatureGroup {
    let newCheckout = Feature()
    let expressPay = Feature(default: true)
}

/// One registry shared by every test in this file, so parallel tests really race on the same flags.
let shared = FeatureRegistry(CheckoutFeatures(), store: InMemoryOverrideStore())

struct ForcedFailure: Error {}

@Suite struct FeatureScopeTests {
    @Test func enabledAndDisabledScopes() {
        #expect(!shared.newCheckout.enabled)
        withFeature(shared.newCheckout).enabled {
            #expect(shared.newCheckout.enabled)
            #expect(shared.newCheckout.resolution.source == .testOverride)
            withFeature(shared.newCheckout).disabled {
                #expect(!shared.newCheckout.enabled)
            }
            #expect(shared.newCheckout.enabled)
        }
        #expect(!shared.newCheckout.enabled)
    }

    @Test func severalFeaturesAtOnce() {
        withFeatures([shared.newCheckout, shared.expressPay]).disabled {
            #expect(!shared.newCheckout.enabled && !shared.expressPay.enabled)
        }
        withFeatures([shared.newCheckout: true, shared.expressPay: false]) {
            #expect(shared.newCheckout.enabled && !shared.expressPay.enabled)
        }
        #expect(!shared.newCheckout.enabled && shared.expressPay.enabled)
    }

    @Test func restoredWhenBodyThrows() {
        #expect(throws: ForcedFailure.self) {
            try withFeature(shared.expressPay).disabled { throw ForcedFailure() }
        }
        #expect(shared.expressPay.enabled)
    }

    @Test func winsOverPersistedOverrideAndWritesNothing() throws {
        let store = InMemoryOverrideStore(["newCheckout": .off])
        let registry = FeatureRegistry(CheckoutFeatures(), store: store)
        withFeature(registry.newCheckout).enabled {
            #expect(registry.newCheckout.enabled)
        }
        #expect(store.load() == ["newCheckout": .off])
        #expect(!registry.newCheckout.enabled)
    }

    @Test func asyncScopeReachesChildTasks() async {
        let seen = await withFeature(shared.newCheckout).enabled {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { shared.newCheckout.enabled } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        #expect(seen == Array(repeating: true, count: 8))
        #expect(!shared.newCheckout.enabled)
    }

    @Test func asyncScopeRestoredWhenBodyThrows() async {
        await #expect(throws: ForcedFailure.self) {
            try await withFeature(shared.newCheckout).enabled {
                await Task.yield()  // a suspension point inside the scope
                throw ForcedFailure()
            }
        }
        #expect(!shared.newCheckout.enabled)
    }
}

/// Many tests running in parallel force the same flag to different values; each must only see its own.
@Suite struct ParallelIsolationTests {
    @Test(arguments: 0..<32)
    func eachParallelTestSeesOnlyItsOwnValue(index: Int) async {
        let value = index.isMultiple(of: 2)
        await withFeature(shared.newCheckout).forced(value) {
            for _ in 0..<50 {
                #expect(shared.newCheckout.enabled == value)
                await Task.yield()  // let the other cases run in between
            }
        }
    }
}
