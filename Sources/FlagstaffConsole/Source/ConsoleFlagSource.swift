import Flagstaff
import Foundation

/// What the console's feed reads about the flags the state shows: the narrow interface between the console and
/// a ``AnyFeatureRegistry`` (``RegistryFlagSource``), so the console can be driven against an in-memory fake.
/// The state and the layout never call it; the feed (`ConsoleFeed`) reads through it and sends events.
///
/// Flags are identified by their store key. Reads must be cheap for one key (a change reads the changed flags);
/// ``notableStatuses()``, ``outline()`` and ``search(_:scope:)`` cost time proportional to the number of flags and
/// are only called for full rebuilds.
package protocol ConsoleFlagSource: Sendable {
    /// The registry's display name (the header title unless the app gives one).
    var name: String { get }
    /// How many flags there are; it grows when flags are registered at runtime.
    var flagCount: Int { get }
    /// The value facts of every flag that has an override or needs a restart, in declaration order (every
    /// other flag counts as neither): for the header counts, the restart prompt and the outcome.
    func notableStatuses() -> [ConsoleFlagStatus]
    /// The flags that have an override and those that need a restart, by ordinal: one lean pass over every flag
    /// (no status is made), for a change of many flags.
    func notableMembers() -> NotableMembers
    /// One flag's value facts, or `nil` for an unknown key.
    func status(forKey key: String) -> ConsoleFlagStatus?
    /// Everything the list, the detail pane and the restart prompt show about one flag or typed setting
    /// (``ConsoleFlag/setting``), or `nil`.
    func flag(forKey key: String) -> ConsoleFlag?
    /// The tree: flags outside any group, then the groups in declaration order.
    func outline() -> ConsoleOutline
    /// The flags matching `query` in `scope`, best first (every flag in scope, in declaration order, for an
    /// empty query). A typed setting whose current value contains the query matches too.
    func search(_ query: String, scope: SearchScope) -> any LiveSearchHits
    /// The attached remote sources (status in the header, `Ctrl-R` refreshes them).
    var remoteSources: [any RemoteSource] { get }
    /// The override store's last error, as a message, or `nil`.
    var storeErrorMessage: String? { get }
    /// The current date and time expiry is measured against.
    var now: Date { get }
    /// The overrides still stored whose expiry has passed (no longer applied), with their expiry.
    func expiredOverrides() -> [String: OverrideExpiry]
    /// The overrides the store doctor finds stale (orphans, no-ops, expired), sorted by key.
    func staleOverrides() -> [StaleOverride]
    /// The bisect session on the store, as the banner shows it, or `nil` when none is active (or its file cannot
    /// be read: `flagstaff bisect status` reports that).
    var bisectBanner: BisectBanner? { get }
    /// The flag's position among all flags (it never changes; marks are kept by it), or `nil` for an unknown key:
    /// cheap (`M` asks it of every listed flag).
    func ordinal(forKey key: String) -> Int?
    /// The key of the flag at `ordinal`, or `nil`.
    func key(atOrdinal ordinal: Int) -> String?
    /// The marked members a bulk change acts on: those that are on/off (all of them when `onOffOnly` is false),
    /// less those whose value is fixed at launch (`FLAGSTAFF_OVERRIDES`, `-flagstaff KEY=VALUE`), with the number of
    /// each left out.
    func bulkTargets(of marks: MemberSet, onOffOnly: Bool) -> BulkTargets
}

extension ConsoleFlagSource {
    /// The notable statuses' ordinals.
    package func notableMembers() -> NotableMembers {
        var notable = NotableMembers()
        for status in notableStatuses() {
            guard let ordinal = ordinal(forKey: status.key) else { continue }
            if status.isOverridden { notable.overridden.insert(ordinal) }
            if status.isPendingRestart { notable.pendingRestart.insert(ordinal) }
        }
        return notable
    }

    /// Reads each marked flag's key, status and resolution.
    package func bulkTargets(of marks: MemberSet, onOffOnly: Bool) -> BulkTargets {
        var targets = BulkTargets()
        marks.forEach { ordinal in
            guard let key = key(atOrdinal: ordinal), let isOnOff = status(forKey: key)?.isBoolean else { return }
            if onOffOnly, !isOnOff {
                targets.skippedSettings += 1
            } else if flag(forKey: key)?.resolution.source == .launch {
                targets.skippedAtLaunch += 1
            } else {
                targets.members.insert(ordinal)
            }
        }
        return targets
    }
}

/// The flags that have an override and those that need a restart (their value differs from launch), by ordinal.
package struct NotableMembers: Sendable, Equatable {
    /// Flags and settings with an override.
    package var overridden = MemberSet()
    /// Restart-requiring flags and settings whose value differs from launch.
    package var pendingRestart = MemberSet()

    /// None.
    package init() {}
}
