import Flagstaff

/// Finds flags named on the command line, with suggestions when a key is unknown.
enum KeyLookup {
    /// The flag with this key.
    /// - Parameters:
    ///   - key: the key given by the user.
    ///   - registry: the registry.
    ///   - argument: how the argument is called in messages (`KEY`).
    /// - Returns: the flag.
    /// - Throws: `CLIFailure.usage` naming the key and suggesting close matches.
    static func feature(_ key: String, in registry: AnyFeatureRegistry, argument: String = "KEY") throws -> AnyFeature {
        if let feature = registry.feature(forKey: key) { return feature }
        throw CLIFailure.usage(unknownKeyMessage([key], in: registry, argument: argument))
    }

    /// Checks that every key exists, reporting all unknown ones at once.
    /// - Throws: `CLIFailure.usage` naming every unknown key, with suggestions.
    static func features(_ keys: [String], in registry: AnyFeatureRegistry, argument: String = "KEY") throws
        -> [AnyFeature]
    {
        let unknown = keys.filter { registry.feature(forKey: $0) == nil }
        if !unknown.isEmpty { throw CLIFailure.usage(unknownKeyMessage(unknown, in: registry, argument: argument)) }
        return keys.compactMap(registry.feature(forKey:))
    }

    /// `unknown flag key 'blueTxt' (KEY); did you mean 'blueText'?` for each key, and where to find the keys.
    static func unknownKeyMessage(_ keys: [String], in registry: AnyFeatureRegistry, argument: String) -> String {
        var lines: [String] = []
        for key in keys {
            var line =
                "unknown flag key '\(TerminalText.safe(key))' (\(argument)) in \(TerminalText.safe(registry.name))"
            let close = suggestions(for: key, in: registry)
            if !close.isEmpty {
                line += "; did you mean " + close.map { "'\(TerminalText.safe($0))'" }.joined(separator: ", ") + "?"
            }
            lines.append(line)
        }
        lines.append("run `flagstaff list` to see every key")
        return lines.joined(separator: "\n")
    }

    /// Up to three keys close to `key`: the registry's search first (so `infinite` finds
    /// `list.infiniteScroll`), then keys within a small edit distance (so `blueTxet` finds `blueText`).
    static func suggestions(for key: String, in registry: AnyFeatureRegistry) -> [String] {
        var found: [String] = []
        for result in registry.search(key) where result.kind <= .substring {
            found.append(result.feature.key)
            if found.count == 3 { return found }
        }
        let lowered = Array(key.lowercased())
        let limit = max(1, min(3, lowered.count / 3))
        let near = registry.allFeatures
            .map { ($0.key, editDistance(lowered, Array($0.key.lowercased()), limit: limit)) }
            .filter { $0.1 <= limit && !found.contains($0.0) }
            .sorted { $0.1 < $1.1 }
        found += near.prefix(3 - found.count).map(\.0)
        if found.isEmpty {
            found = registry.search(key).prefix(3).map(\.feature.key)
        }
        return found
    }

    /// Levenshtein distance, giving up (returning `limit + 1`) once every row exceeds `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
