import Flagstaff

/// Everything that can happen to the console: the only input of ``ConsoleState/update(_:)``.
///
/// The terminal produces keys, resizes and signals; the registry's change callbacks produce
/// ``registryChanged(keys:)`` (``registryChangedInBulk(count:)`` for many keys); the run loop produces ticks from
/// its clock; the effect runner produces ``storeWriteSaved``, ``storeWriteFailed(_:)``,
/// ``storeLocked(holder:waited:)`` and ``remoteStatusChanged`` as results of the effects it performed (store
/// writes are reported in the order they were asked for).
package enum ConsoleEvent: Sendable, Equatable {
    /// A decoded key press.
    case key(ConsoleKey)
    /// A run of query-editing keys typed ahead of the console, applied with one search at the end.
    case typeahead([ConsoleKey])
    /// The terminal's size changed (also after coming back from a suspend).
    case resize(width: Int, height: Int)
    /// Overrides or remote values of these flags changed (here, in another process, or remotely).
    case registryChanged(keys: Set<String>)
    /// Overrides or remote values of `count` flags changed at once, more than ``listedChangeLimit``: counted and
    /// shown again by one pass over every flag, so the keys are not listed (a set of 100,000 keys costs more to
    /// make than that pass).
    case registryChangedInBulk(count: Int)
    /// A remote source finished a refresh: its status in the header may have changed.
    case remoteStatusChanged
    /// Time passed without input; `sinceLastFrame` is the time since the last frame was drawn.
    case tick(sinceLastFrame: Duration)
    /// A signal reached the process.
    case signal(ConsoleSignal)
    /// The external editor opened by ``ConsoleEffect/editExternally(key:text:)`` for `key` exited.
    case externalEditFinished(key: String, result: ExternalEditResult)
    /// An undo or redo asked for by ``ConsoleEffect/stepHistory(redo:)`` was performed or refused (it is also
    /// reported as a store write, saved or failed, like the others).
    case historyStepped(HistoryStep)
    /// The change history read for the overlay (``ConsoleEffect/loadHistory``).
    case historyLoaded(HistoryContents)
    /// The profiles folder was read for the profile picker (``ConsoleEffect/loadProfiles``).
    case profilesLoaded(ProfileListing)
    /// The bisect session beside the store was read (``ConsoleEffect/readBisectSession``): `nil` when none.
    case bisectChanged(BisectBanner?)
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

extension ConsoleEvent {
    /// A registry change of more keys than this reaches the console as ``registryChangedInBulk(count:)``.
    package static let listedChangeLimit = 256

    /// The event for a registry change: its keys, or only their number for a change of many.
    package static func registryChange(_ change: FeatureChange) -> ConsoleEvent {
        change.keyCount > listedChangeLimit
            ? .registryChangedInBulk(count: change.keyCount) : .registryChanged(keys: change.keys)
    }
}
