/// What the user chose about flags whose change needs a restart.
public enum RestartChoice: String, Sendable, Equatable {
    /// No restart-requiring flag changed, so nothing was asked.
    case notNeeded
    /// `r`: restart now (the restart handler ran).
    case restartNow
    /// `l`: quit and keep the changes; the app must be restarted later.
    case later
    /// `u`: the restart-requiring changes were undone.
    case undo
}
