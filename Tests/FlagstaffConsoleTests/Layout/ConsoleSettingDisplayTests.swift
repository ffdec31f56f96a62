import Flagstaff
import Testing

@testable import FlagstaffConsole

/// How typed settings look: the value column, the detail pane, the restart prompt; search by value.
@Suite struct ConsoleSettingDisplayTests {
    @Test func rowsShowTypedValuesAndTheirSource() throws {
        let (features, state) = typedState()
        let screen = ConsoleLayout.render(state)
        func line(_ label: String) -> String { screen.text(row: screen.row(containing: label)) }
        #expect(line("Card Color").contains("\"#f05138\""))
        #expect(line("Welcome Message").contains("\"Welcome to Moments\""))
        #expect(line("Max Items").contains(" 20 "))
        #expect(line("Theme").contains(" system "))
        #expect(line("App Feature Config").contains(" {\"isNewFeatureEnabled\":… default"), "compact JSON, cut")
        #expect(line("Compact").contains("OFF  default"))
        #expect(line("Max Items").contains("default"))
        #expect(screen.cell(at: "OFF")?.foreground == .red, "a boolean setting keeps red/green")
        #expect(screen.cells(of: "20").allSatisfy { !$0.underline })
        _ = features
    }

    @Test func longStringsAreQuotedAndCutWithAnEllipsis() throws {
        let (features, _) = typedState()
        features.welcomeMessage.overriddenValue = String(repeating: "Hello world ", count: 8)
        let state = ConsoleHarness(registry: features, width: 100)
        let screen = ConsoleLayout.render(state)
        let line = screen.text(row: screen.row(containing: "Welcome Message"))
        #expect(line.contains(" \"Hello world Hello wor\u{2026}\" override"), "\(line)")
    }

    @Test func overriddenTypedRowsAreUnderlinedAndBoldAndShowTheOverrideSource() throws {
        let (features, _) = typedState()
        features.maxItems.overriddenValue = 42
        let state = ConsoleHarness(registry: features)
        let screen = ConsoleLayout.render(state)
        #expect(
            screen.text(row: screen.row(containing: "Max Items")).contains(
                " 42" + String(repeating: " ", count: 23) + "override"))
        #expect(screen.cells(of: "42").allSatisfy { $0.underline && $0.bold })
        #expect(screen.cells(of: "Max Items").allSatisfy { $0.underline && $0.bold })
        #expect(screen.text(row: 0).hasSuffix("7 flags · 1 overridden "))
    }

    @Test func theDetailPaneShowsTypeRangeChoicesAndTheTypedChain() throws {
        var (features, state) = typedState(row: TypedRow.maxItems)
        features.maxItems.overriddenValue = 50
        state.refreshAll()
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 26).contains("effective 50 ← override 50 · default 20"), "\(screen.text(row: 26))")
        #expect(screen.text(row: 27).contains("type integer 1…100 · overridden 50"), "\(screen.text(row: 27))")
        press(.down, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 26).contains("effective system ← no override · default system"))
        #expect(screen.text(row: 27).contains("type choice one of light, dark, system · ⟳ requires restart"))
        press(.up, .up, .up, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 26).contains("effective \"#f05138\" ← no override · default \"#f05138\""))
        #expect(screen.text(row: 25).contains("cardColor — Card background"))
    }

    @Test func searchMatchesTheCurrentValue() throws {
        var (features, state) = typedState()
        press(.character("/"), into: &state)
        type("to moments", into: &state)
        #expect(state.rows.map(\.key) == ["welcomeMessage"], "matched by its value only")
        // A value change brings a setting into the results (and takes it out again).
        press(.control("u"), into: &state)
        type("abcdef", into: &state)
        #expect(state.rows.isEmpty)
        try features.cardColor.setOverriddenValue("#ABCDEF")
        _ = state.registryChanged(keys: ["cardColor"])
        #expect(state.rows.map(\.key) == ["cardColor"])
        try features.cardColor.setOverriddenValue(nil)
        _ = state.registryChanged(keys: ["cardColor"])
        #expect(state.rows.isEmpty)
    }

    @Test func valueMatchesComeAfterTheRegistrysOwnMatchesAndRespectTheScope() throws {
        var (features, state) = typedState()
        features.theme.overriddenValue = .dark
        state.refreshAll()
        press(.character("/"), into: &state)
        type("dark", into: &state)
        #expect(state.rows.map(\.key) == ["theme"])
        press(.tab, into: &state)  // On: only booleans
        #expect(state.rows.isEmpty)
        press(.tab, .tab, into: &state)  // Overridden
        #expect(state.rows.map(\.key) == ["theme"])
        press(.tab, .tab, into: &state)  // Stale, then back to All
        press(.control("u"), into: &state)
        type("welcome", into: &state)  // by name and by value: listed once, where the registry ranked it
        #expect(state.rows.map(\.key) == ["welcomeMessage"])
        #expect(
            state.rows.first.flatMap { if case .flag(let row) = $0 { row.matchedRanges } else { nil } }?.isEmpty
                == false)
        press(.escape, into: &state)
        press(.character("/"), into: &state)
        type("t", into: &state)
        let keys = state.rows.map(\.key)
        #expect(keys.contains("theme") && keys.contains("blueText"))
    }

    @Test func theRestartPromptListsTypedChangesWithOldAndNewValues() throws {
        var (features, state) = typedState(row: TypedRow.theme)
        try pressAndApply(.character(" "), into: &state)  // system → light
        #expect(features.theme.value == .light)
        press(.character("q"), into: &state)
        #expect(state.mode.kind == .restartPrompt)
        #expect(
            state.pendingRestarts == [
                PendingRestart(key: "theme", label: "Theme", launchText: "system", currentText: "light")
            ])
        let screen = ConsoleLayout.render(state)
        #expect(screen.find("⟳ Theme  system → light") != nil)
        // Undo puts the setting back (its override removed) and quits once saved.
        let effects = press(.character("u"), into: &state)
        #expect(effects == [.write(.values(["theme": .remove]))])
        try apply(effects, to: &state)
        #expect(features.theme.value == .system)
        #expect(features.theme.overriddenValue == nil)
    }

    @Test func theOutcomeCountsTypedChanges() throws {
        var (features, state) = typedState(row: TypedRow.maxItems)
        features.cardColor.overriddenValue = "#000000"
        state = ConsoleHarness(registry: features)
        state.move(to: TypedRow.cardColor)
        try pressAndApply(.character("r"), into: &state)
        #expect(features.cardColor.overriddenValue == nil)
        state.move(to: TypedRow.theme)
        try pressAndApply(.character(" "), into: &state)
        let outcome = state.outcome(choice: .later, signal: nil)
        #expect(outcome.changedKeys == ["cardColor", "theme"])
        #expect(outcome.restartRequiredKeys == ["theme"])
    }
}

/// A remote-config source in memory with fixed values, for settings bound to a remote key.
final class FixedSettingSource: SettingRemoteSource {
    let values: [String: String]
    init(_ values: [String: String]) { self.values = values }
    let settingValueGeneration = SettingSourceGeneration()
    func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
        values[key].map { RemoteSettingValue(text: $0, provider: "Firebase", fetchedAt: nil) }
    }
}

@Suite struct ConsoleSettingRemoteDetailTests {
    struct Features: FeatureGroup {
        let maxItems = Setting(default: 20, range: 1...100)
        let welcome = Setting(default: "Hi")
    }

    @Test func theChainShowsTheRemoteStepWithItsTypedValueOrWhyThereIsNone() throws {
        let features = FeatureRegistry(Features(), store: InMemoryOverrideStore())
        let source = FixedSettingSource(["welcome_message": "Hello from remote"])
        features.maxItems.bind(to: SettingRemoteBinding(source: source, key: "max_items"))
        features.welcome.bind(to: SettingRemoteBinding(source: source, key: "welcome_message"))
        var state = ConsoleHarness(registry: features)
        var screen = ConsoleLayout.render(state)
        #expect(
            screen.text(row: 26).contains(
                "effective 20 ← no override · no remote (no remote value for \"max_items\") · default 20"),
            "\(screen.text(row: 26))")
        press(.down, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(
            screen.text(row: 26).contains(
                "effective \"Hello from remote\" ← no override · remote (Firebase) \"Hello from remote\""),
            "\(screen.text(row: 26))")
        #expect(screen.text(row: 27).contains("remote Firebase"))
        let row = screen.text(row: screen.row(containing: "Welcome"))
        #expect(row.contains("\"Hello from remote\"") && row.hasSuffix("remote        "), "\(row)")
    }
}
