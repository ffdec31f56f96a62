/// The three states of a flag's local override.
///
/// `.featureDefault` means "no override": the flag resolves from its remote value, dynamic rule, build target
/// or static default. `.enabled` and `.disabled` force the flag on or off and win over every other source.
/// In an override store file the forced states are written as `"on"` and `"off"`; `.featureDefault` is
/// never written: resetting a flag removes its key.
public enum OverrideState: String, Sendable, Hashable, CaseIterable, Codable {
    /// No override: the flag takes its value from its other sources.
    case featureDefault
    /// Forced on.
    case enabled
    /// Forced off.
    case disabled

    /// The value this override forces, or `nil` for `.featureDefault`.
    public var forcedValue: Bool? {
        switch self {
        case .featureDefault: return nil
        case .enabled: return true
        case .disabled: return false
        }
    }

    /// The override that forces `value`.
    /// - Parameter value: the value to force.
    public init(forcing value: Bool) {
        self = value ? .enabled : .disabled
    }

    /// The word used for this state in store files and on the command line (`on`, `off`, `default`).
    package var storageWord: String {
        switch self {
        case .featureDefault: return "default"
        case .enabled: return "on"
        case .disabled: return "off"
        }
    }

    /// Parses a store-file or command-line word: `on`/`off`/`default` (also `enabled`/`disabled`/
    /// `featureDefault`, `true`/`false`, `1`/`0`, case-insensitive).
    /// - Parameter word: the text to parse.
    /// - Returns: the state, or `nil` if the word is not one of the accepted spellings.
    package init?(word: String) {
        switch word.lowercased() {
        case "on", "enabled", "enable", "true", "1", "yes": self = .enabled
        case "off", "disabled", "disable", "false", "0", "no": self = .disabled
        case "default", "featuredefault", "reset", "none": self = .featureDefault
        default: return nil
        }
    }

    /// Compact encoding used by the lock-free override cell of each feature.
    var cellValue: UInt8 {
        switch self {
        case .featureDefault: return 0
        case .enabled: return 1
        case .disabled: return 2
        }
    }

    init(cellValue: UInt8) {
        switch cellValue {
        case 1: self = .enabled
        case 2: self = .disabled
        default: self = .featureDefault
        }
    }
}
