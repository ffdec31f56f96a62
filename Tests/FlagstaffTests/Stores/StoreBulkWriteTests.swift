import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// The pieces that make a write of many keys cheap: the byte-order sort, the store's reuse of the file it last
/// read or wrote, the kept key order, and the journal written in pieces. Each must give exactly what the plain
/// way gives.
@Suite struct StoreBulkWriteTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    @Test func theByteOrderSortAgreesWithStringOrderAndKeepsEqualStringsInInputOrder() {
        var random = SeededRandom(seed: 12)
        let alphabet: [String] = ["a", "b", "z", ".", "_", "0", "é", "ß", "€", "😀", "\u{01}", "A"]
        for round in 0..<300 {
            let count = Int.random(in: 0..<(round < 280 ? 40 : 3_000), using: &random)
            let strings = (0..<count).map { _ in
                (0..<Int.random(in: 0..<7, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                    .joined()
            }
            let order = ByteOrderSort.sortedIndices(strings)
            #expect(order.map { strings[$0] } == strings.sorted(), "round \(round)")
            for (a, b) in zip(order, order.dropFirst()) where strings[a] == strings[b] {
                #expect(a < b, "equal strings keep their input order (round \(round))")
            }
        }
        // Keys of one shape, as a generated registry has them: long shared prefixes.
        let keys = (0..<5_000).map { "group\($0 % 13).sub\($0 % 7).flag_\($0)" }.shuffled(using: &random)
        #expect(ByteOrderSort.sorted(keys) == keys.sorted())
    }

    @Test func aLargeSortGivesStringOrderAndKeepsTies() {
        var random = SeededRandom(seed: 31)
        let alphabet: [String] = ["a", "b", ".", "é", "😀", "A"]
        let count = 27_001
        // Short strings: many equal ones, some empty, across both halves.
        let strings = (0..<count).map { _ in
            (0..<Int.random(in: 0..<4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        let order = ByteOrderSort.sortedIndices(strings)
        let expected = strings.indices.sorted { a, b in
            strings[a] == strings[b] ? a < b : strings[a].utf8.lexicographicallyPrecedes(strings[b].utf8)
        }
        #expect(order == expected)
        let keys = (0..<count).map { "group\($0 % 13).sub\($0 % 7).flag_\($0)" }.shuffled(using: &random)
        #expect(ByteOrderSort.sorted(keys) == keys.sorted())
    }

    @Test func theFileStaysExactlyWhatAFreshEncodingGivesThroughAddsRemovesAndUpdates() throws {
        let store = try FileOverrideStore(url: file)
        let journal = try #require(try store.journal())
        var random = SeededRandom(seed: 5)
        var model: [String: OverrideValue] = [:]
        var journaled = 0
        for step in 0..<60 {
            var changes: [String: OverrideEdit] = [:]
            // Small changes and large ones, keys already stored and new ones.
            let size = step % 10 == 9 ? 400 : Int.random(in: 1...12, using: &random)
            for _ in 0..<size {
                let key = "k\(Int.random(in: 0..<600, using: &random))" + (Bool.random(using: &random) ? ".é" : "")
                changes[key] = OverrideEdit(
                    [OverrideValue.on, .off, nil, OverrideValue(string: "x")].randomElement(using: &random)!)
            }
            let before = model
            _ = try store.write(OverrideChange(changes))
            for (key, edit) in changes { model[key] = edit.value }
            let written = try Data(contentsOf: file)
            #expect(written == OverrideFileFormat.encode(model), "step \(step)")
            #expect(try store.load() == model, "step \(step)")
            // The journal lists exactly what changed, in the byte order of the keys.
            let expected = changes.filter { before[$0.key] != $0.value.value }.keys
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let entries = journal.read().entries.dropFirst(journaled)
            journaled += entries.count
            #expect(entries.map(\.key) == expected, "step \(step)")
            #expect(entries.allSatisfy { $0.old == before[$0.key] && $0.new == model[$0.key] }, "step \(step)")
        }
    }

    @Test func aWriteByAnotherStoreOfTheSameSizeIsNeverMissed() throws {
        let mine = try FileOverrideStore(url: file, journal: nil)
        let theirs = try FileOverrideStore(url: file, journal: nil)
        _ = try mine.write(["x": .set(.on), "y": .set(.off)])
        let size = try Data(contentsOf: file).count
        // Same length, other bytes: only comparing the contents can tell.
        _ = try theirs.write(["x": .set(.off), "y": .set(.on)])
        #expect(try Data(contentsOf: file).count == size)
        #expect(try mine.load() == ["x": .off, "y": .on])
        _ = try mine.write(["z": .set(.on)])
        #expect(try theirs.load() == ["x": .off, "y": .on, "z": .on])
    }

    @Test func aFileEditedByHandBetweenWritesIsReadAgain() throws {
        let store = try FileOverrideStore(url: file, journal: nil)
        _ = try store.write(["a": .set(.on)])
        try Data(#"{"version":1,"overrides":{"b":"off"}}"#.utf8).write(to: file)
        _ = try store.write(["c": .set(.on)])
        #expect(try store.load() == ["b": .off, "c": .on])
    }

    @Test func aChangeWrittenInPiecesIsTheSameBytesAsEncodedWhole() {
        let shared = JournalEntry(
            time: Date(timeIntervalSince1970: 1_800_000_000.25), change: "c9", key: "", old: nil, new: nil,
            origin: .console, user: "qa", pid: 7, command: "flagstaff console", profile: "checkout", undoes: nil,
            redoes: nil)
        let changes = (0..<4_000).map { index in
            StoreSnapshot.ValueChange(
                key: "checkout.payment.option_with_a_long_name_\(index)" + (index % 97 == 0 ? "\"q\"" : ""),
                old: index % 3 == 0 ? nil : .on, new: index % 5 == 0 ? nil : .off)
        }
        let order = ByteOrderSort.sortedIndices(changes.map(\.key))
        var pieces: [[UInt8]] = []
        JournalLine.encode(changes, order: order, shared: shared) { pieces.append(Array($0)) }
        #expect(pieces.count > 1, "more than one piece: \(pieces.map(\.count))")
        #expect(pieces.allSatisfy { $0.last == 0x0A }, "every piece ends with a whole line")
        let entries = order.map { index in
            var entry = shared
            entry.key = changes[index].key
            entry.old = changes[index].old
            entry.new = changes[index].new
            return entry
        }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == JournalLine.encode(entries))
    }

    @Test func aLineLargerThanAPieceIsWrittenWholeBetweenTheOthers() throws {
        let shared = JournalEntry(
            time: Date(timeIntervalSince1970: 1_800_000_000), change: "c1", key: "", old: nil, new: nil,
            origin: .cli, user: "qa", pid: 1, command: "flagstaff set", profile: nil, undoes: nil, redoes: nil)
        let huge = try OverrideValue(json: "\"" + String(repeating: "x", count: 400_000) + "\"")
        let changes = (0..<3_000).map { index in
            StoreSnapshot.ValueChange(
                key: "k\(index)", old: nil, new: index == 1_500 ? huge : .on,
                newExpiresAt: index == 7 ? Date(timeIntervalSince1970: 1_800_003_600) : nil)
        }
        let order = Array(changes.indices)
        var pieces: [[UInt8]] = []
        JournalLine.encode(changes, order: order, shared: shared) { pieces.append(Array($0)) }
        #expect(pieces.allSatisfy { $0.last == 0x0A })
        #expect(pieces.contains { $0.count > 400_000 })
        let entries = changes.map { change in
            var entry = shared
            (entry.key, entry.new, entry.newExpiresAt) = (change.key, change.new, change.newExpiresAt)
            return entry
        }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == JournalLine.encode(entries))
    }

    @Test func aBulkChangeIsJournaledOneLinePerKeyInKeyOrder() throws {
        let store = try FileOverrideStore(url: file)
        let keys = (0..<2_000).map { "bulk.flag\($0)" }
        _ = try store.write(
            OverrideChange(Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(.off)) })))
        let journal = try #require(try store.journal()).read()
        #expect(journal.problems.isEmpty)
        #expect(journal.entries.map(\.key) == keys.sorted())
        #expect(Set(journal.entries.map(\.change)).count == 1)
    }

    @Test func aLargeChangeIsJournaledInKeyOrderWithItsOldAndNewValues() throws {
        let store = try FileOverrideStore(url: file)
        let count = 20_500
        let keys = (0..<count).map { "bulk.flag\($0)" + ($0 == 7 ? "\"é" : "") }
        _ = try store.write(
            OverrideChange(Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(.off)) })))
        let values: [String: OverrideEdit] = Dictionary(
            uniqueKeysWithValues: keys.enumerated().map { ($1, $0 % 3 == 0 ? .remove : .set(.on)) })
        _ = try store.write(OverrideChange(values), known: nil, parameters: WriteParameters(origin: .console))
        let journal = try #require(try store.journal()).read()
        #expect(journal.problems.isEmpty)
        #expect(journal.changes.count == 2)
        let last = try #require(journal.changes.last)
        #expect(last.entries.map(\.key) == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(last.entries.allSatisfy { $0.old == .off && $0.new == values[$0.key]?.value && $0.origin == .console })
        #expect(try Data(contentsOf: file) == OverrideFileFormat.encode(try store.load()))
    }

    @Test func aRevisionedWriteReportsChangesOnlyFromTheRevisionTheWriterKnew() throws {
        let stores: [any RevisionedOverrideStore] = [
            InMemoryOverrideStore(["a": .on]), try FileOverrideStore(url: file, journal: nil),
        ]
        for store in stores {
            let first = try store.write(
                OverrideChange(["a": .set(.on), "b": .set(.off)]), known: nil, parameters: WriteParameters())
            #expect(first.changes == nil, "nothing known: the caller compares (\(type(of: store)))")
            let second = try store.write(
                OverrideChange(["b": .set(.on), "c": .set(.on)]), known: first.revision, parameters: WriteParameters())
            #expect(second.revision != first.revision)
            #expect(
                second.changes?.sorted { $0.key < $1.key }
                    == [.init(key: "b", old: .off, new: .on), .init(key: "c", old: nil, new: .on)])
            // A revision that is not the current one (another writer came between): no list.
            _ = try store.write(OverrideChange(["d": .set(.on)]), known: nil, parameters: WriteParameters())
            let stale = try store.write(
                OverrideChange(["e": .set(.on)]), known: second.revision, parameters: WriteParameters())
            #expect(stale.changes == nil, "\(type(of: store))")
            #expect(stale.snapshot.overrides == ["a": .on, "b": .on, "c": .on, "d": .on, "e": .on])
        }
    }

    @Test func anotherStoreObjectWritingTheFileMakesTheRevisionStale() throws {
        let mine = try FileOverrideStore(url: file, journal: nil)
        let theirs = try FileOverrideStore(url: file, journal: nil)
        let first = try mine.write(OverrideChange(["a": .set(.on)]), known: nil)
        _ = try theirs.write(OverrideChange(["b": .set(.on)]), known: nil)
        let next = try mine.write(OverrideChange(["c": .set(.on)]), known: first.revision)
        #expect(next.changes == nil)
        #expect(next.snapshot.overrides == ["a": .on, "b": .on, "c": .on])
    }

    /// Two registries on one file, each with its own store object, writing in turn without ever re-reading the
    /// store: after each one's write, its flags are exactly the file's entries (the other's writes included).
    @Test func registriesWritingInTurnAlwaysHoldTheFileAfterTheirOwnWrite() throws {
        func makeRegistry() throws -> AnyFeatureRegistry {
            try AnyFeatureRegistry(
                manifest: RegistryManifest(name: "Turns", flags: (0..<30).map { RegistryManifest.Flag(key: "f\($0)") }),
                store: try FileOverrideStore(url: file, journal: nil), options: RegistryOptions(storeWatchInterval: nil)
            )
        }
        let registries = [try makeRegistry(), try makeRegistry()]
        var random = SeededRandom(seed: 77)
        for step in 0..<200 {
            let writer = registries[Int.random(in: 0..<2, using: &random)]
            let count = step % 25 == 24 ? 30 : Int.random(in: 1...5, using: &random)
            var changes: [String: OverrideEdit] = [:]
            for _ in 0..<count {
                changes["f\(Int.random(in: 0..<30, using: &random))"] = OverrideEdit(
                    [OverrideValue.on, .off, nil].randomElement(using: &random)!)
            }
            try writer.setOverrideValues(changes)
            let stored = try FileOverrideStore(url: file, journal: nil).load()
            for member in writer.allFeatures {
                #expect(member.overrideValue == stored[member.key], "step \(step), \(member.key)")
            }
        }
    }
}
