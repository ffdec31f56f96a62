import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// "Needs a restart" compares with the launch values the registry holds; a tool that is not the app (the
/// `flagstaff` console) gives them from the launch snapshot, and the console then shows what `pending-restart` does.
@Suite struct ConsoleLaunchValueTests {
    @Test func aChangeFromAnEarlierSessionIsStillPendingAgainstTheGivenLaunchValue() throws {
        // An earlier session set theme to dark; the app launched before that, with system.
        let store = InMemoryOverrideStore()
        _ = store.write(["theme": .set(OverrideValue(string: "dark"))])
        let features = FeatureRegistry(
            TypedConsoleFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil))
        features.recordLaunchValues(["theme": OverrideValue(string: "system")])
        var state = ConsoleHarness(registry: features, width: 140, height: 30)
        state.move(to: TypedRow.theme)
        let screen = ConsoleLayout.render(state.state)
        #expect(screen.text(row: 0).contains("1 needs restart"), "\(screen.text)")
        #expect(screen.text.contains("changed since launch (was system)"), "\(screen.text)")
        _ = press(.character("q"), into: &state)
        #expect(state.mode.kind == .restartPrompt)
        #expect(ConsoleLayout.render(state.state).text.contains("Theme  system → dark"))
        #expect(state.outcome(choice: .later, signal: nil).restartRequiredKeys == ["theme"])
        // Undo puts it back to system by removing the override (no override gives the launch value), rather
        // than storing an override equal to the default.
        #expect(press(.character("u"), into: &state) == [.write(.values(["theme": .remove]))])
    }

    @Test func valuesThatAreNotValidForTheMemberAreIgnored() throws {
        let features = FeatureRegistry(
            TypedConsoleFeatures(), store: InMemoryOverrideStore(), options: RegistryOptions(storeWatchInterval: nil))
        features.recordLaunchValues(["theme": OverrideValue(string: "sepia"), "nothing": .on])
        #expect(features.theme.launchValue == .system)
        #expect(!features.theme.isPendingRestart)
    }
}
