import Flagstaff

/// What happened in a console session, returned by ``FeatureConsole/run()``.
public struct ConsoleOutcome: Sendable, Equatable {
    /// Keys whose override differs from when the console opened (changed here or by another process), sorted.
    public var changedKeys: [String]
    /// Restart-requiring flags whose value still differs from launch when the console closed, sorted
    /// (empty after ``RestartChoice/undo``).
    public var restartRequiredKeys: [String]
    /// What the user chose in the restart prompt (``RestartChoice/notNeeded`` when it was not shown).
    public var restartChoice: RestartChoice
    /// The signal that ended the session (`SIGINT`, `SIGTERM`, `SIGHUP`), or `nil` for a normal quit.
    /// Standalone tools exit with 128 + this number (130, 143, 129).
    public var signal: Int32?
    /// Keys of changes that were never saved: they were still waiting for another process to release the
    /// override store's lock when the console closed (the user quit without them, or a signal ended the
    /// session), sorted. Empty in every other case.
    public var unsavedKeys: [String]

    /// Creates an outcome.
    /// - Parameters:
    ///   - changedKeys: keys whose override changed.
    ///   - restartRequiredKeys: restart-requiring flags still changed since launch.
    ///   - restartChoice: the restart prompt's answer.
    ///   - signal: the ending signal, if any.
    ///   - unsavedKeys: keys of changes that were never saved.
    public init(
        changedKeys: [String], restartRequiredKeys: [String], restartChoice: RestartChoice, signal: Int32? = nil,
        unsavedKeys: [String] = []
    ) {
        self.changedKeys = changedKeys
        self.restartRequiredKeys = restartRequiredKeys
        self.restartChoice = restartChoice
        self.signal = signal
        self.unsavedKeys = unsavedKeys
    }

    /// `true` when restart-requiring changes remain and the user did not restart now: the app must be
    /// restarted later (the standalone console exits with status 3).
    public var needsRestart: Bool { !restartRequiredKeys.isEmpty && restartChoice != .restartNow }
}

extension ConsoleOutcome {
    /// The session's result, from the flags as they are now.
    /// - Parameters:
    ///   - choice: the restart choice.
    ///   - signal: the signal that ended the session, if any.
    ///   - statuses: the value facts of every flag that has an override or needs a restart, read now.
    ///   - openingOverrides: the overrides when the console opened ("changed" is measured against them).
    package init(
        choice: RestartChoice, signal: ConsoleSignal?, statuses: [ConsoleFlagStatus],
        openingOverrides: [String: OverrideValue]
    ) {
        let overridden = Set(statuses.lazy.filter(\.isOverridden).map(\.key))
        let changed =
            statuses.filter { $0.overrideValue != openingOverrides[$0.key] }.map(\.key)
            + openingOverrides.keys.filter { !overridden.contains($0) }
        let pending = statuses.filter(\.isPendingRestart).map(\.key)
        self.init(
            changedKeys: changed.sorted(), restartRequiredKeys: pending.sorted(), restartChoice: choice,
            signal: signal?.number)
    }
}
