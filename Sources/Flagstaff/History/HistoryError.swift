/// Why an undo or redo was refused. Nothing was changed.
///
/// A struct wrapping a code, so that cases can be added without breaking callers; read ``description``.
package struct HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: Sendable, Equatable {
        case nothingToUndo
        case nothingToRedo
        case noJournal
        case conflict(action: String, target: String, key: String, detail: String)
        case unreadableJournal(action: String, file: String, reason: String)
        case partlyJournaled(action: String, target: String, journaled: Int, written: Int)
    }

    let code: Code

    /// Whether there was simply nothing to undo or redo (not a conflict).
    package var isNothingToDo: Bool { code == .nothingToUndo || code == .nothingToRedo }

    /// The key that was changed since, for a refusal to clobber a later change.
    package var conflictingKey: String? {
        if case .conflict(_, _, let key, _) = code { return key }
        return nil
    }

    /// A message naming the change and, for a conflict, the key and the later change.
    package var description: String {
        switch code {
        case .nothingToUndo: return "nothing to undo: the history has no change still in force"
        case .nothingToRedo: return "nothing to redo: no undone change since the last change"
        case .noJournal: return "this store keeps no change history"
        case .conflict(let action, let target, let key, let detail):
            return
                "cannot \(action) \(target): \(TextSanitizer.sanitize(key)) \(detail); nothing was changed"
        case .unreadableJournal(let action, let file, let reason):
            return "cannot \(action): the journal \(file) cannot be read (\(reason)); nothing was changed"
        case .partlyJournaled(let action, let target, let journaled, let written):
            return
                "cannot \(action) \(target): the journal holds \(journaled) of its \(written) keys (its writer was stopped while recording it), so an \(action) would revert only those; nothing was changed (the store holds the whole change; flagstaff history shows it)"
        }
    }
}
