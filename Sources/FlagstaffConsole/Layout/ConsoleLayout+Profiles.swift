import Flagstaff

extension ConsoleLayout {
    /// The profile picker: the profiles (highlighted one marked `▸`, each with its number of changes or
    /// "unreadable"), then what applying the highlighted one would change, `key  old → new`, or why it
    /// cannot be read. The title says whether Enter merges or replaces.
    static func drawProfiles(_ context: Context, into buffer: inout ScreenBuffer) {
        guard let picker = context.state.profilePicker else { return }
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        let title = "Profiles \(context.glyphs.dot) " + (picker.replace ? "replace" : "merge")
        var footer = footerKeys(context, width: metrics.maxContentWidth)
        if context.state.mode.kind == .profileName {
            footer = "Save as: " + context.clean(picker.name) + context.glyphs.cursor + "  " + footer
        } else if context.state.mode.kind == .profileDelete, let entry = picker.selectedEntry {
            footer = "Delete " + context.clean(entry.name) + "? y yes  any other key no"
        }
        drawBox(
            title: title, lines: stableProfileLines(picker, metrics: metrics, context), footer: footer, context,
            into: &buffer)
    }

    /// ``profileLines(_:metrics:_:)`` padded to the size of the largest box any highlighted profile gives, so the
    /// box keeps its size and place while the highlight moves.
    static func stableProfileLines(_ picker: ProfilePicker, metrics: BoxMetrics, _ context: Context) -> [String] {
        var lines = profileLines(picker, metrics: metrics, context)
        guard let count = picker.listing?.entries.count, count > 1 else { return lines }
        var height = lines.count
        var width = lines.map(DisplayWidth.of).max() ?? 0
        for index in 0..<count where index != picker.selected {
            var other = picker
            other.selected = index
            let otherLines = profileLines(other, metrics: metrics, context)
            height = max(height, otherLines.count)
            width = max(width, otherLines.map(DisplayWidth.of).max() ?? 0)
        }
        lines += Array(repeating: "", count: height - lines.count)
        lines[lines.count - 1] += String(repeating: " ", count: max(0, width - DisplayWidth.of(lines[lines.count - 1])))
        return lines
    }

    /// The lines inside the picker's box.
    static func profileLines(_ picker: ProfilePicker, metrics: BoxMetrics, _ context: Context) -> [String] {
        let width = metrics.maxContentWidth
        guard let listing = picker.listing else { return ["Reading the profiles…"] }
        if let problem = listing.problem { return wrap(context.clean(problem), width: width) }
        guard !listing.entries.isEmpty else {
            return wrap("No profiles in " + context.clean(listing.folder), width: width)
                + ["s saves the current overrides as one"]
        }
        let names = listing.entries.map { context.clean($0.name) }
        let nameWidth = min(30, names.map(DisplayWidth.of).max() ?? 0)
        let rows = zip(listing.entries, names).enumerated().map { index, pair -> String in
            let (entry, name) = pair
            let marker = index == picker.selected ? context.glyphs.collapsed + " " : "  "
            let count = entry.changes(replace: picker.replace).count
            let summary =
                entry.problem != nil
                ? "unreadable" : count == 0 ? "no changes" : "\(count) change\(count == 1 ? "" : "s")"
            return marker + pad(name, to: nameWidth, context) + "  " + summary
        }
        // The list takes at most half the box; it scrolls to keep the highlighted profile in view.
        let listRoom = max(1, min(rows.count, (metrics.maxLines - 2) / 2))
        let first = min(max(0, picker.selected - listRoom + 1), rows.count - listRoom)
        var lines = Array(rows[first..<(first + listRoom)])
        lines.append("")
        guard let entry = picker.selectedEntry else { return lines }
        let name = context.clean(entry.name)
        if let problem = entry.problem {
            return lines + wrap("Cannot be read: " + context.clean(problem), width: width)
        }
        let changes = entry.changes(replace: picker.replace)
        guard !changes.isEmpty else { return lines + ["Applying \(name) changes nothing."] }
        lines.append(
            "Applying \(name) changes:"
                + (picker.replace ? " (replace: other overrides of this registry removed)" : ""))
        let room = max(1, metrics.maxLines - lines.count)
        let shown = changes.count <= room ? changes : Array(changes.prefix(room - 1))
        for change in shown {
            let unknown = entry.unknownKeys.contains(change.key) ? "  (not in this registry)" : ""
            lines.append(
                "  " + context.clean(change.key) + "  " + profileValueText(change.old, context) + " "
                    + context.glyphs.rightArrow + " " + profileValueText(change.new, context) + unknown)
        }
        if shown.count < changes.count {
            lines.append("  \(context.glyphs.ellipsis) and \(changes.count - shown.count) more")
        }
        return lines
    }

    /// A stored override as the picker shows it: `ON`, `OFF`, the JSON value, or `default` for none.
    static func profileValueText(_ value: OverrideValue?, _ context: Context) -> String {
        guard let value else { return "default" }
        if value == .on { return "ON" }
        if value == .off { return "OFF" }
        return context.clean(value.json)
    }

    /// `text` cut or padded with spaces to `width` columns.
    private static func pad(_ text: String, to width: Int, _ context: Context) -> String {
        let shown = truncate(text, to: width, context)
        return shown + String(repeating: " ", count: max(0, width - DisplayWidth.of(shown)))
    }
}
