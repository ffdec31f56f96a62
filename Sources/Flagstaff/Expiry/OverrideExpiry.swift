import Foundation

/// When an override stops applying. Kept by the store beside the override (a top-level `"expiry"` member of the
/// store file); an override without one is permanent.
///
/// From ``expiresAt`` on, no registry applies the override (a timer republishes the member at that moment), and
/// the next write to the store by any process removes it, journaled with origin ``ChangeOrigin/expiry``.
public struct OverrideExpiry: Sendable, Hashable {
    /// The moment the override stops applying.
    public var expiresAt: Date
    /// When the override was set with this expiry.
    public var setAt: Date

    /// Creates an expiry.
    /// - Parameters:
    ///   - expiresAt: the moment the override stops applying.
    ///   - setAt: when it was set.
    public init(expiresAt: Date, setAt: Date) {
        self.expiresAt = expiresAt
        self.setAt = setAt
    }

    /// The times a store file can hold (its timestamps have four-digit years): `0000-01-01T00:00:00.000Z` to
    /// `9999-12-31T23:59:59.999Z`. An expiry outside is refused when set.
    package static let storableRange: ClosedRange<Date> =
        Date(
            timeIntervalSince1970: Double(CivilDate.days(year: 0, month: 1, day: 1) * 86_400))...Date(
            timeIntervalSince1970: Double(CivilDate.days(year: 10_000, month: 1, day: 1) * 86_400) - 0.001)

    /// `from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z`: ``storableRange`` in words, for messages.
    package static let storableRangeText = "from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z"

    /// Whether the override no longer applies at `date`.
    public func isExpired(at date: Date) -> Bool { date >= expiresAt }

    /// Seconds left at `date` (zero once expired).
    public func timeLeft(at date: Date) -> TimeInterval { max(0, expiresAt.timeIntervalSince(date)) }

    /// A short English rendering of a span of time, rounded down to its largest unit pair: `45s`, `59m`, `3h 5m`,
    /// `2d 4h`; `0s` for nothing left.
    /// - Parameter interval: seconds.
    public static func shortText(_ interval: TimeInterval) -> String {
        let seconds = Int(max(0, interval).rounded(.down))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400:
            let minutes = seconds / 60 % 60
            return minutes == 0 ? "\(seconds / 3600)h" : "\(seconds / 3600)h \(minutes)m"
        default:
            let hours = seconds / 3600 % 24
            return hours == 0 ? "\(seconds / 86_400)d" : "\(seconds / 86_400)d \(hours)h"
        }
    }
}

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
    public func expiredKeys(at date: Date) -> [String] {
        expiries.filter { overrides[$0.key] != nil && $0.value.isExpired(at: date) }.keys.sorted()
    }

    /// The overrides in force at `date`: expired ones left out.
    public func liveOverrides(at date: Date) -> [String: OverrideValue] {
        guard !expiries.isEmpty else { return overrides }
        return overrides.filter { entry in expiries[entry.key].map { !$0.isExpired(at: date) } ?? true }
    }

    /// Applies changes as a store does: a key set gets the expiry given for it in `expiries`, or none (it becomes
    /// permanent); a key removed loses its expiry; expiries of keys without an override are dropped.
    /// - Parameters:
    ///   - changes: keys and new values, `nil` to remove.
    ///   - expiries: the expiry of keys set by `changes` that have one.
    /// - Returns: what changed: each key whose value or expiry changed, with its old and new value and their
    ///   expiry times (unsorted), and whether any expiry changed.
    @discardableResult
    package mutating func apply(_ changes: [String: OverrideValue?], expiries newExpiries: [String: OverrideExpiry])
        -> (values: [ValueChange], expiriesChanged: Bool)
    {
        var changed: [ValueChange] = []
        changed.reserveCapacity(changes.count)
        // One allocation when a change adds many keys (growing a dictionary of 100,000 step by step rehashes it).
        if changes.count > overrides.count { overrides.reserveCapacity(overrides.count + changes.count) }
        // Most writes involve no expiry at all: then no expiry is looked up, and no second pass is made.
        let involvesExpiry = !expiries.isEmpty || !newExpiries.isEmpty
        for (key, value) in changes {
            let old: OverrideValue?
            if let value {
                old = overrides.updateValue(value, forKey: key)
            } else {
                old = overrides.removeValue(forKey: key)
            }
            guard involvesExpiry else {
                if old != value { changed.append(ValueChange(key: key, old: old, new: value)) }
                continue
            }
            let oldExpiry = old == nil ? nil : expiries[key]?.expiresAt
            let newExpiry = value == nil ? nil : newExpiries[key]?.expiresAt
            if old != value || oldExpiry != newExpiry {
                changed.append(
                    ValueChange(key: key, old: old, new: value, oldExpiresAt: oldExpiry, newExpiresAt: newExpiry))
            }
        }
        guard involvesExpiry else { return (changed, false) }
        let previous = expiries
        for key in changes.keys {
            expiries[key] = changes[key] == nil ? nil : newExpiries[key]
        }
        expiries = expiries.filter { overrides[$0.key] != nil }
        return (changed, expiries != previous)
    }

    /// Puts changes already worked out (their new values; no expiry involved) in force: only their keys are touched.
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

    /// One key's value before and after a change (`nil`: no override), with the expiry of each (a change of
    /// expiry only has equal values).
    package struct ValueChange: Sendable, Equatable {
        package var key: String
        package var old: OverrideValue?
        package var new: OverrideValue?
        package var oldExpiresAt: Date? = nil
        package var newExpiresAt: Date? = nil
    }
}
