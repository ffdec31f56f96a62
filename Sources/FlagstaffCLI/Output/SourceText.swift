import Flagstaff
import Foundation

/// Words and phrases for values and sources in text output.
enum SourceText {
    /// `ON` or `OFF`.
    static func value(_ value: Bool) -> String { value ? "ON" : "OFF" }

    /// The stable identifier of a source in JSON: `test`, `launch`, `link`, `override`, `remote`,
    /// `dynamic`, `buildTarget`, `static`.
    static func identifier(_ source: ResolutionSource) -> String {
        switch source {
        case .testOverride: return "test"
        case .launch: return "launch"
        case .link: return "link"
        case .override: return "override"
        case .remote: return "remote"
        case .dynamic: return "dynamic"
        case .buildTarget: return "buildTarget"
        case .static: return "static"
        }
    }

    /// A short name for a source in tables: `override`, `remote`, `dynamic`, `build target`, `default`.
    static func name(_ source: ResolutionSource) -> String {
        TerminalText.safe(source.description)
    }

    /// The phrase after `ON`/`OFF` in `export --format text`: `by override`, `by default`, `by remote (Firebase)`.
    static func byPhrase(_ source: ResolutionSource) -> String {
        switch source {
        case .testOverride: return "by test override"
        case .launch: return "by launch override"
        case .link(let server): return "by link (\(TerminalText.safe(server)))"
        case .override: return "by override"
        case .remote(let provider, _): return "by remote (\(TerminalText.safe(provider)))"
        case .dynamic: return "by dynamic rule"
        case .buildTarget(let target): return "by build target (\(target.rawValue))"
        case .static: return "by default"
        }
    }

    /// A flag's place for humans: `List → Infinite Scroll` (labels, sanitised).
    static func labelPath(_ feature: AnyFeature) -> String {
        (feature.groupPath + [feature.label]).map(TerminalText.safe).joined(separator: " → ")
    }

    /// A date as ISO 8601 in UTC.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
