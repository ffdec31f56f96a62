import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// Members fixed at launch (`FLAGSTAFF_OVERRIDES`, `-flagstaff`) show their source and refuse edits with a reason.
@Suite struct ConsoleLaunchOverrideTests {
    @Test func launchValuesAreShownAndNotEditable() throws {
        let store = InMemoryOverrideStore()
        let features = FeatureRegistry(
            TypedConsoleFeatures(), store: store,
            options: RegistryOptions(
                storeWatchInterval: nil,
                launchOverrides: LaunchOverrides(
                    environment: ["FLAGSTAFF_OVERRIDES": "blueText=on,maxItems=50"], arguments: [])))
        var state = ConsoleHarness(registry: features, width: 100, height: 30)
        state.move(to: TypedRow.blueText)
        #expect(state.selectedFlag?.resolution.source == .launch)
        for key in ["o", "x", " ", "r"] {
            let effects = try pressAndApply(.character(Character(key)), into: &state)
            #expect(effects.isEmpty, "key \(key)")
            #expect(
                state.statusMessage
                    == "blueText is fixed at launch by FLAGSTAFF_OVERRIDES: not editable while the app runs"
            )
        }
        state.move(to: TypedRow.maxItems)
        #expect(try pressAndApply(.character("e"), into: &state).isEmpty)
        #expect(state.mode.kind == .list)
        #expect(state.statusMessage?.hasPrefix("maxItems is fixed at launch") == true)
        #expect(store.load().isEmpty, "nothing written")
        // Members without a launch value stay editable.
        state.move(to: TypedRow.theme)
        try pressAndApply(.character(" "), into: &state)
        #expect(features.theme.value == .light)
    }
}
