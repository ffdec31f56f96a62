import Flagstaff
import FlagstaffTestSupport
import Testing

/// A registry applies each store snapshot by its differences from the previous one: after any mix of local
/// writes, writes by another process and resets, every flag's override is the store's entry.
@Suite struct OverrideApplyTests {
    func makeRegistry(_ store: any OverrideStore) throws -> FeatureRegistry {
        let flags = (0..<40).map { RegistryManifest.Flag(key: "flag\($0)") }
        return try FeatureRegistry(
            manifest: RegistryManifest(name: "Apply", flags: flags), store: store,
            options: RegistryOptions(storeWatchInterval: nil))
    }

    @Test func everyFlagMatchesTheStoreAfterRandomWrites() throws {
        let store = InMemoryOverrideStore(["flag3": .enabled, "unknown": .disabled])
        let registry = try makeRegistry(store)
        let other = try makeRegistry(store)  // another process on the same store
        var random = SeededRandom(seed: 42)
        let states: [OverrideState] = [.enabled, .disabled, .featureDefault]
        for step in 0..<300 {
            let keys = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                "flag\(Int.random(in: 0..<40, using: &random))"
            }
            let changes = Dictionary(
                keys.map { ($0, states.randomElement(using: &random)!) }, uniquingKeysWith: { a, _ in a })
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                try other.setOverrides(changes)
                registry.refreshFromStore()
            case 1:
                try other.resetAllOverrides()
                registry.refreshFromStore()
            case 2: try registry.resetAllOverrides()
            default: try registry.setOverrides(changes)
            }
            let stored = store.load()
            for feature in registry.allFeatures {
                #expect(feature.overrideValue == stored[feature.key], "step \(step), \(feature.key)")
            }
            #expect(stored["unknown"] == .off, "keys the registry does not know are kept")
        }
    }
}
