import Flagstaff

extension ConsoleState {
    /// Carries out a key's action (see ``KeyBindings``): routes it to the part of the console it belongs to.
    mutating func perform(_ action: ConsoleAction) -> [ConsoleEffect] {
        if !marks.isEmpty, let kind = BulkChange.Kind(action) { return changeMarked(kind) }
        if let refusal = launchRefusal(for: action) ?? staleRefusal(for: action) {
            statusMessage = refusal
            return []
        }
        switch action {
        case .toggleMark, .markAllListed, .clearSearchOrMarks, .confirmBulkChange: return performMark(action)
        case .history(let action): return perform(action)
        case .profile(let action): return perform(action)
        case .expiry(let action): return perform(action)
        case .apps(let action): return perform(action)
        default:
            return performInList(action) ?? performChange(action) ?? performQuit(action) ?? performEditing(action)
                ?? []
        }
    }

    /// Moving, collapsing, searching and the list's own keys; `nil` for another action.
    private mutating func performInList(_ action: ConsoleAction) -> [ConsoleEffect]? {
        switch action {
        case .move(let delta): move(by: delta)
        case .movePage(let half, let down):
            let step = half ? max(1, listHeight / 2) : listHeight
            move(by: down ? step : -step)
        case .first: move(to: 0)
        case .last: move(to: rows.count - 1)
        case .collapse: collapseOrJumpToGroup()
        case .expand: setSelectedGroupExpanded(true)
        case .startSearch: mode = .search
        case .keepSearch: mode = .list
        case .cancelSearch:
            mode = .list
            setQuery("")
        case .clearQuery: setQuery("")
        case .deleteCharacter: if !query.isEmpty { setQuery(String(query.dropLast())) }
        case .cycleScope(let forward): cycleScope(forward: forward)
        case .toggleDetail:
            showDetail.toggle()
            clampScroll()
        case .openHelp, .scrollHelpToTop: mode = .help(offset: 0)
        case .closeHelp: mode = .list
        case .scrollHelp(let delta):
            let lines = ConsoleLayout.helpLines(terminalWidth: width, height: height).count
            mode = .help(offset: min(max(0, helpOffset + delta), max(0, lines - 1)))
        case .redraw: return [.redrawAll]
        case .refreshRemote: return refreshRemote()
        default: return nil
        }
        return []
    }

    /// Forcing, resetting and flipping the selected flag, and resetting every override; `nil` for another action.
    private mutating func performChange(_ action: ConsoleAction) -> [ConsoleEffect]? {
        switch action {
        case .force(let on):
            if let flag = selectedFlag, let setting = flag.setting {
                return forceSetting(flag, setting, key: on ? "o" : "x", value: on ? .on : .off)
            }
            return setSelected(on ? .enabled : .disabled)
        case .reset:
            if let flag = selectedFlag, flag.setting != nil {
                return write(.values([flag.key: .remove]), note: Self.changeNote(flag, to: nil))
            }
            return setSelected(.featureDefault)
        case .flip:
            guard let flag = selectedFlag else { return setSelected(.enabled) }
            if let setting = flag.setting { return flipSetting(flag, setting) }
            return setSelected(flag.value ? .disabled : .enabled)
        case .askResetAll:
            if counts.overridden == 0 { statusMessage = "No overrides to reset" } else { mode = .confirmReset }
            return []
        case .confirmResetAll:
            mode = .list
            statusMessage = "Every override was reset"
            return write(.resetAll)
        default: return nil
        }
    }

    /// Quitting and the restart prompt; `nil` for another action.
    private mutating func performQuit(_ action: ConsoleAction) -> [ConsoleEffect]? {
        switch action {
        case .quit: return requestQuit()
        case .restartNow: return [.quit(.restartNow, signal: nil, restarts: pendingRestarts)]
        case .restartLater: return [.quit(.later, signal: nil)]
        case .undoRestartChanges:
            // Quits once the undo is saved (at once, unless another process holds the store's lock).
            guard case .restartPrompt(let prompt) = mode else { return [] }
            mode = .quitWhenSaved(then: .undo)
            return write(.values(prompt.undo))
        case .cancelQuit:
            mode = .list
            return []
        case .quitWithoutSaving:
            // An unsaved undo leaves the restart-requiring changes in place: a restart is still due.
            let choice = quitChoiceAfterSave
            if choice == .undo { return [.quit(.later, signal: nil)] }
            return requestQuit(waitForWrites: false)
        default: return nil
        }
    }

    /// Editing a typed setting (inline, in the choice picker, in the external editor); `nil` for another action.
    private mutating func performEditing(_ action: ConsoleAction) -> [ConsoleEffect]? {
        switch action {
        case .activate:
            if selectedFlag?.setting != nil { return editSelected(inline: true) }
            toggleSelectedGroup()
        case .edit: return editSelected(inline: false)
        case .editText(let command):
            if case .edit(var editor) = mode {
                editor.perform(command)
                mode = .edit(editor)
            }
        case .commitEdit: return commitEdit()
        case .cancelEdit: cancelEdit()
        case .movePicker(let delta):
            if case .pick(var picker) = mode, !picker.choices.isEmpty {
                picker.selected = min(max(0, picker.selected + delta), picker.choices.count - 1)
                mode = .pick(picker)
            }
        case .reopenEditor:
            guard let rejected = rejectedEdit else { return [] }
            mode = .list
            return [.editExternally(key: rejected.key, text: rejected.text)]
        default: return nil
        }
        return []
    }

    /// `Ctrl-R`: asks every attached remote source to fetch now.
    private mutating func refreshRemote() -> [ConsoleEffect] {
        let names = status.remotes.map(\.name)
        guard !names.isEmpty else {
            statusMessage = "No remote source is attached"
            return []
        }
        statusMessage = "Refreshing " + names.joined(separator: ", ") + "…"
        return [.refreshRemoteSources]
    }

    /// The effect of forcing the selected flag, or a hint when the selection is a group.
    private mutating func setSelected(_ state: OverrideState) -> [ConsoleEffect] {
        guard let key = selectedKey else {
            statusMessage = rows.isEmpty ? "No flag selected" : "Select a flag to change it (this row is a group)"
            return []
        }
        let value = OverrideValue(state)
        let note = selectedFlag.map { Self.changeNote($0, to: value) } ?? "Removed the override of \(key)"
        return write(.values([key: OverrideEdit(value)]), note: note)
    }

    mutating func setQuery(_ newQuery: String) {
        guard newQuery != query else { return }
        query = newQuery
        // A new query selects its best match; clearing it keeps the cursor on the flag that was selected.
        if newQuery.isEmpty { rebuildRows() } else { rebuildForNewQuery() }
    }

    /// Why `action` may not change the selected flag or setting: its value was fixed when the app started
    /// (`FLAGSTAFF_OVERRIDES`, `-flagstaff KEY=VALUE`) and cannot change while it runs; `nil` when it may.
    func launchRefusal(for action: ConsoleAction) -> String? {
        switch action {
        case .force, .reset, .flip, .edit: break
        case .activate where selectedFlag?.setting != nil: break
        default: return nil
        }
        guard let flag = selectedFlag, flag.resolution.source == .launch else { return nil }
        let origin =
            flag.setting?.explanation.chain.first { $0.source == .launch }?.detail
            ?? flag.resolution.chain.first { $0.source == .launch }?.detail ?? "launch overrides"
        return "\(flag.key) is fixed at launch by \(origin): not editable while the app runs"
    }
}
