import Flagstaff
import Foundation

extension ConsoleLayout {
    /// The stopwatch before an override's time left (`~` without UTF-8).
    static func timerGlyph(_ context: Context) -> String { context.state.asciiOnly ? "~" : "\u{23F1}" }

    /// The source column of an override that expires (`⏱ 59m`), or of a flag whose override expired while it
    /// was stored (`expired`); `nil` otherwise.
    static func expiryColumnText(_ feature: ConsoleFlag, _ context: Context) -> (String, CellStyle)? {
        let now = context.state.now
        if let expiry = feature.expiry {
            return (timerGlyph(context) + " " + OverrideExpiry.shortText(expiry.timeLeft(at: now)), context.theme.plain)
        }
        if !feature.isOverridden, feature.expiredOverride != nil {
            return ("expired", context.theme.warning)
        }
        return nil
    }

    /// The detail pane's expiry fact: `override expires in 59m (2026-11-23 22:04 UTC)`, or that a stored
    /// override expired and is no longer applied; `nil` when neither.
    static func expiryFact(_ feature: ConsoleFlag, _ context: Context) -> String? {
        let now = context.state.now
        if let expiry = feature.expiry {
            return "\(timerGlyph(context)) expires in \(OverrideExpiry.shortText(expiry.timeLeft(at: now)))"
                + " (\(timeText(expiry.expiresAt)))"
        }
        if !feature.isOverridden, let expired = feature.expiredOverride {
            return "override expired \(timeText(expired.expiresAt)), no longer applied (removed at the next write)"
        }
        return nil
    }

    /// `2026-11-23 22:04 UTC`.
    static func timeText(_ date: Date) -> String {
        let text = CivilDate.timestampText(date)  // 2026-11-23T22:04:05Z
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }

    /// The expiry menu of `t`: the four choices, the highlighted one marked, and the override's expiry now.
    static func drawExpiryMenu(_ context: Context, into buffer: inout ScreenBuffer) {
        guard let menu = context.state.expiryMenu else { return }
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        var lines = ["Override expires in:"]
        lines += ExpiryMenu.choices.enumerated().map { index, choice in
            (index == menu.selected ? context.glyphs.collapsed + " " : "  ") + choice.label
        }
        let now = context.state.now
        lines.append("")
        lines.append(
            menu.current.map { "Now: expires in \(OverrideExpiry.shortText($0.timeLeft(at: now)))" } ?? "Now: never")
        drawBox(
            title: "Expiry " + context.glyphs.dot + " " + context.clean(menu.label), lines: lines,
            footer: footerKeys(context, width: metrics.maxContentWidth), context, into: &buffer)
    }

    /// A `Stale` row whose key the registry does not declare (an orphan): its key, greyed, and `orphan`.
    static func drawOrphanRow(
        _ key: String, row: Int, columns: ListColumns, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        let style = context.theme.greyed
        buffer.put(
            truncate(context.clean(key), to: max(1, columns.value - 5), context), row: row, column: 3, style: style)
        if let value = context.state.staleOverrides[key]?.value {
            buffer.put(
                truncate(profileValueText(value, context), to: columns.source - columns.value - 1, context), row: row,
                column: columns.value, style: style)
        }
        if context.state.pendingWrites.lazy.compactMap({ $0.change(forKey: key, ordinal: nil) }).last == .remove {
            buffer.put("resetting", row: row, column: columns.source, style: context.theme.warning, maxWidth: 11)
        } else {
            buffer.put("orphan", row: row, column: columns.source, style: style, maxWidth: 11)
        }
    }

    /// The detail pane of a stale override whose key the registry does not declare.
    static func orphanDetailLines(_ stale: StaleOverride, _ context: Context) -> [(String, CellStyle)] {
        [
            (context.clean(stale.key) + " \(context.glyphs.dash) not in this registry", context.theme.strong),
            ("stored " + (stale.value.map { profileValueText($0, context) } ?? "nothing"), context.theme.plain),
            (context.clean(stale.message) + " \(context.glyphs.dot) r removes the override", context.theme.plain),
        ]
    }

    /// The bisect banner above the list: step, keys under test, candidates remaining (or the culprit).
    static func drawBisectBanner(_ banner: BisectBanner, row: Int, _ context: Context, into buffer: inout ScreenBuffer)
    {
        let dot = " \(context.glyphs.dot) "
        let text: String
        if let culprit = banner.culprit {
            text =
                "Bisect done: the culprit is " + context.clean(culprit) + dot
                + "flagstaff bisect reset restores the overrides"
        } else {
            let keys = banner.testing.map(context.clean).joined(separator: ", ")
            text =
                "Bisect step \(banner.step)" + dot + "testing \(banner.testing.count) of \(banner.remaining): " + keys
                + dot + "at most \(banner.answersLeft) answer\(banner.answersLeft == 1 ? "" : "s") left" + dot
                + "restart the app, then flagstaff bisect good|bad"
        }
        buffer.fill(row: row)
        buffer.put(
            " " + truncate(text, to: buffer.width - 2, context), row: row, column: 0, style: context.theme.warning)
    }
}
