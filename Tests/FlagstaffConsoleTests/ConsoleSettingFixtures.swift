import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// The demo's typed settings beside a flag, all at the top level (rows 0…6 of the tree, in this order).
struct TypedConsoleFeatures: FeatureGroup {
    let blueText = Feature()
    let cardColor = Setting(default: "#f05138", description: "Card background")
    let welcomeMessage = Setting(default: "Welcome to Moments")
    let maxItems = Setting(default: 20, range: 1...100)
    let theme = Setting(default: Theme.system, requiresRestart: true)
    let appFeatureConfig = Setting(default: AppFeatureConfig.standard)
    let compact = Setting(default: false)
}

/// Row indices of ``TypedConsoleFeatures`` in the tree.
enum TypedRow {
    static let blueText = 0
    static let cardColor = 1
    static let welcomeMessage = 2
    static let maxItems = 3
    static let theme = 4
    static let appFeatureConfig = 5
    static let compact = 6
}

/// A console state on a fresh ``TypedConsoleFeatures`` with the cursor on `row`.
func typedState(row: Int = 0, width: Int = 100, height: Int = 30) -> (
    FeatureRegistry<TypedConsoleFeatures>, ConsoleHarness
) {
    let features = FeatureRegistry(TypedConsoleFeatures(), store: InMemoryOverrideStore())
    var state = ConsoleHarness(registry: features, width: width, height: height)
    state.move(to: row)
    return (features, state)
}

/// Feeds keys and performs every effect with the console's own runner (store writes reach the registry).
@discardableResult
func pressAndApply(_ keys: ConsoleKey..., into state: inout ConsoleHarness) throws -> [ConsoleEffect] {
    var all: [ConsoleEffect] = []
    for key in keys {
        let effects = state.update(.key(key))
        all += effects.filter { $0 != .repaint }
        try apply(effects, to: &state)
    }
    return all
}
