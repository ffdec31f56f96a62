/// Checks a decoded manifest beyond its JSON shape: keys, duplicates, build targets, the remote section.
extension RegistryManifest {
    /// Checks the name (it names the default store file) and keys: none empty or with control characters,
    /// none used twice, group keys without dots.
    func validate(source: String) throws {
        if let problem = Self.nameProblem(name) {
            throw ManifestError(source: source, path: "$.name", message: problem)
        }
        // Flags are numbered in reading order; `locations` says where each one is (a flag list and an index)
        // so paths become strings only for an error.
        var lists: [(flags: [Flag], path: String)] = []
        var locations: [(list: Int, index: Int)] = []
        func count(_ groups: [Group]) -> Int { groups.reduce(0) { $0 + $1.flags.count + count($1.groups) } }
        let total = flags.count + count(groups)
        locations.reserveCapacity(total)
        var seen = DuplicateKeyFinder(capacity: total)
        var hashes: [Int] = []
        func check(flags: [Flag], path: String) throws {
            let list = lists.count
            lists.append((flags, path))
            // Keys are checked and hashed first, then looked up in a second pass whose independent table
            // reads the processor can overlap.
            hashes.removeAll(keepingCapacity: true)
            for index in flags.indices {
                let key = flags[index].key
                if let problem = FeatureRegistry.keyProblem(key) {
                    throw ManifestError(source: source, path: "\(path).flags[\(index)].key", message: problem)
                }
                hashes.append(key.hashValue)
            }
            for index in flags.indices {
                let earlier = seen.insert(flags[index].key, hash: hashes[index], number: locations.count) { number in
                    let location = locations[number]
                    return lists[location.list].flags[location.index].key
                }
                if let earlier {
                    let first = locations[earlier]
                    throw ManifestError(
                        source: source, path: "\(path).flags[\(index)].key",
                        message:
                            "duplicate key '\(flags[index].key)' (first at \(lists[first.list].path).flags[\(first.index)]); every flag needs its own key"
                    )
                }
                locations.append((list, index))
                if flags[index].kind == .buildTarget && flags[index].enabledIn == nil {
                    throw ManifestError(
                        source: source, path: "\(path).flags[\(index)].enabledIn",
                        message: "a buildTarget flag needs \"enabledIn\" (e.g. [\"debug\", \"internal\"])")
                }
            }
        }
        func check(groups: [Group], path: String) throws {
            for (index, group) in groups.enumerated() {
                let groupPath = "\(path).groups[\(index)]"
                if group.key.isEmpty || group.key.contains(".") {
                    throw ManifestError(
                        source: source, path: "\(groupPath).key", message: "expected a non-empty group key without dots"
                    )
                }
                try check(flags: group.flags, path: groupPath)
                try check(groups: group.groups, path: groupPath)
            }
        }
        try check(flags: flags, path: "$")
        try check(groups: groups, path: "$")
        if let remote {
            if remote.provider.isEmpty {
                throw ManifestError(
                    source: source, path: "$.remote.provider", message: "expected a provider name such as \"firebase\"")
            }
            if let interval = remote.minimumFetchInterval, !(interval >= 0 && interval.isFinite) {
                throw ManifestError(
                    source: source, path: "$.remote.minimumFetchInterval",
                    message: "expected a number of seconds, 0 or more")
            }
        }
    }
}

extension RegistryManifest {
    /// The longest registry name accepted, in UTF-8 bytes (the default store file is `<name>.json`, and
    /// file names are limited to 255 bytes).
    static let maximumNameBytes = 200

    /// Why a registry name cannot name a file (`~/.config/flagstaff/<name>.json`), or `nil` if it can.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "expected a non-empty registry name (it names the store file)" }
        if name == "." || name == ".." {
            return "the registry name \(JSONText.quoted(name)) cannot name a store file; choose another name"
        }
        if name.utf8.count > maximumNameBytes {
            return
                "the registry name is \(name.utf8.count) bytes long; at most \(maximumNameBytes) bytes fit in a store file name"
        }
        if name.contains("/") || name.contains("\\") {
            return
                "the registry name \(JSONText.quoted(name)) contains a path separator (/ or \\); it names the store file"
        }
        return nil
    }
}

/// Finds repeated keys among many: an open-addressing table of 64-bit slots (a 32-bit hash tag and the
/// key's number), so inserting touches one small slot instead of a dictionary's keys, and strings are
/// compared (with `String`'s own equality) only when tags match.
struct DuplicateKeyFinder {
    private var slots: [UInt64]
    private let mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// Records `key` (whose `hashValue` is `hash`) as number `number` (0 up to 2³² − 2), unless an equal key
    /// was recorded before: then returns that key's number (`keyNumbered` gives the key recorded under a number).
    mutating func insert(_ key: String, hash: Int, number: Int, keyNumbered: (Int) -> String) -> Int? {
        let tag = UInt64(truncatingIfNeeded: hash >> 32) & 0xFFFF_FFFF
        var index = hash & mask
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = tag << 32 | UInt64(truncatingIfNeeded: number + 1) & 0xFFFF_FFFF
                return nil
            }
            if slot >> 32 == tag {
                let other = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if keyNumbered(other) == key { return other }
            }
            index = (index + 1) & mask
        }
    }
}
