import Flagstaff

/// Something ``ConsoleState/update(_:)`` asks the shell to do; ``ConsoleEffectRunner`` performs it.
package enum ConsoleEffect: Sendable, Equatable {
    /// Write these overrides in one store write (the registry then reports the change).
    case setOverrides([String: OverrideState])
    /// Write these values in one store write, for flags and typed settings alike (`nil` removes the override).
    case setOverrideValues([String: OverrideValue?])
    /// Write a bulk change on marked members (by ordinal) in one store write: `on`/`off` for on/off members (flags
    /// and Boolean settings, which all accept them) or `nil` (removal) for any member, checked as the change was
    /// built, so the registry neither looks a key up nor checks a value again.
    case setOnOffValue(OverrideValue?, members: MemberSet)
    /// Open the external editor (`$VISUAL`, `$EDITOR`) on `text`, for the setting with `key`, with the terminal
    /// handed over until it exits; the result comes back as ``ConsoleEvent/externalEditFinished(key:result:)``.
    case editExternally(key: String, text: String)
    /// Undo (`redo` false) or redo the newest change of the store's history, as a store write; the result comes
    /// back as ``ConsoleEvent/historyStepped(_:)``.
    case stepHistory(redo: Bool)
    /// Read the store's change history; it comes back as ``ConsoleEvent/historyLoaded(_:)``.
    case loadHistory
    /// Read the profiles folder with each profile's diff against the store; the result comes back as
    /// ``ConsoleEvent/profilesLoaded(_:)``.
    case loadProfiles
    /// Apply a profile in one store write (one undo step); `changes` is what the picker showed it would change.
    case applyProfile(Profile, replace: Bool, changes: [String: OverrideValue?])
    /// Set `key`'s override to `value` again, expiring `expiresIn` seconds from the registry's now (`nil`:
    /// permanent), in one store write.
    case setOverrideExpiry(key: String, value: OverrideValue, expiresIn: Double?)
    /// Read the bisect session beside the store; the result comes back as ``ConsoleEvent/bisectChanged(_:)``.
    case readBisectSession
    /// Remove every override of the registry's flags.
    case resetAllOverrides
    /// Ask every attached remote source to fetch and activate now (in the background).
    case refreshRemoteSources
    /// Draw a frame (only the cells that changed reach the terminal).
    case repaint
    /// Forget the previous frame and draw everything (Ctrl-L).
    case redrawAll
    /// Hand the terminal back and stop the process (Ctrl-Z); a resize event follows when it continues.
    case suspend
    /// Leave the console with this restart choice; `signal` is the signal that ended the session, if any.
    case quit(RestartChoice, signal: ConsoleSignal?)
}
