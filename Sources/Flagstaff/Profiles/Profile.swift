/// A named set of overrides, kept as a file in the override file format
/// (`{"version":1,"overrides":{"checkout.v2":"on","maxItems":50}}`) in a profiles folder
/// (``ProfileLibrary``). An entry `"default"` (or `null`) means "no override" when the profile is applied.
package struct Profile: Sendable, Equatable {
    /// The profile's name (its file is `<name>.json`).
    package var name: String
    /// The overrides it sets.
    package var overrides: [String: OverrideValue]
    /// The keys whose override it removes (`"default"` entries).
    package var removals: Set<String>

    /// Creates a profile.
    /// - Parameters:
    ///   - name: a valid name (see ``ProfileLibrary/validate(name:)``).
    ///   - overrides: the overrides it sets.
    ///   - removals: the keys whose override it removes.
    package init(name: String, overrides: [String: OverrideValue], removals: Set<String> = []) {
        self.name = name
        self.overrides = overrides
        self.removals = removals
    }

    /// Every key the profile mentions, sorted.
    package var keys: [String] { Set(overrides.keys).union(removals).sorted() }

    /// What applying the profile to `current` changes: only keys whose override would differ.
    /// - Parameters:
    ///   - current: the store's overrides now.
    ///   - replace: whether overrides the profile does not mention are removed (those `clearable` picks).
    ///   - clearable: which keys a replace may remove (e.g. the registry's own keys: overrides of keys the
    ///     registry does not declare are kept).
    /// - Returns: key → what to do to it.
    package func changes(
        from current: [String: OverrideValue], replace: Bool, clearable: (String) -> Bool = { _ in true }
    ) -> [String: OverrideEdit] {
        var result: [String: OverrideEdit] = [:]
        for (key, value) in overrides where current[key] != value { result[key] = .set(value) }
        for key in removals where overrides[key] == nil && current[key] != nil { result[key] = .remove }
        if replace {
            for key in current.keys where overrides[key] == nil && clearable(key) { result[key] = .remove }
        }
        return result
    }
}
