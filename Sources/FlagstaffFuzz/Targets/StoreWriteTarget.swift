import Flagstaff
import Foundation

/// A store file written to by ``FileOverrideStore``: the reader, then the read-modify-write paths that merge a change
/// into the file's order (``StoreFileImage``) and drop expired overrides.
extension FuzzTarget {
    /// Two writes to a store whose file is the input: a change by key (every other key removed, one set, one added),
    /// then a bulk change of some keys in byte order; the file must then read as a dictionary model says.
    static let storeWrite = FuzzTarget(
        name: "store-write",
        summary: "FileOverrideStore read-modify-write on a fuzzed store file (StoreFileImage merges, expiry removal)"
    ) { data in
        let url = FuzzScratch.folder.appendingPathComponent("store.json")
        do {
            try data.write(to: url)
        } catch {
            FuzzCheck.fail("cannot write the store file: \(error)")
        }
        let store: FileOverrideStore
        let before: StoreSnapshot
        do {
            store = try FileOverrideStore(url: url, journal: nil, wallClock: FixedClock())
            before = try store.loadSnapshot()
        } catch {
            FuzzCheck.described(error, as: OverrideStoreError.self, by: "FileOverrideStore.loadSnapshot")
            return
        }
        // A write drops the overrides expired at its time, then applies the change.
        var model = before.liveOverrides(at: FixedClock.now)
        let keys = ByteOrderSort.sorted(Array(before.overrides.keys))
        var change: [String: OverrideEdit] = ["fuzz.added": .set(.on)]
        for (index, key) in keys.enumerated() {
            if index % 2 == 1 { change[key] = .remove } else if index == 0 { change[key] = .set(.off) }
        }
        let bulk = ByteOrderSort.sorted(Array(Set(keys.prefix(3)).union(["fuzz.bulk", "a"])))
        for (key, edit) in change { model[key] = edit.value }
        for key in bulk { model[key] = OverrideValue(string: "bulk") }
        do {
            _ = try store.write(OverrideChange(change))
            _ = try store.write(OverrideChange(sortedKeys: bulk, edit: .set(OverrideValue(string: "bulk"))))
            FuzzCheck.equal(try store.load(), model, "store after two writes")
            let fresh = try FileOverrideStore(url: url, journal: nil, wallClock: FixedClock())
            FuzzCheck.equal(try fresh.load(), model, "store file after two writes, read by another store")
        } catch {
            FuzzCheck.fail("a store that was read cannot be written and read again: \(error)")
        }
    }

    /// A clock at a fixed time, so expiries before it are removed by a write and those after it are kept.
    private struct FixedClock: WallClock {
        static let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21
        var date: Date { Self.now }
    }
}
