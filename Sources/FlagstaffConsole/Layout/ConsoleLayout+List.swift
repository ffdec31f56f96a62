import Flagstaff

extension ConsoleLayout {
    /// Columns of a list row: the name area, then value, source and restart marker, right-aligned. A typed
    /// setting's value starts further left (``typedValue``), taking room from its name.
    struct ListColumns {
        let value: Int
        let source: Int
        let marker: Int
        let typedValue: Int

        init(width: Int) {
            value = max(10, width - 19)
            source = value + 5
            marker = source + 12
            typedValue = value - min(24, max(0, (width - 40) / 3))
        }

        /// The columns a typed value may take.
        var typedValueWidth: Int { source - 1 - typedValue }
    }

    static func drawList(_ context: Context, top: Int, into buffer: inout ScreenBuffer) {
        let state = context.state
        if state.rows.isEmpty {
            let message =
                !state.query.isEmpty
                ? "No flag matches \u{201C}\(context.clean(state.query))\u{201D}"
                : state.showsStale
                    ? "No stale overrides (orphans, no-ops, expired)"
                    : state.scope != .all
                        ? "No flags in this scope"
                        // `console --serve` on the registry linked apps fill (docs/serve.md).
                        : state.hasServer
                            ? "No flags yet: an app linked to this server (OFREPProvider.link) shows its own here"
                            : "This registry has no flags"
            buffer.put(
                "   " + (state.asciiOnly ? TextSanitizer.sanitize(message, asciiOnly: true) : message), row: top,
                column: 0)
            return
        }
        let columns = ListColumns(width: state.width)
        let end = min(state.rows.count, state.scrollOffset + state.listHeight)
        guard state.scrollOffset < end else { return }
        for index in state.scrollOffset..<end {
            let row = top + index - state.scrollOffset
            let selected = index == state.cursor
            switch state.rows[index] {
            case .group(let group):
                drawGroup(group, row: row, selected: selected, context, into: &buffer)
            case .flag(let flag):
                guard let snapshot = state.flag(forKey: flag.key) else {
                    if state.showsStale { drawOrphanRow(flag.key, row: row, columns: columns, context, into: &buffer) }
                    break
                }
                drawFlag(flag, snapshot, row: row, columns: columns, context, into: &buffer)
                if state.isMarked(row: index) { drawMark(row: row, context, into: &buffer) }
            }
            if selected { buffer.restyle(row: row, from: 0, to: buffer.width) { $0.reverse = !$0.reverse } }
        }
    }

    private static func drawGroup(
        _ group: ConsoleRow.GroupRow, row: Int, selected: Bool, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        let marker = group.isExpanded ? context.glyphs.expanded : context.glyphs.collapsed
        var text = marker + " " + context.clean(group.label)
        if !group.isExpanded { text += " (\(group.flagCount))" }
        let x = 1 + 2 * group.depth
        buffer.put(truncate(text, to: buffer.width - x - 1, context), row: row, column: x, style: context.theme.group)
    }

    private static func drawFlag(
        _ flag: ConsoleRow.FlagRow, _ feature: ConsoleFlag, row: Int, columns: ListColumns, _ context: Context,
        into buffer: inout ScreenBuffer
    ) {
        let resolution = feature.resolution
        let on = resolution.value
        let overridden = feature.isOverridden
        let setting = feature.setting
        let style =
            setting.map { context.theme.value(of: $0, overridden: overridden) }
            ?? context.theme.value(on, overridden: overridden)
        let x = flag.showsGroupPath ? 3 : 3 + 2 * flag.depth
        let valueColumn = setting == nil || setting?.isBoolean == true ? columns.value : columns.typedValue

        // Name: "Group → Sub → Label" in the flat list, the label in the tree; match highlights on top.
        // Highlight offsets count Characters of the original text (path joined with " → "); they stay valid
        // when sanitising changed nothing, since the ASCII separator " > " has the same length.
        var segments: [NameSegment] = []
        if flag.showsGroupPath, !feature.groupPath.isEmpty {
            let path = feature.groupPath.map(context.clean)
            segments.append(
                NameSegment(
                    text: path.joined(separator: " \(context.glyphs.pathSeparator) "), field: .groupPath,
                    offsetsValid: path == feature.groupPath
                ))
            segments.append(NameSegment(text: " \(context.glyphs.pathSeparator) ", field: nil, offsetsValid: false))
        }
        let label = context.clean(feature.label)
        segments.append(NameSegment(text: label, field: .label, offsetsValid: label == feature.label))
        let nameWidth = max(1, valueColumn - 2 - x)
        drawHighlighted(
            segments, matchedRanges: flag.matchedRanges, row: row, column: x, width: nameWidth, style: style, context,
            into: &buffer)

        if let setting, !setting.isBoolean {
            buffer.put(
                valueText(setting, setting.value, width: columns.typedValueWidth, context), row: row,
                column: valueColumn, style: style)
        } else {
            buffer.put(context.onOff(on), row: row, column: columns.value, style: style)
        }
        if let unsaved = context.state.unsavedChange(for: feature) {
            buffer.put(
                unsaved == .remove ? "resetting" : "saving", row: row, column: columns.source,
                style: context.theme.warning, maxWidth: 11)
        } else if let unsaved = context.state.unsavedOverride(for: feature) {
            // A write not saved yet (at once, unless another process holds the store's lock): what it will set.
            buffer.put(
                unsavedText(unsaved), row: row, column: columns.source, style: context.theme.warning, maxWidth: 11)
        } else if resolution.source != .launch, let (text, expiryStyle) = expiryColumnText(feature, context) {
            buffer.put(text, row: row, column: columns.source, style: expiryStyle, maxWidth: 11)
        } else {
            buffer.put(sourceName(resolution.source), row: row, column: columns.source, maxWidth: 11)
        }
        if feature.requiresRestart {
            buffer.put(context.glyphs.restart, row: row, column: columns.marker, style: context.theme.restartMarker)
        }
    }

    /// Part of a flag's name as shown, with the search field its highlight offsets refer to.
    struct NameSegment {
        let text: String
        let field: SearchField?
        let offsetsValid: Bool
    }

    /// Draws name segments, highlighting the characters the search matched, truncated to `width` columns.
    static func drawHighlighted(
        _ segments: [NameSegment], matchedRanges: [SearchField: [Range<Int>]]?, row: Int, column: Int, width: Int,
        style: CellStyle, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        var x = column
        let limit = column + width
        let highlight = context.theme.highlight(base: style)
        let full = segments.map(\.text).joined()
        let truncated = DisplayWidth.of(full) > width
        let ellipsisWidth = DisplayWidth.of(context.glyphs.ellipsis)
        for segment in segments {
            let text = segment.text
            let ranges: [Range<Int>] = {
                guard let field = segment.field, let matchedRanges, segment.offsetsValid else { return [] }
                return matchedRanges[field] ?? []
            }()
            for (offset, character) in text.enumerated() {
                let w = DisplayWidth.of(character)
                if x + w > limit - (truncated ? ellipsisWidth : 0) {
                    buffer.put(context.glyphs.ellipsis, row: row, column: x, style: style)
                    return
                }
                let highlighted = ranges.contains { $0.contains(offset) }
                x = buffer.put(String(character), row: row, column: x, style: highlighted ? highlight : style)
            }
        }
    }

    /// A typed value as the list shows it, cut to `width` columns with an ellipsis: strings in quotes (the
    /// closing quote kept when cut), numbers, case names, compact JSON. Sanitised.
    static func valueText(_ setting: ConsoleSetting, _ value: OverrideValue, width: Int, _ context: Context)
        -> String
    {
        let text = context.clean(setting.text(value))
        guard setting.type == .string else { return truncate(text, to: width, context) }
        if DisplayWidth.of(text) + 2 <= width { return "\"" + text + "\"" }
        return "\"" + truncate(text, to: max(1, width - 2), context) + "\""
    }

    /// The source column of a flag whose write is not saved yet: `saving ON`, `saving OFF`, `resetting`.
    static func unsavedText(_ state: OverrideState) -> String {
        switch state {
        case .enabled: "saving ON"
        case .disabled: "saving OFF"
        case .featureDefault: "resetting"
        }
    }

    /// The short name of a resolution source for the list's source column.
    static func sourceName(_ source: ResolutionSource) -> String {
        switch source {
        case .testOverride: "test"
        case .launch: "launch"
        case .link: "link"
        case .override: "override"
        case .remote: "remote"
        case .dynamic: "dynamic"
        case .buildTarget: "build"
        case .static: "default"
        }
    }

    /// `text` cut to `width` columns, with an ellipsis when cut.
    static func truncate(_ text: String, to width: Int, _ context: Context) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        let ellipsis = context.glyphs.ellipsis
        var result = ""
        var used = DisplayWidth.of(ellipsis)
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }
}
