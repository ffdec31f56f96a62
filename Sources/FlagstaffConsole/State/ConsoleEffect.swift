import Flagstaff

/// Something the console's state machine asks its shell to do against the registry or the process.
///
/// The reducer (``ConsoleState/handle(_:)``) is pure: it changes the console's own state and returns effects;
/// ``FeatureConsole`` performs them (persisting overrides through the registry's store), then refreshes the
/// state from the registry.
public enum ConsoleEffect: Sendable, Equatable {
    /// Set one flag's override (persisted through the registry's store).
    case setOverride(key: String, state: OverrideState)
    /// Remove every override.
    case resetAll
    /// Put these restart-requiring flags back to the values the app launched with.
    case restoreLaunchValues(keys: [String])
    /// Ask every attached remote source to fetch and activate now (in the background).
    case refreshRemoteSources
    /// Run the embedding app's restart handler.
    case restartNow
    /// Repaint the whole screen.
    case redraw
    /// Leave the console.
    case quit(RestartChoice)
}

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
