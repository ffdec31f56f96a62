import Flagstaff
import Foundation
import Synchronization
import Testing

/// The store protocol's one write, as a user of the public API sees it: a change is a dictionary literal, and a
/// store of one's own needs `load()` and `write(_:)` only.
@Suite struct OverrideStoreWriteTests {
    /// A store of one's own that keeps no expiry times, written against the public API only.
    final class DictionaryStore: OverrideStore {
        private let contents = Mutex<[String: OverrideValue]>([:])
        private let writes = Mutex(0)

        var writeCount: Int { writes.withLock { $0 } }

        func load() -> [String: OverrideValue] { contents.withLock { $0 } }

        func write(_ change: OverrideChange) throws -> StoreSnapshot {
            try contents.withLock { overrides in
                overrides = try change.applied(to: overrides, in: self)
                writes.withLock { $0 += 1 }
                return StoreSnapshot(overrides: overrides)
            }
        }
    }

    @Test func aDictionaryLiteralIsAChangeInByteOrderAndNilRemoves() {
        let change: OverrideChange = ["é": .set(.on), "b": .remove, "Z": .set(.off)]
        #expect(change.keys == ["Z", "b", "é"])
        #expect(change.edits == [.set(.off), .remove, .set(.on)])
        #expect(change.edit(forKey: "b") == .remove)
        #expect(change.edit(forKey: "absent") == nil)
        #expect(change == OverrideChange(["é": .set(.on), "b": .remove, "Z": .set(.off)]))
        #expect(change.expiries.isEmpty && change.count == 3 && !change.isEmpty)
    }

    @Test func appliedSetsAndRemovesAndRefusesAnExpiryNamingTheStore() throws {
        let store = DictionaryStore()
        #expect(try store.write(["a": .set(.on), "b": .set(.off)]).overrides == ["a": .on, "b": .off])
        #expect(try store.write(["a": .remove, "c": .set(.on)]).overrides == ["b": .off, "c": .on])
        let expiring = OverrideChange(
            ["d": .set(.on)], expiries: ["d": OverrideExpiry(expiresAt: Date(), setAt: Date())])
        let error = #expect(throws: OverrideStoreError.self) { try store.write(expiring) }
        #expect(error?.isUnwritable == true)
        #expect(error?.description.contains("DictionaryStore") == true, "\(String(describing: error))")
        #expect(error?.description.contains("does not keep expiry times") == true)
        #expect(store.load() == ["b": .off, "c": .on], "nothing written on error")
    }

    @Test func aRegistryWritesOneKeyAndManyThroughTheOneWrite() throws {
        let store = DictionaryStore()
        let registry = FeatureRegistry(AppFeatures(), store: store)
        try registry.setOverrideValues(["blueText": .set(.on)])
        try registry.setOverrideValues(["blueText": .set(.off), "debugLogging": .set(.on)])
        try registry.resetAllOverrides()
        #expect(store.writeCount == 3)
        #expect(store.load().isEmpty)
    }
}
