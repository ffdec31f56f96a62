import Flagstaff
import Foundation

/// Everything that can happen to the console: the only input of ``ConsoleState/update(_:)``.
///
/// The terminal produces keys, resizes and signals; the run loop produces ticks with the registry's time; the
/// shell turns the registry's change callbacks into ``flagsChanged(_:)``, answers each ``ConsoleRead`` with the
/// matching event (``searched(_:)``, ``flagsRead(keys:flags:)``, …) and reports the effects it performed
/// (``storeWriteSaved``, ``storeWriteFailed(_:)``, ``storeLocked(holder:waited:)``, …; store writes are reported
/// in the order they were asked for).
package enum ConsoleEvent: Sendable {
    /// The console opened: the state asks for what its first frame shows.
    case opened
    /// A decoded key press.
    case key(ConsoleKey)
    /// Keys read at once (typed ahead of the console): a leading run of query edits is applied with one search,
    /// the rest come back one by one (``ConsoleEffect/handleKeys(_:)``).
    case keys([ConsoleKey])
    /// The terminal's size changed (also after coming back from a suspend).
    case resize(width: Int, height: Int)
    /// Overrides or remote values changed (here, in another process, or remotely), or flags were registered.
    case flagsChanged(FlagsUpdate)
    /// The remote sources' or the store's status, read again (a second passed, or a write failed).
    case statusChanged(ConsoleStatus)
    /// A refresh of the remote sources asked with `Ctrl-R` (``ConsoleEffect/refreshRemoteSources``) finished for one
    /// of them: the status read after it.
    case remoteSourcesRefreshed(ConsoleStatus)
    /// Time passed without input: the registry's time now, and the time since the last frame was drawn.
    case tick(now: Date, sinceLastFrame: Duration)
    /// A signal reached the process.
    case signal(ConsoleSignal)
    /// Search results (``ConsoleRead/search(query:scope:)``).
    case searched(SearchAnswer)
    /// The matched characters of search results by position (``ConsoleRead/matches(query:scope:positions:)``).
    case matchesRead([Int: [SearchField: [Range<Int>]]], query: String, scope: SearchScope)
    /// The stale overrides, sorted by key (``ConsoleRead/staleOverrides``).
    case staleOverridesRead([StaleOverride])
    /// The flags asked for (``ConsoleRead/flags(_:)``): those of `keys` the registry does not declare are missing.
    case flagsRead(keys: [String], flags: [ConsoleFlag])
    /// The restart-requiring flags whose value differs from launch, in declaration order
    /// (``ConsoleRead/pendingRestarts``).
    case pendingRestartsRead([ConsoleFlag])
    /// The apps connected to the flag server (``ConsoleRead/connectedApps``): none without one.
    case appsRead([ConnectedApp])
    /// A change to the marked flags with the members it acts on (``ConsoleRead/bulkTargets(_:_:)``).
    case bulkTargetsRead(BulkChange)
    /// The external editor opened by ``ConsoleEffect/editExternally(key:text:)`` for `key` exited.
    case externalEditFinished(key: String, result: ExternalEditResult)
    /// An undo or redo (``StoreWrite/history(redo:)``) was performed or refused (it is also reported as a store
    /// write, saved or failed, like the others).
    case historyStepped(HistoryStep)
    /// The change history read for the overlay (``ConsoleEffect/loadHistory``).
    case historyLoaded(HistoryContents)
    /// The profiles folder was read for the profile picker (``ConsoleEffect/loadProfiles``).
    case profilesLoaded(ProfileListing)
    /// A profile was saved or deleted (``ConsoleEffect/saveProfile(name:)``, ``ConsoleEffect/deleteProfile(name:)``),
    /// or could not be: what was done (or why not), and the folder read again.
    case profilesChanged(message: String, listing: ProfileListing)
    /// The oldest pending store write (``ConsoleState/pendingWrites``) was saved.
    case storeWriteSaved
    /// The oldest pending store write failed and was dropped; the change was not applied.
    case storeWriteFailed(String)
    /// The write just saved (reported by ``storeWriteSaved`` before this) could not be journaled: the journal and
    /// why. The change stands; `history` and undo will not see it.
    case journalNotWritten(String)
    /// The oldest pending store write is waiting for the store's lock, held by `holder` (for example
    /// `pid 4242 (flagstaff set blueText on)`), for `waited` so far; it is retried until it lands.
    case storeLocked(holder: String, waited: Duration)
}

/// What came back from the external editor.
package enum ExternalEditResult: Sendable, Equatable {
    /// The file's text when the editor exited successfully.
    case edited(String)
    /// Why there is no result (the editor could not start or exited with an error), as a message.
    case failed(String)
}
