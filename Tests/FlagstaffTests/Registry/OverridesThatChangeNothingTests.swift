import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// The rule for overrides that would change nothing (issue 28), applied in the registry's one write route: a change
/// to many members skips those whose declaration already gives them the value, removes such a member's override,
/// and pins members whose value can change; a change naming its keys writes what it is given.
@Suite struct OverridesThatChangeNothingTests {
    @Test func aBulkChangeSkipsMembersAtTheirDefaultAndPinsTheOnesThatCanChange() throws {
        let store = InMemoryOverrideStore()
        let registry = AnyFeatureRegistry(name: "Rule", store: store, options: RegistryOptions(storeWatchInterval: nil))
        let offByDefault = Feature(key: "a.offByDefault")
        let overridden = Feature(key: "b.overridden")
        let onByDefault = Feature(key: "c.onByDefault", default: true)
        let dynamic = DynamicFeature(key: "d.dynamic") { _ in false }
        let toggle = Setting(default: false, key: "e.toggle")
        try registry.register([offByDefault, overridden, onByDefault, dynamic, toggle])
        try registry.setOverrides(["b.overridden": .enabled])

        let result = try registry.writeOnOffValue(.set(.off), toMembers: MemberSet(0..<5), policy: .skipDefaults)
        #expect(result.skippedAtDefault == 2, "a.offByDefault and e.toggle are off by default")
        #expect(result.changes?.map(\.key) == ["b.overridden", "c.onByDefault", "d.dynamic"])
        #expect(store.load() == ["c.onByDefault": .off, "d.dynamic": .off], "b.overridden lost its override")
        #expect(overridden.override == .featureDefault && onByDefault.override == .disabled)
        #expect(dynamic.override == .disabled, "a dynamic member is pinned even though it is off now")
        // The doctor finds no no-op: the pin is information.
        let report = StoreDoctor.examine(registry, snapshot: store.loadSnapshot(), now: registry.now)
        #expect(report.findings.filter { $0.kind == .noOp }.isEmpty)
        #expect(report.findings.map(\.kind) == [.pinsCurrentValue])

        // Nothing to do at all: no write, nothing notified.
        let seen = AnnotatedMutex(0)
        let subscription = registry.onChange { _ in seen.withLock { $0 += 1 } }
        defer { subscription.cancel() }
        let again = try registry.writeOnOffValue(.set(.off), toMembers: MemberSet([0, 4]), policy: .skipDefaults)
        #expect(again.changes == [] && again.skippedAtDefault == 2)
        #expect(seen.withLock { $0 } == 0)
    }

    @Test func aChangeNamingItsKeysWritesWhatItIsGiven() throws {
        let store = InMemoryOverrideStore()
        let registry = AnyFeatureRegistry(
            name: "Keyed", store: store, options: RegistryOptions(storeWatchInterval: nil))
        let flag = Feature(key: "flag")
        try registry.register([flag])
        let result = try registry.writeOverrideValues(["flag": .set(.off)], policy: .writeEveryValue)
        #expect(result.skippedAtDefault == 0)
        #expect(result.changes == [StoreSnapshot.ValueChange(key: "flag", old: nil, new: .off)])
        #expect(flag.override == .disabled)
        // The same with the bulk policy removes it again.
        let bulk = try registry.writeOverrideValues(["flag": .set(.off)], policy: .skipDefaults)
        #expect(bulk.changes == [StoreSnapshot.ValueChange(key: "flag", old: .off, new: nil)])
        #expect(store.load().isEmpty)
    }

    @Test func aChangeOfExpiryAloneIsInTheWriteResult() throws {
        let clock = ManualClock()
        let directory = temporaryDirectory()
        let store = try FileOverrideStore(url: directory.appendingPathComponent("o.json"), wallClock: clock)
        let registry = AnyFeatureRegistry(
            name: "Expiry", store: store, options: RegistryOptions(storeWatchInterval: nil, wallClock: clock))
        try registry.register([Feature(key: "flag")])
        try registry.setOverrideValues(["flag": .set(.on)])
        let expiresAt = clock.date + 3_600
        let result = try registry.writeOverrideValues(
            ["flag": .set(.on)], expiresAt: expiresAt, policy: .writeEveryValue)
        #expect(
            result.changes == [
                StoreSnapshot.ValueChange(key: "flag", old: .on, new: .on, oldExpiresAt: nil, newExpiresAt: expiresAt)
            ])
        // Made permanent again: a change of expiry too.
        let permanent = try registry.writeOverrideValues(["flag": .set(.on)], policy: .writeEveryValue)
        #expect(permanent.changes?.map(\.oldExpiresAt) == [expiresAt])
    }

    @Test func aChangeIsKeptInByteOrderAndAnswersByKey() {
        let change = OverrideChange(["é": .set(.on), "b": .remove, "a.z": .set(.off), "Z": .set(.on)])
        #expect(change.keys == ["Z", "a.z", "b", "é"])
        #expect(change.edit(forKey: "b") == .remove)
        #expect(change.edit(forKey: "é") == .set(.on))
        #expect(change.edit(forKey: "c") == nil)
        #expect(change.editsByKey == ["é": .set(.on), "b": .remove, "a.z": .set(.off), "Z": .set(.on)])
    }
}
