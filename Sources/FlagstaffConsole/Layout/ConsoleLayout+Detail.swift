import Flagstaff

extension ConsoleLayout {
    /// The detail pane's three lines for the selected row.
    static func drawDetail(_ context: Context, top: Int, into buffer: inout ScreenBuffer) {
        let width = buffer.width - 2
        guard let row = context.state.selectedRow else { return }
        var lines: [(String, CellStyle)]
        switch row {
        case .group(let group):
            lines = [
                (
                    context.clean(group.label) + " \(context.glyphs.dash) group \(context.clean(group.id))",
                    context.theme.strong
                ),
                ("\(group.flagCount) flag\(group.flagCount == 1 ? "" : "s")", context.theme.plain),
            ]
        case .flag(let flag):
            guard let feature = context.state.flag(forKey: flag.key) else {
                guard let stale = context.state.selectedStale else { return }
                lines = orphanDetailLines(stale, context)
                break
            }
            lines = detailLines(feature, context)
            if lines.count > 2, let fact = expiryFact(feature, context) {
                lines[2].0 += " \(context.glyphs.dot) " + fact
            }
        }
        for (offset, line) in lines.prefix(3).enumerated() {
            buffer.put(truncate(line.0, to: width, context), row: top + offset, column: 1, style: line.1)
        }
        // With a search, the first line shows which characters of the key and description matched.
        if case .flag(let flag) = row, let matchedRanges = flag.matchedRanges,
            let feature = context.state.flag(forKey: flag.key)
        {
            let key = context.clean(feature.key)
            var segments = [NameSegment(text: key, field: .key, offsetsValid: key == feature.key)]
            if let description = feature.description, !description.isEmpty {
                let cleaned = context.clean(description)
                segments.append(NameSegment(text: " \(context.glyphs.dash) ", field: nil, offsetsValid: false))
                segments.append(NameSegment(text: cleaned, field: .description, offsetsValid: cleaned == description))
            }
            drawHighlighted(
                segments, matchedRanges: matchedRanges, row: top, column: 1, width: width, style: context.theme.strong,
                context,
                into: &buffer
            )
        }
    }

    /// Key and description; effective value and resolution chain; restart, launch and remote facts.
    static func detailLines(_ feature: ConsoleFlag, _ context: Context) -> [(String, CellStyle)] {
        if let setting = feature.setting { return settingDetailLines(feature, setting, context) }
        let g = context.glyphs
        let resolution = feature.resolution
        var first = context.clean(feature.key)
        if let description = feature.description, !description.isEmpty {
            first += " \(g.dash) " + context.clean(description)
        }
        let chain = resolution.chain.map { step -> String in
            guard let value = step.value else { return "no " + sourceDescription(step.source) }
            var text = sourceDescription(step.source) + " " + context.onOff(value)
            if let detail = step.detail, !detail.isEmpty { text += " (" + context.clean(detail) + ")" }
            return text
        }
        let second =
            "effective \(context.onOff(resolution.value)) \(g.leftArrow) " + chain.joined(separator: " \(g.dot) ")

        var facts: [String] = ["kind " + kindName(feature.kind)]
        if let unsaved = context.state.unsavedOverride(for: feature) {
            facts.insert(unsavedText(unsaved) + " (not saved yet)", at: 0)
        }
        if feature.override != .featureDefault {
            facts.append("overridden \(context.onOff(feature.override == .enabled))")
        }
        if feature.requiresRestart { facts.append("\(g.restart) requires restart") }
        if feature.value != feature.launchValue {
            facts.append("changed since launch (was \(context.onOff(feature.launchValue)))")
        }
        if case .remote(let provider, let fetchedAt) = resolution.source {
            var text = "remote " + context.clean(provider)
            if let fetchedAt { text += " fetched " + RemoteStatusText.clock(fetchedAt) }
            facts.append(text)
        }
        if let served = servedFact(feature, context) { facts.append(served) }
        if let failure = remoteFailureFact(resolution.chain.map(\.source), context) { facts.append(failure) }
        let style = CellStyle(
            foreground: context.state.useColor ? (resolution.value ? .green : .red) : .default, bold: true,
            underline: feature.override != .featureDefault
        )
        return [
            (first, context.theme.strong), (second, style),
            (facts.joined(separator: " \(g.dot) "), context.theme.plain),
        ]
    }

    /// A resolution source in words, for the detail pane.
    static func sourceDescription(_ source: ResolutionSource) -> String {
        switch source {
        case .testOverride: "test override"
        case .launch: "launch override"
        case .link(let server): "link (\(TextSanitizer.sanitize(server)))"
        case .override: "override"
        case .remote(let provider, _): "remote (\(TextSanitizer.sanitize(provider)))"
        case .dynamic: "dynamic"
        case .buildTarget(let target): "build target \(target)"
        case .static: "default"
        }
    }

    private static func kindName(_ kind: FeatureKind) -> String {
        switch kind {
        case .static: "static"
        case .dynamic: "dynamic"
        case .buildTarget: "build target"
        case .remote: "remote"
        }
    }

    /// A typed setting's detail: key and description; effective value and the resolution chain with typed
    /// values; type, range or choices, and the restart, launch and remote facts.
    static func settingDetailLines(_ feature: ConsoleFlag, _ setting: ConsoleSetting, _ context: Context)
        -> [(String, CellStyle)]
    {
        let g = context.glyphs
        let explanation = setting.explanation
        func shown(_ value: OverrideValue) -> String { context.clean(setting.shownText(value)) }
        var first = context.clean(feature.key)
        if let description = feature.description, !description.isEmpty {
            first += " \(g.dash) " + context.clean(description)
        }
        let chain = explanation.chain.map { step -> String in
            let detail = step.detail.flatMap { $0.isEmpty || $0 == "not overridden" ? nil : context.clean($0) }
            // A remote step without a value names no provider ("remote"): no need to say it twice.
            var source = sourceDescription(step.source)
            if case .remote(let provider, _) = step.source, provider == "remote" { source = "remote" }
            guard let value = step.value else { return "no " + source + (detail.map { " (\($0))" } ?? "") }
            return source + " " + shown(value) + (detail.map { " (\($0))" } ?? "")
        }
        let second = "effective \(shown(explanation.value)) \(g.leftArrow) " + chain.joined(separator: " \(g.dot) ")

        var type = "type " + setting.type.name
        if let allowed = setting.allowedValues { type += " " + context.clean(allowed) }
        var facts = [type]
        if let unsaved = context.state.unsavedChange(for: feature) {
            facts.insert(
                (unsaved.value.map { "saving " + shown($0) } ?? "resetting") + " (not saved yet)", at: 0)
        }
        if let override = setting.override { facts.append("overridden " + shown(override)) }
        if feature.requiresRestart { facts.append("\(g.restart) requires restart") }
        if setting.value != setting.launchValue {
            facts.append("changed since launch (was \(shown(setting.launchValue)))")
        }
        if case .remote(let provider, let fetchedAt) = explanation.source {
            var text = "remote " + context.clean(provider)
            if let fetchedAt { text += " fetched " + RemoteStatusText.clock(fetchedAt) }
            facts.append(text)
        }
        if let served = servedFact(feature, context) { facts.append(served) }
        if let failure = remoteFailureFact(explanation.chain.map(\.source), context) { facts.append(failure) }
        var style = context.theme.value(of: setting, overridden: setting.override != nil)
        style.bold = true
        return [
            (first, context.theme.strong), (second, style),
            (facts.joined(separator: " \(g.dot) "), context.theme.plain),
        ]
    }
}
