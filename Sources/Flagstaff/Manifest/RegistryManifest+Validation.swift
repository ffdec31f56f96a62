/// Checks a decoded manifest beyond its JSON shape: keys, duplicates, build targets, settings' defaults,
/// ranges and choices, the remote section.
extension RegistryManifest {
    /// Checks the name (it names the default store file), keys (none empty or with control characters, none
    /// used twice by flags and settings together, group keys without dots) and settings (the default of the
    /// type and within the range, a range only for numbers, choices non-empty and distinct).
    func validate(source: String) throws {
        if let problem = Self.nameProblem(name) {
            throw ManifestError(source: source, path: "$.name", message: problem)
        }
        // Flags and settings are numbered in reading order; `locations` says where each one is (a list, an
        // index and whether it is a setting) so paths become strings only for an error.
        var lists: [(flags: [Flag], settings: [Setting], path: String)] = []
        var locations: [(list: Int, index: Int, isSetting: Bool)] = []
        let total = memberCount
        locations.reserveCapacity(total)
        var seen = DuplicateKeyFinder(capacity: total)
        var hashes: [Int] = []
        func keyAt(_ location: (list: Int, index: Int, isSetting: Bool)) -> String {
            location.isSetting
                ? lists[location.list].settings[location.index].key : lists[location.list].flags[location.index].key
        }
        func entryPath(_ location: (list: Int, index: Int, isSetting: Bool)) -> String {
            "\(lists[location.list].path).\(location.isSetting ? "settings" : "flags")[\(location.index)]"
        }
        func check(count: Int, key: (Int) -> String, list: Int, isSetting: Bool, path: String) throws {
            let field = isSetting ? "settings" : "flags"
            // Keys are checked and hashed first, then looked up in a second pass whose independent table
            // reads the processor can overlap.
            hashes.removeAll(keepingCapacity: true)
            for index in 0..<count {
                let key = key(index)
                if let problem = AnyFeatureRegistry.keyProblem(key) {
                    throw ManifestError(source: source, path: "\(path).\(field)[\(index)].key", message: problem)
                }
                hashes.append(key.hashValue)
            }
            for index in 0..<count {
                let key = key(index)
                let earlier = seen.insert(key, hash: hashes[index], number: locations.count) { number in
                    keyAt(locations[number])
                }
                if let earlier {
                    throw ManifestError(
                        source: source, path: "\(path).\(field)[\(index)].key",
                        message:
                            "duplicate key '\(key)' (first at \(entryPath(locations[earlier]))); every flag and setting needs its own key"
                    )
                }
                locations.append((list, index, isSetting))
            }
        }
        func check(flags: [Flag], settings: [Setting], path: String) throws {
            let list = lists.count
            lists.append((flags, settings, path))
            try check(count: flags.count, key: { flags[$0].key }, list: list, isSetting: false, path: path)
            for index in flags.indices where flags[index].kind == .buildTarget && flags[index].enabledIn == nil {
                throw ManifestError(
                    source: source, path: "\(path).flags[\(index)].enabledIn",
                    message: "a buildTarget flag needs \"enabledIn\" (e.g. [\"debug\", \"internal\"])")
            }
            guard !settings.isEmpty else { return }
            try check(count: settings.count, key: { settings[$0].key }, list: list, isSetting: true, path: path)
            for (index, setting) in settings.enumerated() {
                if let (field, message) = setting.problem() {
                    throw ManifestError(source: source, path: "\(path).settings[\(index)].\(field)", message: message)
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
                try check(flags: group.flags, settings: group.settings, path: groupPath)
                try check(groups: group.groups, path: groupPath)
            }
        }
        try check(flags: flags, settings: settings, path: "$")
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
