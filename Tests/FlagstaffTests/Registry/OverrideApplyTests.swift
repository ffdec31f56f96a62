import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// A registry applies each store snapshot by its differences from the previous one: after any mix of local
/// writes, writes by another process and resets, every flag's override is the store's entry.
@Suite struct OverrideApplyTests {
    func makeRegistry(_ store: any OverrideStore) throws -> AnyFeatureRegistry {
        let flags = (0..<40).map { RegistryManifest.Flag(key: "flag\($0)") }
        return try AnyFeatureRegistry(
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

    /// On a file store, with another process writing (noticed or not), removing the file, and the registry writing
    /// by key and by member: the registry's first write after a load applies only what it changed when the file
    /// is still what it read (a missing file included), and compares every key when it is not.
    @Test func everyFlagMatchesTheFileAfterWritesLoadsAndRemovals() throws {
        let directory = temporaryDirectory()
        let url = directory.appendingPathComponent("overrides.json")
        var random = SeededRandom(seed: 7)
        let states: [OverrideState] = [.enabled, .disabled, .featureDefault]
        for round in 0..<6 {
            try? FileManager.default.removeItem(at: url)
            if round.isMultiple(of: 2) { _ = try FileOverrideStore(url: url).write(["flag1": .set(.on)]) }
            let registry = try makeRegistry(try FileOverrideStore(url: url))
            let other = try FileOverrideStore(url: url)
            for step in 0..<60 {
                let keys = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    "flag\(Int.random(in: 0..<40, using: &random))"
                }
                let changes = Dictionary(
                    keys.map { ($0, OverrideEdit(OverrideValue(states.randomElement(using: &random)!))) },
                    uniquingKeysWith: { a, _ in a })
                switch Int.random(in: 0..<7, using: &random) {
                case 0:
                    // Not noticed: the registry's next write must find it.
                    _ = try other.write(OverrideChange(changes))
                case 1:
                    _ = try other.write(OverrideChange(changes))
                    registry.refreshFromStore()
                case 2: try? FileManager.default.removeItem(at: url)
                case 3:
                    let members = MemberSet(keys.compactMap { registry.feature(forKey: $0)?.registryOrdinal })
                    try registry.writeOnOffValue(
                        OverrideEdit([OverrideValue.on, .off, nil].randomElement(using: &random)!), toMembers: members,
                        policy: .skipDefaults)
                default: try registry.setOverrideValues(changes)
                }
                // Until the registry writes or reloads, another process's change may be unseen; after its own write
                // every flag is the file's.
                try registry.setOverrideValues(["flag39": .remove])
                let after = try FileOverrideStore(url: url, journal: nil).load()
                for feature in registry.allFeatures {
                    #expect(feature.overrideValue == after[feature.key], "round \(round) step \(step), \(feature.key)")
                }
            }
        }
    }
}
