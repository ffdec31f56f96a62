import Foundation

/// Decides what an undo or a redo changes, from the history alone (pure; the store checks the plan against
/// its contents under its lock).
///
/// - A change made by anything but an undo or a redo is *applied* when written; an undo of it makes it
///   *undone*, a redo of it applied again.
/// - Undo reverts the newest applied change (a bulk change or a profile apply is one change): each key goes
///   back to its `old` value, provided it still holds the change's `new` value.
/// - Overrides removed because they expired (origin ``ChangeOrigin/expiry``) are not changes anyone made: they
///   are never undone and do not end what can be redone.
/// - Redo re-applies the change most recently undone, provided no other change was made since that undo;
///   each key goes to its `new` value, provided it still holds its `old` value.
/// - A value put back gets back the expiry it had (the journal's `oldExpires` / `newExpires`); one whose expiry
///   has passed by then is not put back (the key is left without an override), as it would no longer apply.
package enum UndoPlanner {
    /// What to write, and what each key must hold for the write to go ahead.
    package struct Plan: Sendable, Equatable {
        /// The change being undone or redone.
        package var target: HistoryChange
        /// What to write to each key.
        package var changes: [String: OverrideEdit]
        /// What each key must hold now: the edit the change being stepped over left it with.
        package var expected: [String: OverrideEdit]
        /// When each key set by ``changes`` expires, for those that had an expiry when the target change was made
        /// (the override before it, for an undo; after it, for a redo).
        package var expiresAt: [String: Date] = [:]
    }

    /// The plan of an undo.
    /// - Parameter history: every change, oldest first.
    /// - Returns: the plan, or `nil` when nothing is applied.
    package static func undo(_ history: [HistoryChange]) -> Plan? {
        let state = replay(history)
        guard let target = history.last(where: { state.applied[$0.id] == true }) else { return nil }
        return Plan(
            target: target,
            changes: Dictionary(target.entries.map { ($0.key, OverrideEdit($0.old)) }) { _, last in last },
            expected: Dictionary(target.entries.map { ($0.key, OverrideEdit($0.new)) }) { _, last in last },
            expiresAt: Dictionary(
                target.entries.compactMap { entry in entry.oldExpiresAt.map { (entry.key, $0) } }
            ) { _, last in last })
    }

    /// The plan of a redo.
    /// - Parameter history: every change, oldest first.
    /// - Returns: the plan, or `nil` when nothing was undone since the last change.
    package static func redo(_ history: [HistoryChange]) -> Plan? {
        let state = replay(history)
        guard let id = state.redoable.last, let target = history.last(where: { $0.id == id }) else { return nil }
        return Plan(
            target: target,
            changes: Dictionary(target.entries.map { ($0.key, OverrideEdit($0.new)) }) { _, last in last },
            expected: Dictionary(target.entries.map { ($0.key, OverrideEdit($0.old)) }) { _, last in last },
            expiresAt: Dictionary(
                target.entries.compactMap { entry in entry.newExpiresAt.map { (entry.key, $0) } }
            ) { _, last in last })
    }

    /// The newest change that set `key` to something else than `value` after the change at `position`… in
    /// short: who changed the key since. `nil` when no journaled change explains it.
    package static func laterChange(
        of key: String, after target: HistoryChange, in history: [HistoryChange]
    ) -> HistoryChange? {
        guard let position = history.lastIndex(where: { $0.id == target.id }) else { return nil }
        return history[(position + 1)...].last { change in
            change.id != target.id && change.entries.contains { $0.key == key }
        }
    }

    private struct State {
        var applied: [String: Bool] = [:]
        var redoable: [String] = []
    }

    private static func replay(_ history: [HistoryChange]) -> State {
        var state = State()
        for change in history where change.origin != .expiry {
            if let undone = change.undoes {
                state.applied[undone] = false
                state.redoable.append(undone)
            } else if let redone = change.redoes {
                state.applied[redone] = true
                if let index = state.redoable.lastIndex(of: redone) { state.redoable.remove(at: index) }
            } else {
                state.applied[change.id] = true
                state.redoable = []
            }
        }
        return state
    }
}
