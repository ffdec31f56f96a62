import Flagstaff

extension ConsoleState {
    /// Handles one event: the console's whole decision logic.
    ///
    /// Keys are looked up in ``KeyBindings`` for the current mode. Below ``minimumSize`` only `q` and `Ctrl-C`
    /// act (quitting without asking). Quitting goes through the restart prompt when a restart-requiring flag's
    /// value differs from launch; `SIGINT` acts like `Ctrl-C` (a second one in the prompt quits keeping the
    /// changes); `SIGTERM` and `SIGHUP` end the session at once. Registry changes update only the counts and
    /// rows of the changed flags. Ticks repaint once a second while remote sources are attached (their status
    /// changes without any flag changing), and pick up flags registered at runtime.
    ///
    /// Every store write asked for joins ``pendingWrites`` until the runner reports it saved or failed; while
    /// one waits for another process's lock the footer says who holds it. Quitting with writes pending waits
    /// for them (``ConsoleMode/quitWhenSaved``): it goes on by itself once they are saved, `y` or a second
    /// `Ctrl-C` quits without them, `Esc` stays.
    /// - Parameter event: what happened.
    /// - Returns: what the shell must do, in order. A ``ConsoleEffect/quit(_:signal:)`` is always last.
    package mutating func update(_ event: ConsoleEvent) -> [ConsoleEffect] {
        var effects = handle(event)
        if effects.contains(where: \.isQuit) { return effects }
        // Keys typed ahead come back after the reads this event needs, so they see the answers.
        let typedAhead = effects.filter(\.isTypedAhead)
        effects.removeAll(where: \.isTypedAhead)
        return effects + reads() + typedAhead
    }

    /// Handles one event, without the reads it leads to (``update(_:)`` adds them).
    mutating func handle(_ event: ConsoleEvent) -> [ConsoleEffect] {
        switch event {
        case .opened:
            // A remote source that failed before the console opened (a fetch days ago) says why, once.
            statusMessage = remoteFailureMessage(comparedWith: nil)
            return [.repaint]
        case .key(let key):
            statusMessage = nil
            quitSignal = nil
            return withRepaint(handle(key))
        case .keys(let keys):
            return handle(typedAhead: keys)
        case .resize(let newWidth, let newHeight):
            width = newWidth
            height = newHeight
            clampScroll()
            return [.redrawAll]
        case .flagsChanged(let update):
            apply(update)
            return workflowEffects() + [.repaint]
        case .tick(let now, let sinceLastFrame):
            self.now = now
            guard sinceLastFrame >= .seconds(1) else { return [] }
            // The apps overlay follows the server's clients (connects, fetches, disconnects) while it is open.
            if mode.kind == .apps { return [.read(.status), .read(.connectedApps)] }
            if !status.remotes.isEmpty { return [.read(.status)] }
            return showsExpiry() ? [.repaint] : []
        case .signal(let signal):
            return handle(signal)
        case .externalEditFinished(let key, let result):
            return withRepaint(finishExternalEdit(key: key, result: result))
        default:
            return handleAnswer(event) ?? handleOverlayContents(event) ?? handleStoreResult(event) ?? []
        }
    }

    /// Takes the answer to a read about the flags or the status in (``ConsoleRead``); `nil` for another event.
    private mutating func handleAnswer(_ event: ConsoleEvent) -> [ConsoleEffect]? {
        switch event {
        case .remoteSourcesRefreshed(let status):
            take(status, afterRefresh: true)
            return [.repaint]
        case .statusChanged(let status):
            take(status)
            // A flag server's clients report evaluations without any flag changing: read the flags again.
            if !status.remotes.isEmpty { forgetFlags() }
            return [.repaint]
        case .searched(let answer):
            receive(answer)
            return [.repaint]
        case .matchesRead(let matches, let query, let scope):
            receive(matches: matches, query: query, scope: scope)
            return [.repaint]
        case .staleOverridesRead(let stale):
            receive(stale: stale)
            return [.repaint]
        case .flagsRead(let keys, let read):
            receive(keys: keys, flags: read)
            return [.repaint]
        case .pendingRestartsRead(let read):
            return withRepaint(askAboutRestart(read))
        case .bulkTargetsRead(let change):
            return withRepaint(changeMarked(with: change))
        default:
            return nil
        }
    }

    /// Takes what an overlay shows in (the history, the profiles, the connected apps); `nil` for another event.
    private mutating func handleOverlayContents(_ event: ConsoleEvent) -> [ConsoleEffect]? {
        switch event {
        case .historyStepped(let step):
            finishHistoryStep(step)
            return [.repaint]
        case .historyLoaded(let contents):
            showHistory(contents)
            return [.repaint]
        case .profilesLoaded(let listing):
            receive(listing)
            return [.repaint]
        case .profilesChanged(let message, let listing):
            receive(profileChange: message, listing: listing)
            return [.repaint]
        case .appsRead(let apps):
            showApps(apps)
            return [.repaint]
        default:
            return nil
        }
    }

    /// Takes the result of a store write in; `nil` for another event.
    private mutating func handleStoreResult(_ event: ConsoleEvent) -> [ConsoleEffect]? {
        switch event {
        case .storeWriteSaved:
            // Every action answers in the footer: a change says what it changed.
            if let note = finishOldestWrite(), statusMessage == nil { statusMessage = note.text }
            // Removing an orphan or an expired entry changes no flag, so no change event rebuilds the scope.
            if showsStale { rebuildRows() }
            return withRepaint(quitIfSaved())
        case .storeWriteFailed(let message):
            finishOldestWrite()
            statusMessage = "Could not save the change: " + message
            if case .quitWhenSaved = mode {
                mode = .list
                statusMessage = "Not quitting: could not save the change: " + message
            }
            // The store's error is in the header too.
            return [.read(.status), .repaint]
        case .journalNotWritten(let problem):
            statusMessage = "Saved, but not recorded in the history: " + problem
            return [.repaint]
        case .storeLocked(let holder, let waited):
            storeLockWait = pendingWrites.isEmpty ? nil : StoreLockWait(holder: holder, waited: waited)
            return [.repaint]
        default:
            return nil
        }
    }

    /// Asks for a store write: it joins ``pendingWrites`` (its flags show "saving") until the runner reports it.
    /// The flags it changes come back with the change the registry reports (``ConsoleEvent/flagsChanged(_:)``).
    /// - Parameters:
    ///   - change: the write.
    ///   - note: what it changes, in words, for the footer once it is saved.
    mutating func write(_ change: StoreWrite, note: String? = nil) -> [ConsoleEffect] {
        write(change, savedNote: note.map(SavedNote.text))
    }

    /// Asks for a store write whose footer note is made once it is saved.
    mutating func write(_ change: StoreWrite, savedNote: SavedNote?) -> [ConsoleEffect] {
        pendingWrites.append(change)
        pendingWriteNotes.append(savedNote)
        return [.write(change)]
    }

    /// Drops the oldest pending write (the runner reports writes in order) and the lock notice with it.
    /// - Returns: the write's note (what it changed, in words), if it has one.
    @discardableResult
    private mutating func finishOldestWrite() -> SavedNote? {
        storeLockWait = nil
        guard !pendingWrites.isEmpty else { return nil }
        pendingWrites.removeFirst()
        return pendingWriteNotes.isEmpty ? nil : pendingWriteNotes.removeFirst()
    }

    /// Quits once the last pending write is saved, when the user asked to quit meanwhile.
    private mutating func quitIfSaved() -> [ConsoleEffect] {
        guard case .quitWhenSaved(let choice) = mode, pendingWrites.isEmpty else { return [] }
        mode = .list
        if let choice { return [.quit(choice, signal: nil)] }
        return requestQuit()
    }

    private func withRepaint(_ effects: [ConsoleEffect]) -> [ConsoleEffect] {
        if effects.contains(where: \.isQuit) || effects.contains(.redrawAll) { return effects }
        return effects + [.repaint]
    }

    private mutating func handle(_ signal: ConsoleSignal) -> [ConsoleEffect] {
        switch signal {
        case .suspend:
            return [.suspend]
        case .terminate, .hangUp:
            return [.quit(quitChoiceWithoutPrompt(), signal: signal)]
        case .interrupt:
            statusMessage = nil
            quitSignal = .interrupt
            let effects = mode.kind == .restartPrompt ? [.quit(.later, signal: nil)] : handle(.control("c"))
            return withRepaint(
                effects.map { effect in
                    if case .quit(let choice, _, let restarts) = effect {
                        return .quit(choice, signal: .interrupt, restarts: restarts)
                    }
                    return effect
                })
        }
    }

    /// Handles one key in the current mode (see ``KeyBindings``).
    mutating func handle(_ key: ConsoleKey) -> [ConsoleEffect] {
        if isTooSmall {
            if key == .character("q") || key == .control("c") { return [.quit(quitChoiceWithoutPrompt(), signal: nil)] }
            return []
        }
        if let binding = KeyBindings.binding(for: key, in: mode.kind) { return perform(binding.action) }
        switch mode {
        case .search:
            if case .character(let character) = key { setQuery(query + String(character)) }
        case .edit(var editor):
            if case .character(let character) = key {
                editor.insert(character)
                mode = .edit(editor)
            }
        case .confirmReset:
            mode = .list
            statusMessage = "Reset cancelled"
        case .confirmBulk:
            cancelBulk()
        case .profileName:
            if case .character(let character) = key { typeProfileName(character) }
        case .profileDelete:
            backToProfiles()
            statusMessage = "Kept " + (profilePicker?.selectedEntry?.name ?? "the profile")
        case .list, .help, .restartPrompt, .quitWhenSaved, .pick, .editRejected, .history, .profiles, .expiry, .apps:
            break
        }
        return []
    }

    /// Starts quitting: first waiting for the pending store writes (``ConsoleMode/quitWhenSaved``), then
    /// asking which flags need a restart (``askAboutRestart(_:)`` goes on with the answer).
    /// - Parameter waitForWrites: `false` to go on although writes are still pending (`y` in the question).
    mutating func requestQuit(waitForWrites: Bool = true) -> [ConsoleEffect] {
        mode = .list
        if waitForWrites, !pendingWrites.isEmpty {
            mode = .quitWhenSaved(then: nil)
            return []
        }
        return [.read(.pendingRestarts)]
    }

    /// Quits, or shows the restart prompt when restart-requiring flags changed since launch.
    private mutating func askAboutRestart(_ read: [ConsoleFlag]) -> [ConsoleEffect] {
        let signal = quitSignal
        quitSignal = nil
        guard !read.isEmpty else { return [.quit(.notNeeded, signal: signal)] }
        mode = .restartPrompt(RestartPrompt(changes: Self.pendingRestarts(read), undo: undoOverrides(read)))
        return []
    }

    /// The choice recorded when quitting without being able to ask (terminal too small, a signal).
    private func quitChoiceWithoutPrompt() -> RestartChoice {
        counts.pendingRestart == 0 ? .notNeeded : .later
    }

    /// The overrides that put the restart prompt's flags back: the override each had when the console opened;
    /// when that does not give the launch value (the launch is older than this session, or the default changed),
    /// no override if that gives it, else an override forcing it. For a typed setting the same.
    /// - Parameter flags: the restart-requiring flags whose value differs from launch, as read when quitting.
    func undoOverrides(_ flags: [ConsoleFlag]) -> [String: OverrideEdit] {
        var changes: [String: OverrideEdit] = [:]
        for flag in flags {
            let opening = openingOverrides[flag.key]
            if let setting = flag.setting {
                let value = opening ?? setting.valueWithoutOverride
                let target: OverrideValue? =
                    value == setting.launchValue
                    ? opening : setting.valueWithoutOverride == setting.launchValue ? nil : setting.launchValue
                changes[flag.key] = OverrideEdit(target)
                continue
            }
            let openingState = opening?.overrideState ?? .featureDefault
            let value = openingState.forcedValue ?? flag.defaultValue
            let state: OverrideState =
                value == flag.launchValue
                ? openingState
                : flag.defaultValue == flag.launchValue ? .featureDefault : OverrideState(forcing: flag.launchValue)
            changes[flag.key] = OverrideEdit(OverrideValue(state))
        }
        return changes
    }
}

extension ConsoleEffect {
    /// Whether this effect ends the session.
    package var isQuit: Bool {
        if case .quit = self { return true }
        return false
    }

    /// Whether this effect hands keys typed ahead back.
    var isTypedAhead: Bool {
        if case .handleKeys = self { return true }
        return false
    }
}
