import ArgumentParser
import Flagstaff

/// The `on|off|default` argument of `flagstaff set`.
struct StateArgument: ExpressibleByArgument {
    /// The parsed override.
    let state: OverrideState

    /// Parses `on`, `off` or `default` (also `enabled`/`disabled`, `true`/`false`, `1`/`0`, `yes`/`no`,
    /// `reset`; case-insensitive).
    init?(argument: String) {
        guard let state = OverrideState(word: argument) else { return nil }
        self.state = state
    }

    static var allValueStrings: [String] { ["on", "off", "default"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
