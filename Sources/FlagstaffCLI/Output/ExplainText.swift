import Flagstaff

/// The text of `flagstaff get KEY --explain`.
///
/// ```
/// list.infiniteScroll — List → Infinite Scroll
///   Load more rows when the list is scrolled to the bottom
///   value     ON by override
///   kind      static
///   restart   not required
/// resolution, highest precedence first (* decided):
/// * override  ON
///   default   OFF
/// ```
enum ExplainText {
    /// The lines for a flag.
    /// - Parameters:
    ///   - feature: the flag.
    ///   - baseline: the launch values, for the restart line.
    static func lines(for feature: AnyFeature, baseline: LaunchBaseline) -> [String] {
        let resolution = feature.resolution
        var lines = ["\(TerminalText.safe(feature.key)) — \(SourceText.labelPath(feature))"]
        if let description = feature.description, !description.isEmpty {
            lines.append("  " + TerminalText.safe(description))
        }
        lines.append("  value     \(SourceText.value(resolution.value)) \(SourceText.byPhrase(resolution.source))")
        lines.append("  override  \(feature.override.storageWord)")
        lines.append("  kind      \(feature.kind.rawValue)")
        if feature.requiresRestart {
            let launch = baseline.launchValue(of: feature)
            let origin = launch.origin == .snapshot ? "launch snapshot" : "value without override"
            let state =
                baseline.isPending(feature)
                ? "pending: changed from \(SourceText.value(launch.value)) (\(origin))"
                : "not pending (\(origin) is \(SourceText.value(launch.value)))"
            lines.append("  restart   required; \(state)")
        } else {
            lines.append("  restart   not required")
        }
        lines.append("resolution, highest precedence first (* decided):")
        let steps = FlagReport.steps(resolution)
        let names = resolution.chain.map { SourceText.name($0.source) }
        let width = names.map(TerminalText.columns).max() ?? 0
        for (index, step) in resolution.chain.enumerated() {
            let marker = steps[index].decided ? "* " : "  "
            let name = TerminalText.padded(names[index], to: width)
            var line = marker + name + "  " + (step.value.map(SourceText.value) ?? "—")
            var notes: [String] = []
            if let detail = step.detail { notes.append(TerminalText.safe(detail)) }
            if case .remote(_, let fetchedAt) = step.source, step.detail == nil {
                notes.append(fetchedAt.map { "fetched \(SourceText.timestamp($0))" } ?? "never fetched")
            }
            if !notes.isEmpty { line += (step.value == nil ? " " : "   ") + "(" + notes.joined(separator: "; ") + ")" }
            lines.append(line)
        }
        return lines
    }
}
