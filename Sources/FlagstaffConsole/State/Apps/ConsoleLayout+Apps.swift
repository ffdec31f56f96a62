import Flagstaff
import Foundation

/// The connected apps overlay (`A`, with `console --serve`).
extension ConsoleLayout {
    /// A box titled "Connected apps": a summary line, then two lines per app — its name and SDK; how it follows
    /// the values, its address, when it was last seen and whether it has the values served now. Names, SDKs and
    /// addresses come from clients: they are sanitised like registry text.
    static func drawApps(_ context: Context, into buffer: inout ScreenBuffer) {
        guard let overlay = context.state.appsOverlay else { return }
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        var lines: [String] = []
        var footer = footerKeys(context, width: metrics.maxContentWidth)
        if let apps = overlay.apps {
            lines.append(appsSummary(apps, context))
            if !apps.isEmpty {
                lines.append("")
                let room = max(1, (metrics.maxLines - 2) / 2)
                let first = min(overlay.offset, max(0, apps.count - 1))
                let shown = apps[first..<min(apps.count, first + room)]
                for app in shown { lines += appLines(app, context) }
                if shown.count < apps.count {
                    let range = "\(first + 1)-\(first + shown.count) of \(apps.count)"
                    footer =
                        footerKeys(context, width: metrics.maxContentWidth - DisplayWidth.of(range) - 5)
                        + " \(context.glyphs.dot) " + range
                }
            }
        } else {
            lines.append("Reading the server's clients\(context.glyphs.ellipsis)")
        }
        lines = lines.map { truncate($0, to: metrics.maxContentWidth, context) }
        // The box takes the widest room it may, so it does not change width as apps come and go.
        let padded = lines + [String(repeating: " ", count: metrics.maxContentWidth)]
        drawBox(
            title: "Connected apps", lines: Array(padded.prefix(max(lines.count, metrics.maxLines))), footer: footer,
            context, into: &buffer)
    }

    /// `3 apps · 2 streaming · 1 polling · 1 behind`, or what to do when none has connected.
    static func appsSummary(_ apps: [ConnectedApp], _ context: Context) -> String {
        guard !apps.isEmpty else { return "No app has connected yet: point an SDK at this server (docs/serve.md)" }
        let dot = " \(context.glyphs.dot) "
        let streaming = apps.count { if case .streaming = $0.connection { true } else { false } }
        let behind = apps.count { if case .behind = $0.freshness { true } else { false } }
        let upToDate = apps.count { $0.freshness == .upToDate }
        var parts = [
            "\(apps.count) app\(apps.count == 1 ? "" : "s")", "\(streaming) streaming",
            "\(apps.count - streaming) polling",
        ]
        if upToDate == apps.count { parts.append("all up to date") }
        if behind > 0 { parts.append("\(behind) behind") }
        return parts.joined(separator: dot)
    }

    /// An app's two lines: `ios-app  unleash-client-swift:2.1.0` (and `· registry Moments · 42 members (…)` when it
    /// announced its registry), then
    /// `  streaming (Unleash) · 127.0.0.1:50122 · seen 2 s ago · up to date`.
    static func appLines(_ app: ConnectedApp, _ context: Context) -> [String] {
        let dot = " \(context.glyphs.dot) "
        let connection: String
        switch app.connection {
        case .streaming(let kind): connection = "streaming (\(context.clean(kind)))"
        case .polling: connection = "polling"
        }
        let details =
            [connection] + (app.address.map { [context.clean($0)] } ?? [])
            + ["seen " + ageText(context.state.now.timeIntervalSince(app.lastSeen)), freshnessText(app.freshness)]
        return [
            context.clean(app.name) + (app.sdk.map { "  " + context.clean($0) } ?? "")
                + (app.registry.map { dot + "registry " + context.clean($0) } ?? ""),
            "  " + details.joined(separator: dot),
        ]
    }

    /// `up to date`, `behind by 2 changes`, …
    static func freshnessText(_ freshness: ConnectedApp.Freshness) -> String {
        switch freshness {
        case .upToDate: "up to date"
        case .behind(let changes?): "behind by \(changes) change\(changes == 1 ? "" : "s")"
        case .behind(nil): "behind by more changes than the server keeps"
        case .notFetched: "no values fetched yet"
        }
    }

    /// `just now`, `12 s ago`, `3 min ago`, `2 h ago`.
    static func ageText(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite else { return "at an unknown time" }
        let whole = Int(min(max(0, seconds), 1e9))
        if whole < 1 { return "just now" }
        if whole < 60 { return "\(whole) s ago" }
        if whole < 3600 { return "\(whole / 60) min ago" }
        return "\(whole / 3600) h ago"
    }
}
