/// The console's key table: the one place keys are bound. Dispatch (``ConsoleState``), the help overlay and
/// the footer (``ConsoleLayout``) read it, and a test checks the key table of docs/console.md against it.
///
/// Rows are in help order; the footer shows the ``KeyBinding/footer`` items of the current mode in row order.
/// A key means at most one thing per mode. Keys not in the table are ignored, except that in search mode
/// printable characters are typed into the query and in the reset question any other key answers "no".
/// Below the minimum terminal size only `q` and `Ctrl-C` act (they quit without asking).
package enum KeyBindings {
    /// Every binding, in help order: an overlay's own rows come from its folder (``historyOverlay``,
    /// ``appsOverlay``).
    package static let all: [KeyBinding] = keysBeforeHistory + historyOverlay + keysAfterHistory + appsOverlay

    /// The list's, the search's and the marks' rows.
    private static let keysBeforeHistory: [KeyBinding] = [
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.list], .move(by: -1), help: "move up", footer: "{upDown} move"),
        KeyBinding([.down, .character("j"), .control("n")], in: [.list], .move(by: 1), help: "move down"),
        KeyBinding([.pageUp, .control("b")], in: [.list], .movePage(half: false, down: false), help: "page up"),
        KeyBinding([.pageDown, .control("f")], in: [.list], .movePage(half: false, down: true), help: "page down"),
        KeyBinding([.control("u")], in: [.list], .movePage(half: true, down: false), help: "half a page up"),
        KeyBinding([.control("d")], in: [.list], .movePage(half: true, down: true), help: "half a page down"),
        KeyBinding([.home, .character("g")], in: [.list], .first, help: "first row"),
        KeyBinding([.end, .character("G")], in: [.list], .last, help: "last row"),
        KeyBinding(
            [.left, .character("h")], in: [.list], .collapse, help: "collapse the group; on a flag, go to its group"),
        KeyBinding([.right, .character("l")], in: [.list], .expand, help: "expand the group"),
        KeyBinding(
            [.enter], in: [.list], .activate, help: "collapse or expand the group; edit a setting's value inline"),
        KeyBinding(
            [.character("/")], in: [.list], .startSearch, help: "search as you type", footer: "/ search", priority: 2),
        KeyBinding(
            [.enter], in: [.search], .keepSearch, help: "keep the filter, back to the list", footer: "Enter keep",
            kept: true),
        KeyBinding(
            [.escape], in: [.search], .cancelSearch, help: "clear the search, back to the list", footer: "Esc clear",
            kept: true),
        KeyBinding([.up, .control("p")], in: [.search], .move(by: -1), help: "move up", footer: "{upDown} move"),
        KeyBinding([.down, .control("n")], in: [.search], .move(by: 1), help: "move down"),
        KeyBinding([.pageUp], in: [.search], .movePage(half: false, down: false), help: "page up"),
        KeyBinding([.pageDown], in: [.search], .movePage(half: false, down: true), help: "page down"),
        KeyBinding(
            [.character("o"), .character("+")], in: [.list], .force(on: true),
            help: "force ON (with marks: every marked flag)", footer: "o on", priority: 1, when: .onOnOff),
        KeyBinding(
            [.character("x"), .character("-")], in: [.list], .force(on: false),
            help: "force OFF (with marks: every marked flag)", footer: "x off", priority: 1, when: .onOnOff),
        KeyBinding(
            [.character("r"), .backspace, .delete], in: [.list], .reset,
            help: "reset to the default (with marks: every marked flag)", footer: "r reset", priority: 2,
            when: .onOverride),
        KeyBinding(
            [.character(" ")], in: [.list], .flip, help: "flip the effective value; next choice of an enum setting",
            footer: "{space} toggle", priority: 1, when: .onFlippable),
        KeyBinding(
            [.character("e")], in: [.list], .edit, help: "edit a setting: inline, picker for choices, $EDITOR for JSON",
            footer: "e edit", priority: 1, when: .onSetting),
        KeyBinding(
            [.character("t")], in: [.list], .expiry(.open),
            help: "when the override expires: 1 hour, 1 day, 1 week, never",
            footer: "t expiry", priority: 5, when: .onOverrideOnly),
        KeyBinding(
            [.tab], in: [.list, .search], .cycleScope(forward: true),
            help: "next scope: All, On, Off, Overridden, Stale",
            footer: "Tab scope", priority: 8),
        KeyBinding([.backTab], in: [.list, .search], .cycleScope(forward: false), help: "previous scope"),
        KeyBinding([.backspace], in: [.search], .deleteCharacter, help: "delete the last character"),
        KeyBinding(
            [.control("u")], in: [.search], .clearQuery, help: "clear the field", footer: "Ctrl-U clear field"),
        KeyBinding([.character("R")], in: [.list], .askResetAll, help: "reset every override (asks y/n)"),
        KeyBinding([.character("i")], in: [.list], .toggleDetail, help: "show or hide the detail pane"),
        // Marks, bulk changes, undo/redo and the history overlay (issue 12).
        KeyBinding(
            [.character("m")], in: [.list], .toggleMark, help: "mark or unmark the flag, then move down",
            footer: "m mark", priority: 4, when: .onMember),
        KeyBinding(
            [.character("M")], in: [.list], .markAllListed, help: "mark every listed flag (the search result or scope)"),
        KeyBinding(
            [.character("u")], in: [.list], .history(.step(redo: false)), help: "undo the last change",
            footer: "u undo",
            priority: 3),
        KeyBinding([.character("U")], in: [.list], .history(.step(redo: true)), help: "redo the change last undone"),
        KeyBinding(
            [.character("H")], in: [.list], .history(.open), help: "history of changes (Enter jumps to the flag)",
            footer: "H history", priority: 7),
        KeyBinding(
            [.character("p")], in: [.list], .profile(.open),
            help: "profiles: what applying each would change; Enter applies", footer: "p profiles", priority: 6),
        KeyBinding(
            [.character("y"), .character("Y")], in: [.confirmBulk], .confirmBulkChange,
            help: "yes: change the marked flags (any other key: no)"),
    ]

    /// The other modes' rows.
    private static let keysAfterHistory: [KeyBinding] = [
        KeyBinding(
            [.control("c")], in: [.history, .confirmBulk, .apps], .quit,
            help: "quit (through the restart prompt when it applies)"),
        KeyBinding([.character("?"), .f1], in: [.list], .openHelp, help: "this help", footer: "? help", kept: true),
        KeyBinding(
            [.control("l")], in: [.list, .search, .help, .restartPrompt, .quitWhenSaved, .edit, .pick, .editRejected],
            .redraw,
            help: "redraw the screen"),
        KeyBinding(
            [.control("r")], in: [.list], .refreshRemote, help: "fetch remote values now (attached remote sources)"),
        KeyBinding(
            [.character("q"), .control("c")], in: [.list], .quit,
            help: "quit (through the restart prompt when it applies)", footer: "q quit", kept: true),
        KeyBinding(
            [.control("c")], in: [.search, .help, .confirmReset], .quit,
            help: "quit (through the restart prompt when it applies)"),
        KeyBinding(
            [.escape], in: [.list], .clearSearchOrMarks, help: "clear the search; without one, the marks; never quits"),
        KeyBinding(
            [.character("?"), .escape, .f1, .character("q")], in: [.help], .closeHelp, help: "close the help",
            footer: "? or Esc close help", kept: true),
        KeyBinding([.down, .character("j"), .control("n")], in: [.help], .scrollHelp(by: 1), help: "scroll down"),
        KeyBinding(
            [.pageDown, .control("f"), .control("d")], in: [.help], .scrollHelp(by: 5), help: "scroll down 5 lines"),
        KeyBinding([.up, .character("k"), .control("p")], in: [.help], .scrollHelp(by: -1), help: "scroll up"),
        KeyBinding(
            [.pageUp, .control("b"), .control("u")], in: [.help], .scrollHelp(by: -5), help: "scroll up 5 lines"),
        KeyBinding([.home, .character("g")], in: [.help], .scrollHelpToTop, help: "first entry"),
        KeyBinding(
            [.character("y"), .character("Y")], in: [.confirmReset], .confirmResetAll,
            help: "yes: reset every override (any other key: no)"),
        KeyBinding(
            [.character("r")], in: [.restartPrompt], .restartNow, help: "restart now", footer: "r restart now",
            kept: true),
        KeyBinding(
            [.character("l"), .control("c")], in: [.restartPrompt], .restartLater,
            help: "quit and keep the changes (restart later)", footer: "l later", kept: true),
        KeyBinding(
            [.character("u")], in: [.restartPrompt], .undoRestartChanges, help: "undo those changes and quit",
            footer: "u undo", kept: true),
        KeyBinding(
            [.escape], in: [.restartPrompt], .cancelQuit, help: "back to the console", footer: "Esc cancel", kept: true),
        KeyBinding(
            [.character("y"), .control("c")], in: [.quitWhenSaved], .quitWithoutSaving,
            help: "quit now; changes still waiting for the store's lock are not saved", footer: "y quit unsaved",
            kept: true),
        KeyBinding(
            [.escape, .character("n")], in: [.quitWhenSaved], .cancelQuit,
            help: "back to the console (the changes keep waiting)", footer: "Esc stay", kept: true),
        KeyBinding(
            [.enter], in: [.edit], .commitEdit, help: "store the value (when it is valid)", footer: "Enter save",
            kept: true),
        KeyBinding(
            [.escape, .control("c")], in: [.edit], .cancelEdit, help: "cancel: nothing is written",
            footer: "Esc cancel", kept: true),
        KeyBinding([.left, .control("b")], in: [.edit], .editText(.left), help: "cursor left"),
        KeyBinding([.right, .control("f")], in: [.edit], .editText(.right), help: "cursor right"),
        KeyBinding([.home, .control("a")], in: [.edit], .editText(.home), help: "cursor to the start"),
        KeyBinding([.end, .control("e")], in: [.edit], .editText(.end), help: "cursor to the end"),
        KeyBinding(
            [.backspace], in: [.edit], .editText(.deleteBackward), help: "delete the character before the cursor"),
        KeyBinding(
            [.delete, .control("d")], in: [.edit], .editText(.deleteForward),
            help: "delete the character under the cursor"),
        KeyBinding([.control("u")], in: [.edit], .editText(.deleteToStart), help: "delete to the start"),
        KeyBinding(
            [.control("w")], in: [.edit], .editText(.deleteWordBackward), help: "delete the word before the cursor"),
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.pick], .movePicker(by: -1), help: "previous choice",
            footer: "{upDown} choose", kept: true),
        KeyBinding([.down, .character("j"), .control("n")], in: [.pick], .movePicker(by: 1), help: "next choice"),
        KeyBinding([.enter], in: [.pick], .commitEdit, help: "store the choice", footer: "Enter save", kept: true),
        KeyBinding(
            [.escape, .character("q"), .control("c")], in: [.pick], .cancelEdit, help: "cancel: nothing is written",
            footer: "Esc cancel", kept: true),
        KeyBinding(
            [.character("e"), .enter], in: [.editRejected], .reopenEditor, help: "open the editor again on that text",
            footer: "e edit again", kept: true),
        KeyBinding(
            [.escape, .character("n"), .control("c")], in: [.editRejected], .cancelEdit,
            help: "cancel: nothing is written", footer: "Esc cancel", kept: true),
        // Profiles, expiry (issues 12 and 13).
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.profiles], .profile(.move(by: -1)), help: "previous profile",
            footer: "{upDown} choose", kept: true),
        KeyBinding(
            [.down, .character("j"), .control("n")], in: [.profiles], .profile(.move(by: 1)), help: "next profile"),
        KeyBinding(
            [.enter], in: [.profiles], .profile(.apply), help: "apply the profile (one change, one undo step)",
            footer: "Enter apply", kept: true),
        KeyBinding(
            [.character("R")], in: [.profiles], .profile(.toggleReplace),
            help: "merge or replace: replace also removes the other overrides", footer: "R merge/replace", kept: true),
        KeyBinding(
            [.character("s")], in: [.profiles], .profile(.startSave),
            help: "save the store's overrides as a new profile (asks its name)", footer: "s save", kept: true),
        KeyBinding(
            [.character("d")], in: [.profiles], .profile(.askDelete), help: "delete the profile (asks y/n)",
            footer: "d delete", kept: true),
        KeyBinding(
            [.escape, .character("q"), .character("p"), .control("c")], in: [.profiles], .profile(.close),
            help: "close: nothing is applied", footer: "Esc close", kept: true),
        KeyBinding(
            [.enter], in: [.profileName], .profile(.save), help: "save the profile", footer: "Enter save", kept: true),
        KeyBinding(
            [.escape, .control("c")], in: [.profileName], .profile(.back),
            help: "back to the profiles: nothing is saved", footer: "Esc cancel", kept: true),
        KeyBinding([.backspace], in: [.profileName], .profile(.deleteNameCharacter), help: "delete the last character"),
        KeyBinding(
            [.character("y"), .character("Y")], in: [.profileDelete], .profile(.confirmDelete),
            help: "yes: delete the profile's file (any other key: no)"),
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.expiry], .expiry(.move(by: -1)), help: "previous choice",
            footer: "{upDown} choose", kept: true),
        KeyBinding(
            [.down, .character("j"), .control("n")], in: [.expiry], .expiry(.move(by: 1)), help: "next choice"),
        KeyBinding(
            [.enter], in: [.expiry], .expiry(.choose), help: "set the expiry (one store write)", footer: "Enter set",
            kept: true),
        KeyBinding(
            [.escape, .character("q"), .character("t"), .control("c")], in: [.expiry], .expiry(.close),
            help: "cancel: nothing is written", footer: "Esc cancel", kept: true),
        KeyBinding([.control("l")], in: [.profiles, .expiry, .apps], .redraw, help: "redraw the screen"),
    ]

    /// The binding of `key` in `mode`, if any.
    package static func binding(for key: ConsoleKey, in mode: ConsoleMode.Kind) -> KeyBinding? {
        table[Slot(key: key, mode: mode)]
    }

    /// The rows that act in `mode`, in table order.
    package static func bindings(in mode: ConsoleMode.Kind) -> [KeyBinding] {
        all.filter { $0.modes.contains(mode) }
    }

    private struct Slot: Hashable {
        let key: ConsoleKey
        let mode: ConsoleMode.Kind
    }

    /// Key and mode → binding; the first row wins if two rows bind a key in one mode (a test forbids it).
    private static let table: [Slot: KeyBinding] = {
        var table: [Slot: KeyBinding] = [:]
        for binding in all {
            for key in binding.keys {
                for mode in binding.modes where table[Slot(key: key, mode: mode)] == nil {
                    table[Slot(key: key, mode: mode)] = binding
                }
            }
        }
        return table
    }()
}
