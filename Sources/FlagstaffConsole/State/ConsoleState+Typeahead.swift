extension ConsoleState {
    /// Whether `key` only edits the search query in the current mode (typing, Backspace, Ctrl-U).
    ///
    /// Runs of such keys can be applied with one search at the end (``handle(typing:)``): with a large
    /// registry a search costs more than the time between two keystrokes of a fast typist.
    /// - Parameter key: the key.
    /// - Returns: `true` for a query-editing key while searching in a usable terminal.
    func isQueryEdit(_ key: ConsoleKey) -> Bool {
        guard mode.kind == .search, !isTooSmall else { return false }
        switch KeyBindings.binding(for: key, in: .search)?.action {
        case .deleteCharacter?, .clearQuery?: return true
        case nil: if case .character = key { return true } else { return false }
        default: return false
        }
    }

    /// Applies a run of query-editing keys (see ``isQueryEdit(_:)``) and searches once, for the final query.
    ///
    /// The result is the same as handling each key with ``handle(_:)``, without the intermediate searches.
    /// Keys that are not query edits are ignored; the caller handles them one by one.
    /// - Parameter keys: the keys, in the order they were typed.
    mutating func handle(typing keys: [ConsoleKey]) {
        var edited = query
        for key in keys where isQueryEdit(key) {
            switch (KeyBindings.binding(for: key, in: .search)?.action, key) {
            case (.deleteCharacter?, _): if !edited.isEmpty { edited.removeLast() }
            case (.clearQuery?, _): edited = ""
            case (nil, .character(let character)): edited.append(character)
            default: break
            }
        }
        statusMessage = nil
        guard edited != query else { return }
        query = edited
        if edited.isEmpty { rebuildRows() } else { rebuildForNewQuery() }
    }

    /// Keys read at once: a leading run of query edits with one search, else the first key alone; the rest are
    /// handed back (``ConsoleEffect/handleKeys(_:)``) so each sees the effects of those before it performed.
    mutating func handle(typedAhead keys: [ConsoleKey]) -> [ConsoleEffect] {
        guard let first = keys.first else { return [] }
        let run = keys.prefix(while: isQueryEdit)
        var effects: [ConsoleEffect]
        if run.count > 1 {
            handle(typing: Array(run))
            effects = [.repaint]
        } else {
            effects = handle(ConsoleEvent.key(first))
        }
        let rest = keys.dropFirst(max(1, run.count))
        if !rest.isEmpty, !effects.contains(where: \.isQuit) { effects.append(.handleKeys(Array(rest))) }
        return effects
    }
}
