import Flagstaff
import Foundation

/// The text of `flagstaff get KEY --explain`.
///
/// ```
/// list.infiniteScroll — List → Infinite Scroll
///   Load more rows when the list is scrolled to the bottom
///   value     ON by override
///   override  on
///   expires   2026-12-01T10:00:00Z (2h 5m left)      (only for an override that expires)
///   kind      static
///   restart   not required
/// resolution, highest precedence first (* decided):
/// * override  ON
///   default   OFF
/// ```
///
/// A typed setting also shows its type (with range or choices), and its values as tables do (strings quoted):
///
/// ```
/// maxItems — Max Items
///   value     50 by override
///   type      integer, 1…100
///   override  50
///   ...
/// * override           50
///   remote (firebase)  —  (no remote value for "max_items")
///   default            20
/// ```
enum ExplainText {
    /// The lines for a flag or setting.
    /// - Parameters:
    ///   - feature: the flag or setting.
    ///   - baseline: the launch values, for the restart line.
    ///   - now: the command's time, for an expiring override's time left.
    static func lines(for feature: AnyFeature, baseline: LaunchBaseline, now: Date) -> [String] {
        let resolution = feature.explanation
        let show = { (value: OverrideValue) in ValueText.shown(value, of: feature) }
        var lines = ["\(TerminalText.safe(feature.key)) — \(SourceText.labelPath(feature))"]
        if let description = feature.description, !description.isEmpty {
            lines.append("  " + TerminalText.safe(description))
        }
        lines.append("  value     \(show(resolution.value)) \(SourceText.byPhrase(resolution.source))")
        if !(feature is AnyFlag) { lines.append("  type      \(typeText(feature))") }
        lines.append("  override  \(ValueText.override(feature.overrideValue, of: feature))")
        if let expiry = feature.overrideExpiry {
            lines.append(
                "  expires   \(CommandClock.text(expiry.expiresAt)) (\(ExpiryText.left(expiry, now: now)) left)")
        }
        lines.append("  kind      \(feature.kind.rawValue)")
        if feature.requiresRestart {
            let launch = baseline.launchValue(of: feature)
            let origin = launch.origin == .snapshot ? "launch snapshot" : "value without override"
            let state =
                baseline.isPending(feature)
                ? "pending: changed from \(show(launch.value)) (\(origin))"
                : "not pending (\(origin) is \(show(launch.value)))"
            lines.append("  restart   required; \(state)")
        } else {
            lines.append("  restart   not required")
        }
        lines.append("resolution, highest precedence first (* decided):")
        let decider = FlagReport.decidingStep(resolution)
        let names = resolution.chain.map { SourceText.name($0.source) }
        let width = names.map(TerminalText.columns).max() ?? 0
        for (index, step) in resolution.chain.enumerated() {
            let marker = index == decider ? "* " : "  "
            let name = TerminalText.padded(names[index], to: width)
            var line = marker + name + "  " + (step.value.map(show) ?? "—")
            var notes: [String] = []
            if let detail = step.detail { notes.append(TerminalText.safe(detail)) }
            if let expiresAt = step.expiresAt { notes.append("until \(CommandClock.text(expiresAt))") }
            if case .remote(_, let fetchedAt) = step.source, step.detail == nil {
                notes.append(fetchedAt.map { "fetched \(SourceText.timestamp($0))" } ?? "never fetched")
            }
            if !notes.isEmpty { line += (step.value == nil ? " " : "   ") + "(" + notes.joined(separator: "; ") + ")" }
            lines.append(line)
        }
        return lines
    }

    /// `string`, `integer, 1…100`, `choice: light, dark, system`, `json`.
    static func typeText(_ feature: AnyFeature) -> String {
        let type = feature.settingType
        if case .choice(let names) = type { return "choice: " + names.map(TerminalText.safe).joined(separator: ", ") }
        guard let range = feature.valueRange else { return type.name }
        return "\(type.name), \(range.lower.json)…\(range.upper.json)"
    }
}
