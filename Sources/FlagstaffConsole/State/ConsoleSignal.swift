/// The signals the console reacts to.
package enum ConsoleSignal: Sendable, Equatable, CaseIterable {
    /// `SIGINT` (Ctrl-C outside raw mode, or `kill -INT`): quits through the restart prompt.
    case interrupt
    /// `SIGTERM`: ends the session at once.
    case terminate
    /// `SIGHUP`: the terminal went away; ends the session at once.
    case hangUp
    /// `SIGTSTP` (Ctrl-Z): suspends, and redraws on `fg`.
    case suspend
}
