import Flagstaff

extension ConsoleState {
    /// Handles one key: the console's state machine.
    ///
    /// Implements the key table of the console spec for each ``ConsoleMode``. Below ``minimumSize`` only `q`,
    /// `Ctrl-C` and resizes act. Quitting goes through the restart prompt when a restart-requiring flag's
    /// value differs from launch.
    /// - Parameter key: the decoded key.
    /// - Returns: what the shell must do (persist overrides, quit, restart, repaint), in order.
    public mutating func handle(_ key: ConsoleKey) -> [ConsoleEffect] {
        if case let .resize(newWidth, newHeight) = key {
            width = newWidth
            height = newHeight
            clampScroll()
            return [.redraw]
        }
        statusMessage = nil
        if isTooSmall {
            if key == .character("q") || key == .control("c") { return [.quit(quitChoiceWithoutPrompt())] }
            return []
        }
        switch mode {
        case .help: return handleHelp(key)
        case .confirmReset: return handleConfirmReset(key)
        case .restartPrompt: return handleRestartPrompt(key)
        case .search: return handleSearch(key)
        case .list: return handleList(key)
        }
    }

    /// Starts quitting: the restart prompt when it applies, otherwise a quit effect.
    mutating func requestQuit() -> [ConsoleEffect] {
        let pending = computePendingRestarts()
        guard !pending.isEmpty else { return [.quit(.notNeeded)] }
        pendingRestarts = pending
        mode = .restartPrompt
        return []
    }

    /// The choice recorded when quitting without being able to ask (terminal too small).
    private func quitChoiceWithoutPrompt() -> RestartChoice {
        registry.featuresRequiringRestart.isEmpty ? .notNeeded : .later
    }

    private mutating func handleHelp(_ key: ConsoleKey) -> [ConsoleEffect] {
        switch key {
        case .character("?"), .escape, .f1, .character("q"): mode = .list
        case .control("c"): mode = .list; return requestQuit()
        case .down, .character("j"), .control("n"), .pageDown, .control("f"), .control("d"):
            helpOffset = min(helpOffset + (key == .down || key == .character("j") || key == .control("n") ? 1 : 5), ConsoleLayout.helpEntries.count - 1)
        case .up, .character("k"), .control("p"), .pageUp, .control("b"), .control("u"):
            helpOffset = max(0, helpOffset - (key == .up || key == .character("k") || key == .control("p") ? 1 : 5))
        case .home, .character("g"): helpOffset = 0
        case .control("l"): return [.redraw]
        default: break
        }
        return []
    }

    private mutating func handleConfirmReset(_ key: ConsoleKey) -> [ConsoleEffect] {
        mode = .list
        if key == .control("c") { return requestQuit() }
        if key == .character("y") || key == .character("Y") {
            statusMessage = "Every override was reset"
            return [.resetAll]
        }
        statusMessage = "Reset cancelled"
        return []
    }

    private mutating func handleRestartPrompt(_ key: ConsoleKey) -> [ConsoleEffect] {
        switch key {
        case .character("r"): return [.restartNow, .quit(.restartNow)]
        case .character("l"), .control("c"): return [.quit(.later)]
        case .character("u"): return [.restoreLaunchValues(keys: pendingRestarts.map(\.key)), .quit(.undo)]
        case .escape:
            mode = .list
            pendingRestarts = []
        case .control("l"): return [.redraw]
        default: break
        }
        return []
    }

    private mutating func handleSearch(_ key: ConsoleKey) -> [ConsoleEffect] {
        switch key {
        case .enter:
            mode = .list
        case .escape:
            mode = .list
            setQuery("")
        case .backspace:
            if !query.isEmpty { setQuery(String(query.dropLast())) }
        case .control("u"):
            setQuery("")
        case .control("c"):
            return requestQuit()
        case .control("l"):
            return [.redraw]
        case .tab, .backTab:
            cycleScope(forward: key == .tab)
        case .up, .control("p"): move(by: -1)
        case .down, .control("n"): move(by: 1)
        case .pageUp: move(by: -listHeight)
        case .pageDown: move(by: listHeight)
        case let .character(character):
            setQuery(query + String(character))
        default: break
        }
        return []
    }

    private mutating func handleList(_ key: ConsoleKey) -> [ConsoleEffect] {
        switch key {
        case .up, .character("k"), .control("p"): move(by: -1)
        case .down, .character("j"), .control("n"): move(by: 1)
        case .pageUp, .control("b"): move(by: -listHeight)
        case .pageDown, .control("f"): move(by: listHeight)
        case .control("u"): move(by: -max(1, listHeight / 2))
        case .control("d"): move(by: max(1, listHeight / 2))
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: rows.count - 1)
        case .left, .character("h"): collapseOrJumpToGroup()
        case .right, .character("l"): setSelectedGroupExpanded(true)
        case .enter: toggleSelectedGroup()
        case .character("/"): mode = .search
        case .tab: cycleScope(forward: true)
        case .backTab: cycleScope(forward: false)
        case .character("o"), .character("+"): return setSelected(.enabled)
        case .character("x"), .character("-"): return setSelected(.disabled)
        case .character("r"), .backspace, .delete: return setSelected(.featureDefault)
        case .character(" "):
            guard let feature = selectedFeature else { return setSelected(.enabled) }
            return setSelected(feature.enabled ? .disabled : .enabled)
        case .character("R"):
            if counts.overridden == 0 && registry.overriddenFeatures.isEmpty {
                statusMessage = "No overrides to reset"
            } else {
                mode = .confirmReset
            }
        case .character("i"): showDetail.toggle(); clampScroll()
        case .control("r"):
            let names = registry.remoteSources.map(\.name)
            guard !names.isEmpty else {
                statusMessage = "No remote source is attached"
                return []
            }
            statusMessage = "Refreshing " + names.joined(separator: ", ") + "…"
            return [.refreshRemoteSources]
        case .character("?"), .f1:
            mode = .help
            helpOffset = 0
        case .control("l"): return [.redraw]
        case .character("q"), .control("c"): return requestQuit()
        case .escape:
            if !query.isEmpty { setQuery("") }
        default: break
        }
        return []
    }

    /// The effect of forcing the selected flag, or a hint when the selection is a group.
    private mutating func setSelected(_ state: OverrideState) -> [ConsoleEffect] {
        guard let feature = selectedFeature else {
            statusMessage = rows.isEmpty ? "No flag selected" : "Select a flag to change it (this row is a group)"
            return []
        }
        return [.setOverride(key: feature.key, state: state)]
    }

    private mutating func setQuery(_ newQuery: String) {
        guard newQuery != query else { return }
        query = newQuery
        // A new query selects its best match; clearing it keeps the cursor on the flag that was selected.
        if newQuery.isEmpty { rebuildRows() } else { rebuildForNewQuery() }
    }

    private mutating func cycleScope(forward: Bool) {
        scope = forward ? scope.next : scope.previous
        rebuildRows()
    }
}
