import Flagstaff
import Testing

@testable import FlagstaffConsole

/// One test per row of the console spec's key table, asserting on the rendered grid.
@Suite struct ConsoleKeyTableTests {
    let registry: AnyFeatureRegistry
    var state: ConsoleHarness

    init() throws {
        registry = try makeRegistry()
        state = ConsoleHarness(registry: registry, width: 100, height: 30)
    }

    /// The label on the reverse-video (selected) row.
    func selectedText(_ screen: ScreenBuffer) -> String {
        for row in 3..<screen.height where screen.cell(row: row, column: 0).reverse {
            return screen.text(row: row).trimmingCharacters(in: .whitespaces)
        }
        return ""
    }

    @Test mutating func movesWithArrowsVimKeysAndControlNP() {
        #expect(selectedText(ConsoleLayout.render(state)).hasPrefix("Blue Text"))
        for key in [ConsoleKey.down, .character("j"), .control("n")] {
            press(key, into: &state)
        }
        #expect(selectedText(ConsoleLayout.render(state)).hasPrefix("Is Like Button For Moment Enabled"))
        for key in [ConsoleKey.up, .character("k"), .control("p")] {
            press(key, into: &state)
        }
        let screen = ConsoleLayout.render(state)
        #expect(selectedText(screen).hasPrefix("Blue Text"))
        // The whole selected row is reverse video, other rows are not.
        let row = screen.row(containing: "Blue Text")
        #expect((0..<100).allSatisfy { screen.cell(row: row, column: $0).reverse })
        #expect(!screen.cell(row: screen.row(containing: "Use Tab Bar Nav"), column: 0).reverse)
        press(.up, into: &state)
        #expect(state.cursor == 0, "moving above the first row stays on it")
    }

    @Test mutating func pagesAndHalfPages() throws {
        let many = (0..<60).map { RegistryManifest.Flag(key: "extra\($0)", label: "Extra \($0)") }
        state = ConsoleHarness(registry: try makeRegistry(extraFlags: many), width: 100, height: 30)
        let page = state.listHeight
        #expect(page == 21)
        press(.pageDown, into: &state)
        #expect(state.cursor == page)
        press(.control("f"), into: &state)
        #expect(state.cursor == 2 * page)
        press(.pageUp, into: &state)
        #expect(state.cursor == page)
        press(.control("b"), into: &state)
        #expect(state.cursor == 0)
        press(.control("d"), into: &state)
        #expect(state.cursor == page / 2)
        press(.control("u"), into: &state)
        #expect(state.cursor == 0)
        press(.pageDown, .pageDown, into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(selectedText(screen).hasPrefix("Extra \(2 * page - 2)"), "the list scrolled to keep the cursor visible")
        #expect(screen.row(containing: "Blue Text") == -1)
    }

    @Test mutating func homeEndAndGG() {
        press(.end, into: &state)
        #expect(selectedText(ConsoleLayout.render(state)).hasPrefix("Avatar Badge"))
        press(.home, into: &state)
        #expect(selectedText(ConsoleLayout.render(state)).hasPrefix("Blue Text"))
        press(.character("G"), into: &state)
        #expect(state.cursor == state.rows.count - 1)
        press(.character("g"), into: &state)
        #expect(state.cursor == 0)
    }

    @Test mutating func collapsesAndExpandsGroups() {
        press(.down, .down, into: &state)  // ▾ Moments
        var screen = ConsoleLayout.render(state)
        #expect(selectedText(screen) == "▾ Moments")
        #expect(screen.cell(at: "▾ Moments")?.bold == true)
        press(.left, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(selectedText(screen) == "▸ Moments (2)")
        #expect(screen.row(containing: "Is Rounded Avatar") == -1)
        press(.right, into: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Is Rounded Avatar") > 0)
        press(.character("h"), into: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Is Rounded Avatar") == -1)
        press(.character("l"), into: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Is Rounded Avatar") > 0)
        press(.enter, into: &state)
        #expect(ConsoleLayout.render(state).find("▸ Moments (2)") != nil)
        press(.enter, into: &state)
        #expect(ConsoleLayout.render(state).find("▾ Moments") != nil)
        // ← on a flag jumps to its group; ← on a nested collapsed group jumps to its parent.
        press(.end, .left, into: &state)
        #expect(selectedText(ConsoleLayout.render(state)) == "▾ Cells")
        press(.left, .left, into: &state)
        #expect(selectedText(ConsoleLayout.render(state)) == "▾ List")
    }

    @Test mutating func slashStartsSearchEnterKeepsEscClears() {
        press(.character("/"), into: &state)
        #expect(state.mode.kind == .search)
        type("avatar", into: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 1).hasPrefix(" / avatar▏"))
        #expect(screen.row(containing: "Blue Text") == -1)
        #expect(screen.row(containing: "Moments → Is Rounded Avatar") > 0)
        press(.down, into: &state)  // ↑/↓ still move while typing
        #expect(state.cursor == 1 && state.mode.kind == .search)
        press(.enter, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(state.mode.kind == .list)
        #expect(screen.text(row: 1).hasPrefix(" / avatar "), "Enter keeps the filter, without the typing cursor")
        #expect(screen.row(containing: "Blue Text") == -1)
        press(.escape, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 1).hasPrefix(" / to search"))
        #expect(screen.row(containing: "Blue Text") == 3)
        #expect(selectedText(screen).hasPrefix("Is Rounded Avatar"), "clearing the search keeps the selected flag")
        // Ctrl-U clears the field while typing; Backspace deletes one character.
        press(.character("/"), into: &state)
        type("blue", into: &state)
        press(.backspace, into: &state)
        #expect(state.query == "blu")
        press(.control("u"), into: &state)
        #expect(state.query.isEmpty && state.mode.kind == .search)
        press(.escape, into: &state)
        #expect(state.mode.kind == .list)
    }

    @Test mutating func tabCyclesScopes() throws {
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "blueText")))
        state.refreshAll()
        var seen: [String] = []
        for _ in 0..<4 {
            let screen = ConsoleLayout.render(state)
            let line = screen.text(row: 1)
            seen.append(String(line[line.firstIndex(of: "[")!...line.firstIndex(of: "]")!]))
            press(.tab, into: &state)
        }
        #expect(seen == ["[All]", "[On]", "[Off]", "[Overridden]"])
        #expect(state.scope == .all)
        press(.backTab, into: &state)
        #expect(state.scope == .overridden)
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Blue Text") == 3, "flat list: one overridden flag")
        #expect(screen.row(containing: "Is Rounded Avatar") == -1)
        #expect(screen.cell(at: "[Overridden]")?.bold == true)
    }

    @Test mutating func forceOnOffAndResetShowColourAndUnderline() throws {
        // o / + → ON override: green, underlined, bold, "override".
        for key in [ConsoleKey.character("o"), .character("+")] {
            state = ConsoleHarness(registry: registry, width: 100, height: 30)
            try apply(press(key, into: &state), to: &state)
            let screen = ConsoleLayout.render(state)
            let row = screen.row(containing: "Blue Text")
            #expect(screen.text(row: row).contains("ON   override"))
            for cell in screen.cells(of: "Blue Text") + [screen.cell(row: row, column: screen.find("ON", inRow: row)!)]
            {
                #expect(cell.foreground == .green && cell.underline && cell.bold)
            }
            #expect(screen.text(row: 0).contains("1 overridden"))
        }
        // x / - → OFF override: red and underlined.
        for key in [ConsoleKey.character("x"), .character("-")] {
            try apply(press(key, into: &state), to: &state)
            let screen = ConsoleLayout.render(state)
            #expect(screen.text(row: screen.row(containing: "Blue Text")).contains("OFF  override"))
            #expect(screen.cells(of: "Blue Text").allSatisfy { $0.foreground == .red && $0.underline })
        }
        // r / Backspace / Delete → default: red (default OFF), no underline.
        for key in [ConsoleKey.character("r"), .backspace, .delete] {
            try apply(press(.character("o"), into: &state), to: &state)
            try apply(press(key, into: &state), to: &state)
            let screen = ConsoleLayout.render(state)
            #expect(screen.text(row: screen.row(containing: "Blue Text")).contains("OFF  default"))
            #expect(screen.cells(of: "Blue Text").allSatisfy { $0.foreground == .red && !$0.underline && !$0.bold })
            #expect(registry.flag(forKey: "blueText")?.override == .featureDefault)
        }
        // A default-ON flag at its default is green and not underlined.
        let screen = ConsoleLayout.render(state)
        #expect(screen.cells(of: "Is Rounded Avatar").allSatisfy { $0.foreground == .green && !$0.underline })
    }

    @Test mutating func spaceFlipsTheEffectiveValue() throws {
        try apply(press(.character(" "), into: &state), to: &state)
        #expect(registry.flag(forKey: "blueText")?.override == .enabled)
        try apply(press(.character(" "), into: &state), to: &state)
        #expect(registry.flag(forKey: "blueText")?.override == .disabled)
        #expect(ConsoleLayout.render(state).cells(of: "Blue Text").allSatisfy { $0.foreground == .red && $0.underline })
    }

    @Test mutating func capitalRResetsEverythingAfterYes() throws {
        try apply(press(.character("o"), into: &state), to: &state)
        try apply(press(.down, .character("o"), into: &state), to: &state)
        #expect(registry.overriddenFeatures.count == 2)
        press(.character("R"), into: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 29).contains("Reset all 2 overrides? y yes  n no"))
        try apply(press(.character("n"), into: &state), to: &state)
        #expect(registry.overriddenFeatures.count == 2)
        #expect(ConsoleLayout.render(state).text(row: 29).contains("Reset cancelled"))
        press(.character("R"), into: &state)
        try apply(press(.character("y"), into: &state), to: &state)
        #expect(registry.overriddenFeatures.isEmpty)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).contains("0 overridden"))
        press(.character("R"), into: &state)
        #expect(state.mode.kind == .list)
        #expect(ConsoleLayout.render(state).text(row: 29).contains("No overrides to reset"))
        try apply(press(.home, .character("o"), into: &state), to: &state)  // Blue Text: no restart needed
        press(.character("R"), into: &state)
        #expect(
            press(.control("c"), into: &state) == [.quit(.notNeeded, signal: nil)], "Ctrl-C in the y/n question quits")
    }

    @Test mutating func iTogglesTheDetailPane() {
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 25).hasPrefix(" blueText — Tint body text blue"))
        #expect(screen.text(row: 26).hasPrefix(" effective OFF ← no override · default OFF"))
        #expect(screen.text(row: 27).hasPrefix(" kind static"))
        press(.character("i"), into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Tint body text blue") == -1)
        #expect(state.listHeight == 25)
        press(.character("i"), into: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Tint body text blue") == 25)
    }

    @Test mutating func helpOverlayOpensWithQuestionMarkOrF1AndCloses() {
        for open in [ConsoleKey.character("?"), .f1] {
            for close in [ConsoleKey.character("?"), .escape] {
                press(open, into: &state)
                let screen = ConsoleLayout.render(state)
                #expect(screen.find("Keys") != nil)
                #expect(screen.find("R                             reset every override (asks y/n)") != nil)
                #expect(screen.find("? or Esc closes") != nil)
                press(.character("o"), into: &state)  // ignored while help is open
                #expect(state.mode.kind == .help)
                press(close, into: &state)
                #expect(state.mode.kind == .list)
                #expect(ConsoleLayout.render(state).find("? or Esc closes") == nil)
            }
        }
    }

    @Test func helpScrollsInAShortTerminal() throws {
        #expect(ConsoleLayout.helpLines[0].hasPrefix("Up k Ctrl-P                   move up"))
        // Too narrow for the 30-column key column: each entry on one line when it fits.
        let lines = ConsoleLayout.helpLines(terminalWidth: 60, height: 12)
        let first = lines[0]
        let last = try #require(lines.last)
        #expect(first == "Up k Ctrl-P  move up")
        var small = ConsoleHarness(registry: registry, width: 60, height: 12)
        press(.character("?"), into: &small)
        var screen = ConsoleLayout.render(small)
        #expect(screen.find(first) != nil)
        #expect(
            screen.find("↑↓ PgUp PgDn scroll · lines 1-9 of \(lines.count) · ? or Esc closes") != nil, "\(screen.text)")
        #expect(screen.find(last) == nil, "the last entry is below the box at first")
        press(.end, into: &small)  // End is not a help key; j scrolls
        for _ in 0..<lines.count { press(.character("j"), into: &small) }
        screen = ConsoleLayout.render(small)
        #expect(screen.find(last) != nil, "the last entry is reachable")
        #expect(screen.find(first) == nil)
        press(.character("g"), into: &small)
        #expect(ConsoleLayout.render(small).find(first) != nil)
        #expect(small.mode.kind == .help)
        // Tall enough: no scrolling hint.
        var tall = ConsoleHarness(registry: registry, width: 100, height: ConsoleLayout.helpLines.count + 6)
        press(.character("?"), into: &tall)
        #expect(ConsoleLayout.render(tall).find("? or Esc closes") != nil)
        #expect(ConsoleLayout.render(tall).find("scroll") == nil)
        #expect(ConsoleLayout.render(tall).find(String(try #require(ConsoleLayout.helpLines.last).prefix(40))) != nil)
    }

    @Test func helpHasASectionForEveryPlaceWithKeysOfItsOwn() {
        let lines = ConsoleLayout.helpLines
        for title in [
            "While searching:", "Editing a value (Enter on a setting):", "Choosing a value from a list:",
            "In the history (H):", "In the profile picker (p):", "In the expiry menu (t):",
        ] {
            #expect(lines.contains(title), "\(title)")
        }
        #expect(lines.contains { $0.contains("set the expiry (one store write)") })
        #expect(lines.contains { $0.contains("merge or replace") })
        #expect(lines.contains { $0.contains("delete the word before the cursor") })
    }

    @Test func helpStaysReadableAt40x10() throws {
        // The box takes the whole screen; no entry is cut: long descriptions wrap under their keys.
        let lines = ConsoleLayout.helpLines(terminalWidth: 40, height: 10)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 36 })
        let words = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        for entry in ConsoleLayout.helpEntries where !entry.help.isEmpty {
            #expect(words.contains((entry.keys + " " + entry.help).split(separator: " ").joined(separator: " ")))
        }
        #expect(lines.contains("q Ctrl-C"))
        #expect(lines.contains("    quit (through the restart prompt"))
        var state = ConsoleHarness(registry: registry, width: 40, height: 10)
        press(.character("?"), into: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 1) == "│ Up k Ctrl-P  move up                 │", "\(screen.text)")
        #expect(screen.find("│ ↑↓ scroll · 1-7 of \(lines.count) · Esc closes") != nil, "\(screen.text)")
        #expect(screen.find("…") == nil, "nothing is cut")
        // Every line can be reached, and the footer says which ones are shown.
        for _ in 0..<(lines.count - 7) { press(.control("n"), into: &state) }
        screen = ConsoleLayout.render(state)
        #expect(
            screen.text(row: 7) == "│ " + lines[lines.count - 1]
                + String(repeating: " ", count: 37 - DisplayWidth.of(lines[lines.count - 1])) + "│")
        #expect(screen.find("\(lines.count - 6)-\(lines.count) of \(lines.count)") != nil, "\(screen.text)")
    }

    @Test mutating func controlLAsksForARedraw() {
        #expect(press(.control("l"), into: &state) == [.redrawAll])
    }

    @Test mutating func qAndControlCQuit() {
        #expect(press(.character("q"), into: &state) == [.quit(.notNeeded, signal: nil)])
        state = ConsoleHarness(registry: registry)
        #expect(press(.control("c"), into: &state) == [.quit(.notNeeded, signal: nil)])
        state = ConsoleHarness(registry: registry)
        press(.character("/"), into: &state)
        #expect(
            press(.control("c"), into: &state) == [.quit(.notNeeded, signal: nil)],
            "Ctrl-C quits from the search field too")
    }

    @Test mutating func escapeNeverQuits() {
        #expect(press(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list)
        press(.character("?"), .escape, .escape, into: &state)
        #expect(state.mode.kind == .list)
    }

    @Test mutating func forcingAGroupRowOnlyExplains() {
        press(.down, .down, into: &state)
        #expect(press(.character("o"), into: &state).isEmpty)
        #expect(ConsoleLayout.render(state).text(row: 29).contains("Select a flag to change it"))
    }
}
