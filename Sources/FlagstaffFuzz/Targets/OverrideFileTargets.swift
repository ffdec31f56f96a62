import Flagstaff
import Foundation

/// The override file format's readers: the store file, an import document, a profile.
extension FuzzTarget {
    /// The store file reader (``OverrideFileFormat`` with the store's rules) and the store's writer.
    static let storeFile = FuzzTarget(
        name: "store-file",
        summary: "store file reader (OverrideFileFormat, store rules); round trip through the store's writer"
    ) { data in
        let contents: OverrideFileFormat.Contents
        do {
            contents = try OverrideFileFormat.decodeContents(data, file: "s.json", rules: .store)
        } catch {
            FuzzCheck.described(error, as: OverrideFileError.self, by: "OverrideFileFormat.decodeContents")
            return
        }
        let written = encode(contents)
        let again = readBack(written, rules: .store)
        FuzzCheck.equal(again.overrides, contents.overrides, "store file overrides")
        FuzzCheck.equal(again.otherMembers, contents.otherMembers, "store file other members")
        // An expiry is written for the overrides the file has, to the millisecond.
        let kept = contents.expiries.filter { contents.overrides[$0.key] != nil }
        FuzzCheck.equal(times(again.expiries), times(kept), "store file expiries")
        FuzzCheck.equal(encode(again), written, "store file written again")
        // The keys in the byte order the writer and the store's merges rely on.
        let sorted = ByteOrderSort.sorted(Array(contents.overrides.keys))
        for (a, b) in zip(sorted, sorted.dropFirst()) where ByteOrderSort.compare(a, b) >= 0 {
            FuzzCheck.fail("ByteOrderSort.sorted left \(String(reflecting: a)) before \(String(reflecting: b))")
        }
    }

    /// The reader of `flagstaff import` documents (document rules: `"default"` removes) and the export writer.
    static let importFile = FuzzTarget(
        name: "import-file",
        summary: "import document reader (OverrideFileFormat, document rules); round trip through the export writer"
    ) { data in
        let contents: OverrideFileFormat.Contents
        do {
            contents = try OverrideFileFormat.decodeContents(data, file: "import.json", rules: .document)
        } catch {
            FuzzCheck.described(error, as: OverrideFileError.self, by: "OverrideFileFormat.decodeContents")
            return
        }
        // Removals written as "default" entries, as a profile keeps them.
        var all = contents.overrides
        for key in contents.removals where all[key] == nil { all[key] = OverrideValue(string: "default") }
        let again = readBack(OverrideFileFormat.encode(all), rules: .document)
        FuzzCheck.equal(again.overrides, contents.overrides, "import document overrides")
        FuzzCheck.equal(again.removals, contents.removals.filter { contents.overrides[$0] == nil }, "removals")
    }

    /// A profile as ``ProfileLibrary`` loads and saves it (a file in a profiles folder).
    static let profile = FuzzTarget(
        name: "profile",
        summary: "profile reader (ProfileLibrary.load of a file); round trip through ProfileLibrary.save"
    ) { data in
        let library = ProfileLibrary(folder: FuzzScratch.folder.appendingPathComponent("profiles"))
        do {
            try FileManager.default.createDirectory(at: library.folder, withIntermediateDirectories: true)
            try data.write(to: library.folder.appendingPathComponent("fuzz.json"))
        } catch {
            FuzzCheck.fail("cannot write the profile file: \(error)")
        }
        let profile: Profile
        do {
            profile = try library.load("fuzz")
        } catch {
            FuzzCheck.described(error, as: ProfileError.self, by: "ProfileLibrary.load")
            return
        }
        do {
            try library.save(profile)
            FuzzCheck.equal(try library.load("fuzz"), profile, "profile saved and loaded")
        } catch {
            FuzzCheck.fail("a profile that was read cannot be saved and read again: \(error)")
        }
    }

    /// Writes contents as the store writes them.
    private static func encode(_ contents: OverrideFileFormat.Contents) -> Data {
        OverrideFileFormat.encode(contents.overrides, expiries: contents.expiries, otherMembers: contents.otherMembers)
    }

    /// Reads a document this process wrote: it must read.
    private static func readBack(_ written: Data, rules: OverrideFileFormat.Rules) -> OverrideFileFormat.Contents {
        do {
            return try OverrideFileFormat.decodeContents(written, file: "written.json", rules: rules)
        } catch {
            FuzzCheck.fail("the writer's output does not read back: \(error)\n\(FuzzCheck.text(written))")
        }
    }

    /// Expiry times as the file writes them (milliseconds).
    private static func times(_ expiries: [String: OverrideExpiry]) -> [String: [String]] {
        expiries.mapValues { [JournalTime.text($0.expiresAt), JournalTime.text($0.setAt)] }
    }
}
