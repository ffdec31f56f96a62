import Flagstaff
import Testing

@testable import FlagstaffConsole

@Suite struct ConsoleRenderingTests {
    @Test func headerShowsNameCountsAndPendingRestart() throws {
        let registry = try makeRegistry()
        var state = ConsoleHarness(registry: registry)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).hasPrefix(" Flagstaff · Moments demo"))
        #expect(screen.text(row: 0).hasSuffix("7 flags · 0 overridden "))
        #expect(screen.cell(row: 0, column: 1).bold)
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "useTabBarNav")))
        state.refreshAll()
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).hasSuffix("7 flags · 1 overridden · 1 needs restart "))
        // The restart marker is yellow, in the same column on every restart-requiring row.
        let rows = [screen.row(containing: "Use Tab Bar Nav"), screen.row(containing: "Is Like Button")]
        let columns = rows.map { screen.find("⟳", inRow: $0) }
        #expect(columns[0] != nil && columns[0] == columns[1])
        #expect(screen.cell(at: "⟳")?.foreground == .yellow)
        #expect(screen.find("⟳", inRow: screen.row(containing: "Blue Text")) == nil)
        #expect(screen.text(row: screen.row(containing: "Use Tab Bar Nav")).contains("ON   override"))
        // Detail pane of the selected restart flag.
        press(.down, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 26).contains("effective ON ← override ON · default OFF"))
        #expect(screen.text(row: 27).contains("⟳ requires restart · changed since launch (was OFF)"))
    }

    @Test func withoutColourEveryStateIsStillReadable() throws {
        let registry = try makeRegistry()
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "blueText")))
        var state = ConsoleHarness(registry: registry, useColor: false)
        press(.character("/"), into: &state)
        type("blue", into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.cells.allSatisfy { $0.foreground == .default }, "no colour at all")
        let row = screen.row(containing: "Blue Text")
        #expect(screen.text(row: row).contains("ON   override"))
        #expect(screen.cells(of: "Text").allSatisfy { $0.underline && $0.bold }, "the override is underlined")
        #expect(
            screen.cells(of: "Blue").allSatisfy { !$0.reverse },
            "the match is marked by reverse video (toggled in the selected row)")
        #expect(screen.cells(of: "Text").allSatisfy { $0.reverse })
    }

    @Test func asciiGlyphsWithoutUTF8() throws {
        let registry = try makeRegistry(extraFlags: [RegistryManifest.Flag(key: "cafe", label: "Café 日本")])
        var state = ConsoleHarness(registry: registry, asciiOnly: true)
        press(.down, .down, .down, .left, into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.cells.allSatisfy { $0.character.isASCII }, "\(screen.text)")
        #expect(screen.find("> Moments (2)") != nil)
        #expect(screen.find("v List") != nil)
        #expect(screen.find("Caf? ??") != nil)
        #expect(screen.find("R", inRow: screen.row(containing: "Use Tab Bar Nav")) != nil)
        #expect(screen.text(row: 2).allSatisfy { $0 == "-" })
    }

    @Test func tinyTerminalShowsOneLineAndOnlyQuitActs() throws {
        let registry = try makeRegistry()
        // The message is worded as fully as the terminal allows and wrapped at spaces: the sizes are never cut.
        let expected: [(width: Int, height: Int, lines: [String])] = [
            (100, 9, ["Terminal too small (100×9): need at least 40×10. q quits"]),
            (39, 30, ["Terminal too small (39×30): need at", "least 40×10. q quits"]),
            (20, 5, ["Terminal too small", "(20×5): need at", "least 40×10. q quits"]),
            (10, 3, ["Too small", "(10×3):", "need 40×10"]),
            (12, 1, ["Need 40×10"]),
            (5, 1, ["40×10"]),
            (1, 1, ["4"]),
        ]
        for (width, height, lines) in expected {
            var state = ConsoleHarness(registry: registry, width: width, height: height)
            let screen = ConsoleLayout.render(state)
            let shown = (0..<height).map { screen.text(row: $0).trimmingCharacters(in: .whitespaces) }
            #expect(shown == lines + Array(repeating: "", count: height - lines.count), "\(width)×\(height)")
            for key in [ConsoleKey.character("o"), .character("?"), .character("/"), .down, .escape, .enter] {
                #expect(press(key, into: &state).isEmpty)
            }
            #expect(state.mode.kind == .list && state.cursor == 0)
            #expect(press(.character("q"), into: &state) == [.quit(.notNeeded, signal: nil)])
            #expect(press(.control("c"), into: &state) == [.quit(.notNeeded, signal: nil)])
        }
        // Growing back to a usable size brings the console back.
        var state = ConsoleHarness(registry: registry, width: 30, height: 8)
        #expect(state.update(.resize(width: 40, height: 10)) == [.redrawAll])
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).hasPrefix(" Flagstaff"))
        #expect(state.listHeight == 5)
        #expect(screen.row(containing: "Blue Text") == 3)
        #expect(screen.text(row: 9).hasPrefix(" o on  x off  ␣ toggle  ? help  q quit"), "\(screen.text(row: 9))")
        // At full width the footer lists the list mode's footer items of the key table that act on the row.
        let wide = ConsoleLayout.render(ConsoleHarness(registry: registry, width: 140, height: 30))
        #expect(
            wide.text(row: 29).hasPrefix(
                " ↑↓ move  / search  o on  x off  ␣ toggle  Tab scope  m mark  u undo  H history  p profiles  ? help  q quit"
            ))
    }

    @Test func wideAndCombiningCharactersKeepColumnsAligned() throws {
        let registry = try makeRegistry(extraFlags: [
            RegistryManifest.Flag(key: "cjk", label: "日本語のフラグ"),
            RegistryManifest.Flag(key: "combining", label: "Cafe\u{301} au lait"),
            RegistryManifest.Flag(key: "emoji", label: "Rocket 🚀 launch"),
        ])
        let state = ConsoleHarness(registry: registry, width: 60, height: 20)
        let screen = ConsoleLayout.render(state)
        let valueColumns = ["Blue Text", "日本語のフラグ", "Café au lait", "Rocket 🚀 launch"].map { label -> Int? in
            let row = screen.row(containing: label)
            return screen.find("OFF", inRow: row)
        }
        #expect(valueColumns.allSatisfy { $0 == 41 }, "\(valueColumns)")
        let cjk = try #require(screen.find("日本語"))
        #expect(screen.cell(row: cjk.row, column: cjk.column).width == 2)
        #expect(screen.cell(row: cjk.row, column: cjk.column + 1).width == 0)
        #expect(screen.cell(row: cjk.row, column: cjk.column + 2).character == "本")
        // A label too long for the name column is cut with an ellipsis and never pushes the value column.
        let long = try makeRegistry(extraFlags: [
            RegistryManifest.Flag(key: "long", label: String(repeating: "長い", count: 30))
        ])
        let narrow = ConsoleLayout.render(ConsoleHarness(registry: long, width: 40, height: 12))
        let row = narrow.row(containing: "長い長い")
        #expect(narrow.find("OFF", inRow: row) == 21)
        #expect(narrow.text(row: row).contains("…"))
    }

    @Test func controlCharactersAndEscapeSequencesAreShownInert() throws {
        let registry = try makeRegistry(extraFlags: [
            RegistryManifest.Flag(
                key: "evil", label: "Evil \u{1B}[31mRED\u{1B}[0m\u{07}", description: "line\nbreak \u{9B}2J \u{202E}rtl"
            )
        ])
        var state = ConsoleHarness(registry: registry)
        press(.character("G"), into: &state)
        press(.character("/"), into: &state)
        type("evil", into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.find("Evil \\u{1B}[31mRED\\u{1B}[0m\\u{7}") != nil, "\(screen.text)")
        #expect(screen.find("evil — line break \\u{9B}2J \\u{202E}rtl") != nil, "\(screen.text)")
        #expect(
            screen.cells.allSatisfy { cell in
                cell.character.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
            })
    }

    @Test func narrowTerminalsKeepTheEssentials() throws {
        let registry = try makeRegistry()
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "useTabBarNav")))
        var state = ConsoleHarness(registry: registry, width: 40, height: 10)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0) == " Moments demo" + String(repeating: " ", count: 10) + "7 flags 1 ovr 1⟳ ")
        #expect(screen.text(row: 1).hasSuffix("[All] "), "only the active scope")
        press(.tab, into: &state)
        #expect(ConsoleLayout.render(state).text(row: 1).hasSuffix("[On] "))
        press(.backTab, .character("q"), into: &state)
        screen = ConsoleLayout.render(state)
        // The prompt's box takes the whole width of a small terminal: the compact keys fit in it.
        #expect(screen.find("│ r:restart l:later u:undo Esc:cancel │") != nil, "\(screen.text)")
        #expect(screen.text(row: 9).hasPrefix(" r:restart l:later u:undo Esc:cancel"))
        var search = ConsoleHarness(registry: registry, width: 60, height: 22)
        press(.character("/"), into: &search)
        #expect(
            ConsoleLayout.render(search).text(row: 21).hasPrefix(
                " type to filter  Enter keep  Esc clear  ↑↓ move  Tab scope "))
    }

    @Test func anEmptyRegistrySaysSo() throws {
        let registry = try AnyFeatureRegistry(
            manifest: RegistryManifest(name: "Empty"), options: RegistryOptions(storeWatchInterval: nil))
        var state = ConsoleHarness(registry: registry)
        #expect(ConsoleLayout.render(state).text(row: 3).hasPrefix("   This registry has no flags"))
        #expect(press(.character("o"), into: &state).isEmpty)
        #expect(press(.down, .character(" "), .character("i"), into: &state).isEmpty)
        #expect(ConsoleLayout.render(state).text(row: 0).contains("0 flags · 0 overridden"))
        // `console --serve` on the registry linked apps fill: what brings flags there.
        var status = ConsoleStatus()
        status.remotes = [
            .init(name: "serve 127.0.0.1:4242", status: RemoteSourceStatus(lastFetch: nil, state: .ok), isServer: true)
        ]
        _ = state.update(.statusChanged(status))
        #expect(ConsoleLayout.render(state).text(row: 3).hasPrefix("   No flags yet: an app linked to this server"))
    }

    @Test func restartPromptListsOldAndNewValues() throws {
        let registry = try makeRegistry()
        var state = ConsoleHarness(registry: registry)
        try apply(press(.down, .character("o"), into: &state), to: &state)
        #expect(press(.character("q"), into: &state).isEmpty)
        #expect(state.mode.kind == .restartPrompt)
        let screen = ConsoleLayout.render(state)
        #expect(screen.find("Restart needed") != nil)
        #expect(screen.find("⟳ Use Tab Bar Nav  OFF → ON") != nil, "\(screen.text)")
        #expect(screen.find("r restart now  l later  u undo  Esc cancel") != nil)
        #expect(press(.character("o"), into: &state).isEmpty, "other keys are ignored in the prompt")
        #expect(press(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list)
        #expect(ConsoleLayout.render(state).find("Restart needed") == nil)
    }
}
