import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

/// A change to many members at once, by ordinal (the console's marks): the member set, the byte-order merge into
/// the store's file order, and the registry's write that applies the change to the members it names. Each must give
/// exactly what the keyed write gives.
@Suite struct MemberBulkWriteTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    @Test func theMemberSetAgreesWithASetOfInts() {
        var random = SeededRandom(seed: 3)
        var set = MemberSet()
        var model = Set<Int>()
        for _ in 0..<5_000 {
            let ordinal = Int.random(in: -2..<700, using: &random)
            if Bool.random(using: &random) {
                #expect(set.insert(ordinal) == (ordinal >= 0 && model.insert(ordinal).inserted))
            } else {
                #expect(set.remove(ordinal) == (model.remove(ordinal) != nil))
            }
            #expect(set.count == model.count)
        }
        #expect(set.ordinals == model.sorted())
        #expect((0..<800).allSatisfy { set.contains($0) == model.contains($0) })
        #expect(!set.contains(-1) && !set.contains(1 << 40))
        // Equal whatever room each made.
        var roomy = MemberSet(model)
        roomy.reserveCapacity(upTo: 100_000)
        #expect(roomy == set)
        roomy.insert(99_999)
        #expect(roomy != set)
    }

    @Test func theByteComparisonAgreesWithTheByteOrderOfUTF8() {
        var random = SeededRandom(seed: 8)
        let alphabet: [String] = ["a", "b", ".", "é", "😀", "A", "\u{01}", "ab"]
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0..<5, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let b = (0..<Int.random(in: 0..<5, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let (x, y) = (a.joined(), b.joined())
            let order = ByteOrderSort.compare(x, y)
            #expect((order < 0) == x.utf8.lexicographicallyPrecedes(y.utf8), "\(x) \(y)")
            #expect((order == 0) == (x == y), "\(x) \(y)")
        }
        // Long keys (not small strings) with a shared prefix.
        #expect(ByteOrderSort.compare("group.subgroup.flag_0001", "group.subgroup.flag_0002") < 0)
        #expect(ByteOrderSort.compare("group.subgroup.flag", "group.subgroup.flag_0002") < 0)
    }

    @Test func aSortedBulkChangeGivesWhatTheKeyedChangeGives() throws {
        let store = try FileOverrideStore(url: file)
        let twin = try FileOverrideStore(url: directory.appendingPathComponent("twin.json"))
        let memory = InMemoryOverrideStore()
        let journal = try #require(try store.journal())
        var random = SeededRandom(seed: 21)
        var model: [String: OverrideValue] = [:]
        var journaled = 0
        var revision: UInt64?
        for step in 0..<80 {
            let value = [OverrideValue.on, .off, nil].randomElement(using: &random)!
            let keys = Set(
                (0..<(step % 10 == 9 ? 500 : Int.random(in: 1...15, using: &random))).map { _ in
                    "k\(Int.random(in: 0..<700, using: &random))" + (Bool.random(using: &random) ? ".é" : "")
                })
            let sorted = ByteOrderSort.sorted(Array(keys))
            let before = model
            if step % 7 == 3 {
                // A keyed write between bulk ones (the image keeps its order either way).
                let changes = Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(.on)) })
                _ = try store.write(OverrideChange(changes))
                _ = try twin.write(OverrideChange(changes))
                _ = memory.write(OverrideChange(changes))
                for key in keys { model[key] = .on }
                revision = nil
            } else {
                let write = try store.write(OverrideChange(sortedKeys: sorted, edit: .init(value)), known: revision)
                _ = try twin.write(
                    OverrideChange(Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit(value)) })))
                let inMemory = memory.write(OverrideChange(sortedKeys: sorted, edit: .init(value)), known: nil)
                for key in keys { model[key] = value }
                let expected = sorted.filter { before[$0] != value }
                #expect(inMemory.snapshot.overrides == model, "step \(step)")
                #expect(inMemory.changes == nil, "the in-memory store was written before: no revision known")
                if revision != nil {
                    #expect(write.changes?.map(\.key) == expected, "step \(step)")
                    #expect(
                        write.changes?.allSatisfy { $0.old == before[$0.key] && $0.new == value } == true,
                        "step \(step)")
                }
                #expect(write.snapshot.overrides == model, "step \(step)")
                revision = write.revision
            }
            #expect(try Data(contentsOf: file) == OverrideFileFormat.encode(model), "step \(step)")
            #expect(try Data(contentsOf: file) == Data(contentsOf: twin.url), "step \(step)")
            #expect(try store.load() == model, "step \(step)")
            // The journal lists exactly what changed, in the byte order of the keys.
            let entries = journal.read().entries.dropFirst(journaled)
            journaled += entries.count
            #expect(
                entries.map(\.key)
                    == keys.filter { before[$0] != model[$0] }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
                "step \(step)")
            #expect(entries.allSatisfy { $0.old == before[$0.key] && $0.new == model[$0.key] }, "step \(step)")
        }
    }

    @Test func aBulkChangeToAFileThisStoreOnlyReadIsMergedIntoItsOrder() throws {
        // Another process's write.
        _ = try FileOverrideStore(url: file).write(["b": .set(.on), "d": .set(.off), "a.é": .set(.on)])
        let store = try FileOverrideStore(url: file)
        let (_, revision) = try store.loadRevisioned()
        let write = try store.write(OverrideChange(sortedKeys: ["a.é", "c", "d"], edit: .init(.off)), known: revision)
        #expect(write.changes?.map(\.key) == ["a.é", "c"], "d was off already")
        let model: [String: OverrideValue] = ["a.é": .off, "b": .on, "c": .off, "d": .off]
        #expect(write.snapshot.overrides == model)
        #expect(try Data(contentsOf: file) == OverrideFileFormat.encode(model))
        // A missing file is revision 0: a write to it starts from known, empty contents.
        try FileManager.default.removeItem(at: file)
        #expect(try store.loadRevisioned().revision == FileOverrideStore.missingFileRevision)
        let fresh = try store.write(
            OverrideChange(sortedKeys: ["x"], edit: .init(.on)), known: FileOverrideStore.missingFileRevision)
        #expect(fresh.changes?.map(\.key) == ["x"])
    }

    @Test func aBulkChangeToAStoreWithExpiriesRemovesTheExpiredAndKeepsTheOthersExpiry() throws {
        let clock = ManualClock()
        let store = try FileOverrideStore(url: file, wallClock: clock)
        let soon = OverrideExpiry(expiresAt: clock.date + 60, setAt: clock.date)
        let later = OverrideExpiry(expiresAt: clock.date + 3_600, setAt: clock.date)
        _ = try store.write(OverrideChange(["a": .set(.on)], expiries: ["a": soon]))
        _ = try store.write(OverrideChange(["b": .set(.on)], expiries: ["b": later]))
        _ = try store.write(["c": .set(.on)])
        clock.advance(by: .seconds(120))
        let write = try store.write(OverrideChange(sortedKeys: ["c", "d"], edit: .init(.off)), known: nil)
        #expect(write.snapshot.overrides == ["b": .on, "c": .off, "d": .off])
        #expect(write.snapshot.expiries == ["b": later])
        let entries = try #require(try store.journal()).read().entries
        #expect(entries.suffix(3).map(\.key) == ["a", "c", "d"])
        #expect(entries.suffix(3).first?.origin == .expiry)
    }

    @Test func theRegistryWritesAndAppliesTheMembersOfASet() throws {
        let store = try FileOverrideStore(url: file)
        let registry = AnyFeatureRegistry(name: "Bulk", store: store, options: RegistryOptions(storeWatchInterval: nil))
        // On by default, so that forcing them off writes overrides (a member already at the value gets none).
        let flags = (0..<300).map { Feature(key: "group\($0 % 7).flag\($0)", default: true) }
        let setting = Setting(default: 1, key: "number")
        let toggle = Setting(default: true, key: "toggle")
        try registry.register(flags + [setting, toggle])
        #expect(flags.enumerated().allSatisfy { $1.registryOrdinal == $0 })
        #expect(toggle.registryOrdinal == 301)
        let five = try OverrideValue(json: "5")
        try registry.setOverrideValues(["group1.flag1": .set(.on), "number": .set(five)])
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = registry.onChange { change in seen.withLock { $0.append(change) } }
        defer { subscription.cancel() }

        // Every other flag and the Boolean setting off, plus an ordinal the registry does not have.
        var members = MemberSet((0..<300).filter { $0.isMultiple(of: 2) })
        members.insert(301)
        members.insert(5_000)
        try registry.writeOnOffValue(.set(.off), toMembers: members, policy: .skipDefaults)
        #expect(
            flags.enumerated().allSatisfy {
                $1.override == ($0.isMultiple(of: 2) ? .disabled : $0 == 1 ? .enabled : .featureDefault)
            })
        #expect(toggle.overrideValue == .off && setting.overrideValue == five)
        #expect(registry.storedOverrides.count == 150 + 1 + 2)
        #expect(seen.withLock { $0.last?.keyCount } == 151)
        #expect(try store.load() == registry.storedOverrides)

        // Removal of some of them, one undo step in the journal.
        try registry.writeOnOffValue(.remove, toMembers: MemberSet([0, 1, 2, 300]), policy: .skipDefaults)
        #expect(flags[0].override == .featureDefault && flags[2].override == .featureDefault)
        #expect(flags[1].override == .featureDefault)
        #expect(setting.overrideValue == nil)
        #expect(seen.withLock { $0.last?.keys } == ["group0.flag0", "group1.flag1", "group2.flag2", "number"])
        let undo = try ChangeHistory(registry).undo()
        #expect(undo.target.entries.map(\.key) == ["group0.flag0", "group1.flag1", "group2.flag2", "number"])
        #expect(flags[0].override == .disabled && flags[1].override == .enabled && setting.overrideValue == five)

        // Flags registered afterwards: a new member list, sorted again.
        let late = Feature(key: "aaa.late", default: true)
        try registry.register([late])
        try registry.writeOnOffValue(
            .set(.off), toMembers: MemberSet([try #require(late.registryOrdinal), 3]), policy: .skipDefaults)
        #expect(late.override == .disabled && flags[3].override == .disabled)
        #expect(try store.load()["aaa.late"] == .off)
    }

    @Test func aLargeBulkWriteIsAppliedOnTwoThreadsToEveryMember() throws {
        let count = AnyFeatureRegistry.parallelApplyThreshold * 2 + 17
        let registry = AnyFeatureRegistry(name: "Large", store: InMemoryOverrideStore(), options: RegistryOptions())
        // Keys whose byte order differs from their registration order.
        let flags = (0..<count).map { Feature(key: "f\(($0 * 7_919) % count)") }
        try registry.register(flags)
        try registry.writeOnOffValue(.set(.on), toMembers: MemberSet(0..<count), policy: .skipDefaults)
        #expect(flags.allSatisfy { $0.override == .enabled })
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = registry.onChange { change in seen.withLock { $0.append(change) } }
        // Off is their default: their overrides are removed rather than set to it.
        try registry.writeOnOffValue(
            .set(.off), toMembers: MemberSet((0..<count).filter { $0 % 3 != 0 }), policy: .skipDefaults)
        subscription.cancel()
        #expect(flags.enumerated().allSatisfy { $1.override == ($0 % 3 != 0 ? .featureDefault : .enabled) })
        #expect(seen.withLock { $0.map(\.keyCount) } == [count - (count + 2) / 3])
    }

    @Test func aStoreErrorChangesNothing() throws {
        try "not json".write(to: file, atomically: true, encoding: .utf8)
        let registry = AnyFeatureRegistry(
            name: "Broken", store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        let flag = Feature(key: "a")
        try registry.register([flag])
        #expect(throws: OverrideStoreError.self) {
            try registry.writeOnOffValue(.set(.on), toMembers: MemberSet([0]), policy: .skipDefaults)
        }
        #expect(flag.override == .featureDefault)
        #expect(try String(contentsOf: file, encoding: .utf8) == "not json")
    }
}
