import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// The footer: the keys that act on the selected row, fitted to the width by priority, and an answer to every
/// action (issue 28 item 6).
@Suite struct ConsoleFooterTests {
    /// The footer row, without the margin and the trailing blanks.
    func footer(_ state: ConsoleHarness) -> String {
        let text = ConsoleLayout.render(state.state).text(row: state.height - 1)
        return String(text.dropFirst().reversed().drop(while: { $0 == " " }).reversed())
    }

    @Test func theListFooterShowsTheKeysThatActOnTheSelectedRow() throws {
        let registry = try makeRegistry()
        var state = ConsoleHarness(registry: registry, width: 140, height: 30)
        // A flag without an override: no reset, no expiry.
        #expect(
            footer(state)
                == "↑↓ move  / search  o on  x off  ␣ toggle  Tab scope  m mark  u undo  H history  p profiles  ? help  q quit"
        )
        // An overridden flag: r resets it, t sets when its override expires.
        try pressAndApply(.character("o"), into: &state)
        press(.control("l"), into: &state)  // the next key clears the message saying what changed
        #expect(
            footer(state)
                == "↑↓ move  / search  o on  x off  r reset  ␣ toggle  t expiry  Tab scope  m mark  u undo  H history  p profiles  ? help  q quit"
        )
        // A group row: nothing to force, reset or mark.
        state.move(to: try #require(state.rows.firstIndex { $0.key == nil }))
        #expect(footer(state) == "↑↓ move  / search  Tab scope  u undo  H history  p profiles  ? help  q quit")
    }

    @Test func typedSettingsShowEditAndOnOffSettingsShowTheFlagKeys() throws {
        var (_, state) = typedState(row: TypedRow.maxItems, width: 140)
        #expect(
            footer(state)
                == "↑↓ move  / search  e edit  Tab scope  m mark  u undo  H history  p profiles  ? help  q quit")
        state.move(to: TypedRow.compact)
        #expect(
            footer(state)
                == "↑↓ move  / search  o on  x off  ␣ toggle  Tab scope  m mark  u undo  H history  p profiles  ? help  q quit"
        )
    }

    @Test func narrowFootersDropTheLeastUsefulKeysFirst() throws {
        let registry = try makeRegistry()
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "blueText")))
        let expected = [
            100: "/ search  o on  x off  r reset  ␣ toggle  t expiry  m mark  u undo  p profiles  ? help  q quit",
            80: "/ search  o on  x off  r reset  ␣ toggle  m mark  u undo  ? help  q quit",
            60: "/ search  o on  x off  r reset  ␣ toggle  ? help  q quit",
            40: "o on  x off  ␣ toggle  ? help  q quit",
        ]
        for (width, line) in expected {
            #expect(footer(ConsoleHarness(registry: registry, width: width, height: 30)) == line, "at \(width) columns")
        }
        for width in 40...140 {
            let text = footer(ConsoleHarness(registry: registry, width: width, height: 30))
            #expect(DisplayWidth.of(text) <= width - 2, "at \(width) columns: \(text)")
            #expect(text.hasSuffix("? help  q quit"), "at \(width) columns: \(text)")
            #expect(text.contains("o on  x off"), "at \(width) columns: \(text)")
        }
    }

    @Test func theInlineEditorKeepsItsKeysWhileTheValueIsInvalid() throws {
        for width in [100, 80] {
            var (_, state) = typedState(row: TypedRow.maxItems, width: width)
            press(.enter, .control("u"), into: &state)
            type("500", into: &state)
            #expect(footer(state) == "Max Items: 500  ✗ must be 1…100  Esc cancel", "at \(width) columns")
            press(.backspace, into: &state)
            #expect(footer(state) == "Max Items: 50   Enter save  Esc cancel", "at \(width) columns")
        }
    }

    @Test func everyChangeOfOneFlagOrSettingSaysWhatItChanged() throws {
        let registry = try makeRegistry()
        var flags = ConsoleHarness(registry: registry)
        try pressAndApply(.character("o"), into: &flags)
        #expect(flags.statusMessage == "Blue Text: OFF → ON")
        #expect(footer(flags) == "Blue Text: OFF → ON")
        try pressAndApply(.character("r"), into: &flags)
        #expect(flags.statusMessage == "Blue Text reset: ON → OFF")
        try pressAndApply(.character(" "), into: &flags)
        #expect(flags.statusMessage == "Blue Text: OFF → ON")

        var (_, state) = typedState(row: TypedRow.theme)
        try pressAndApply(.character(" "), into: &state)
        #expect(state.statusMessage == "Theme: system → light")
        state.move(to: TypedRow.maxItems)
        try pressAndApply(.enter, .control("u"), .character("5"), .character("0"), .enter, into: &state)
        #expect(state.statusMessage == "Max Items: 20 → 50")
        try pressAndApply(.character("r"), into: &state)
        #expect(state.statusMessage == "Max Items reset: 50 → 20")
        state.move(to: TypedRow.theme)
        try pressAndApply(.character("e"), .down, .enter, into: &state)
        #expect(state.statusMessage == "Theme: light → dark")
    }

    @Test func aSuccessfulExternalEditSaysWhichFieldsChanged() throws {
        var (_, state) = typedState(row: TypedRow.appFeatureConfig)
        let edited = ##"{"isNewFeatureEnabled": false, "maxUploadSize": 42, "themeColors": {"primary": "#f05138"}}"##
        try apply(state.update(.externalEditFinished(key: "appFeatureConfig", result: .edited(edited))), to: &state)
        #expect(state.statusMessage == "App Feature Config: maxUploadSize changed")
        #expect(ConsoleLayout.render(state.state).find("App Feature Config: maxUploadSize changed") != nil)
    }
}
