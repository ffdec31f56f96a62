import Flagstaff
import Testing

@testable import FlagstaffConsole

/// `Space` cycling a choice setting back onto its default removes the override instead of storing the default
/// (issue 28: ordinary use leaves nothing for the doctor).
@Suite struct ConsoleCycleOntoDefaultTests {
    @Test func cyclingThemeBackToSystemRemovesTheOverride() throws {
        var (features, state) = typedState(row: TypedRow.theme)
        var effects: [ConsoleEffect] = []
        var presses = 0
        repeat {
            effects = try pressAndApply(.character(" "), into: &state)
            presses += 1
        } while features.theme.value != .system && presses < 10
        #expect(presses > 1, "the cycle left the default and came back")
        #expect(effects == [.write(.values(["theme": .remove]))])
        #expect(features.theme.overriddenValue == nil)
        #expect(features.storedOverrides["theme"] == nil)
    }
}
