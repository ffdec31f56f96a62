import Flagstaff

/// Something ``ConsoleState/update(_:)`` asks the shell to do; ``ConsoleEffectRunner`` performs it.
package enum ConsoleEffect: Sendable, Equatable {
    /// Change the override store: the one write effect. Performed at once when the store's lock is free, else
    /// in the background once it is; the result comes back as ``ConsoleEvent/storeWriteSaved`` or
    /// ``ConsoleEvent/storeWriteFailed(_:)`` (in the order the writes were asked for), and the registry reports
    /// the flags it changed.
    case write(StoreWrite)
    /// Read something about the flags; the answer comes back as an event (see ``ConsoleRead``).
    case read(ConsoleRead)
    /// Open the external editor (`$VISUAL`, `$EDITOR`) on `text`, for the setting with `key`, with the terminal
    /// handed over until it exits; the result comes back as ``ConsoleEvent/externalEditFinished(key:result:)``.
    case editExternally(key: String, text: String)
    /// Read the store's change history; it comes back as ``ConsoleEvent/historyLoaded(_:)``.
    case loadHistory
    /// Read the profiles folder with each profile's diff against the store; the result comes back as
    /// ``ConsoleEvent/profilesLoaded(_:)``.
    case loadProfiles
    /// Save the store's overrides as a new profile named `name` in the profiles folder; the result comes back as
    /// ``ConsoleEvent/profilesChanged(message:listing:)``.
    case saveProfile(name: String)
    /// Delete the profile named `name`; the result comes back as ``ConsoleEvent/profilesChanged(message:listing:)``.
    case deleteProfile(name: String)
    /// Ask every attached remote source to fetch and activate now (in the background).
    case refreshRemoteSources
    /// Feed these keys back as the next input (``ConsoleEvent/keys(_:)``), after this event's other effects and a
    /// frame (the rest of a run typed ahead).
    case handleKeys([ConsoleKey])
    /// Draw a frame (only the cells that changed reach the terminal).
    case repaint
    /// Forget the previous frame and draw everything (Ctrl-L).
    case redrawAll
    /// Hand the terminal back and stop the process (Ctrl-Z); a resize event follows when it continues.
    case suspend
    /// Leave the console with this restart choice; `signal` is the signal that ended the session, if any;
    /// `restarts` are the flags the restart handler is given (the restart prompt's, with
    /// ``RestartChoice/restartNow``; empty otherwise). The shell needs nothing else from the state to quit.
    case quit(RestartChoice, signal: ConsoleSignal?, restarts: [PendingRestart] = [])
}
