import Foundation

/// A store's contents: the overrides and the expiry of those that have one.
public struct StoreSnapshot: Sendable, Equatable {
    /// Every override by key, expired ones included (they stay until the next write).
    public var overrides: [String: OverrideValue]
    /// The expiry of each override that has one, by key.
    public var expiries: [String: OverrideExpiry]

    /// Creates a snapshot.
    public init(overrides: [String: OverrideValue] = [:], expiries: [String: OverrideExpiry] = [:]) {
        self.overrides = overrides
        self.expiries = expiries
    }

    /// The keys whose override has expired at `date`, sorted.
    package func expiredKeys(at date: Date) -> [String] {
        expiries.filter { overrides[$0.key] != nil && $0.value.isExpired(at: date) }.keys.sorted()
    }

    /// The overrides in force at `date`: expired ones left out.
    package func liveOverrides(at date: Date) -> [String: OverrideValue] {
        guard !expiries.isEmpty else { return overrides }
        return overrides.filter { entry in expiries[entry.key].map { !$0.isExpired(at: date) } ?? true }
    }

    /// The change that removes the overrides expired at `date` (empty when none has).
    package func removalOfExpired(at date: Date) -> OverrideChange {
        guard !expiries.isEmpty else { return OverrideChange([:]) }
        return OverrideChange(Dictionary(uniqueKeysWithValues: expiredKeys(at: date).map { ($0, OverrideEdit.remove) }))
    }

    /// Applies a change as a store does (a key set gets the expiry the change lists for it, or none; a key removed
    /// loses its expiry).
    /// - Returns: each key whose value or expiry changed, in the change's order.
    @discardableResult
    package mutating func apply(_ change: OverrideChange) -> [ValueChange] {
        // One allocation when a change adds many keys (growing a dictionary of 100,000 step by step rehashes it).
        if change.count > overrides.count { overrides.reserveCapacity(overrides.count + change.count) }
        let involvesExpiry = !expiries.isEmpty || !change.expiries.isEmpty
        var changed: [ValueChange] = []
        changed.reserveCapacity(change.count)
        for (key, edit) in zip(change.keys, change.edits) {
            let new = edit.value
            let old = new.map { overrides.updateValue($0, forKey: key) } ?? overrides.removeValue(forKey: key)
            var entry = ValueChange(key: key, old: old, new: new)
            if involvesExpiry { entry.noteExpiries(before: expiries, after: change) }
            if entry.changesSomething { changed.append(entry) }
        }
        applyExpiries(of: change)
        return changed
    }

    /// Puts changes already worked out (``StoreFileImage/merge(_:_:expiries:)``) in force: their values only, as
    /// ``applyExpiries(of:)`` handles the expiries.
    package mutating func apply(_ changed: [ValueChange]) {
        let added = changed.count { $0.old == nil && $0.new != nil }
        // One allocation when many keys are added (growing a dictionary of 100,000 step by step rehashes it).
        if added > overrides.count / 2 { overrides.reserveCapacity(overrides.count + added) }
        for change in changed {
            if let new = change.new {
                overrides[change.key] = new
            } else {
                overrides.removeValue(forKey: change.key)
            }
        }
    }

    /// Gives the keys `change` sets the expiry it lists for them (or none), and drops the expiry of keys it removes.
    /// Most writes involve no expiry at all: then nothing is looked up.
    package mutating func applyExpiries(of change: OverrideChange) {
        guard !expiries.isEmpty || !change.expiries.isEmpty else { return }
        for (key, edit) in zip(change.keys, change.edits) {
            expiries[key] = edit == .remove ? nil : change.expiries[key]
        }
    }

    /// One key's value before and after a change (`nil`: no override), with the expiry of each (a change of
    /// expiry only has equal values).
    package struct ValueChange: Sendable, Equatable {
        package var key: String
        package var old: OverrideValue?
        package var new: OverrideValue?
        package var oldExpiresAt: Date? = nil
        package var newExpiresAt: Date? = nil

        /// Whether the value or its expiry differs.
        var changesSomething: Bool { old != new || oldExpiresAt != newExpiresAt }

        /// Fills in the expiry before (from `expiries`, when there was an override) and after (from `change`,
        /// when there is one).
        mutating func noteExpiries(before expiries: [String: OverrideExpiry], after change: OverrideChange) {
            oldExpiresAt = old == nil ? nil : expiries[key]?.expiresAt
            newExpiresAt = new == nil ? nil : change.expiresAt(forKey: key)
        }
    }
}
