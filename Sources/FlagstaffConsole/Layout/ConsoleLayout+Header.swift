import Flagstaff

extension ConsoleLayout {
    /// One part of the header: its forms, fullest first (`""`: left out), and how it is drawn.
    struct HeaderPart {
        var forms: [String]
        var style: CellStyle
        /// The form shown (an index into ``forms``).
        var shown = 0

        var text: String { forms[min(shown, forms.count - 1)] }
    }

    /// The header: the title on the left; on the right, in priority order, the counts, the restart count, the
    /// store's error, the flag server (`--serve`) and the remote sources. When it does not fit, parts take their
    /// short forms and the least important go first — remote sources short, the server without its client
    /// names, counts short, remote sources left out, the server reduced to its client count, the title without
    /// "Flagstaff ·", the server left out, the store error short — and the title is cut last. A remote source's
    /// error is never in the header (it says `failed`): the detail pane of a member bound to it shows the message.
    static func drawHeader(_ context: Context, into buffer: inout ScreenBuffer) {
        let state = context.state
        let dot = " \(context.glyphs.dot) "
        var title = HeaderPart(
            forms: [" Flagstaff" + dot + context.clean(state.title), " " + context.clean(state.title)],
            style: context.theme.strong)
        var counts = HeaderPart(forms: countForms(context), style: context.theme.plain)
        var restart = HeaderPart(forms: [""], style: context.theme.plain)
        if state.counts.pendingRestart > 0 {
            restart.forms = [
                "\(state.counts.pendingRestart) needs restart",
                "\(state.counts.pendingRestart)\(context.glyphs.restart)",
            ]
        }
        var store = HeaderPart(forms: [""], style: context.theme.warning)
        if let error = state.status.storeProblem {
            // The store's path is cut to its file name (the footer shows the whole message).
            let shortened = abbreviatingPaths(
                context.clean(error), longerThan: 12, fileNameOnly: true, ellipsis: context.glyphs.ellipsis)
            store.forms = ["store error: " + truncate(shortened, to: 40, context), "store error"]
        }
        let servers = state.status.remotes.filter(\.isServer)
        var serve = HeaderPart(forms: serverForms(servers, context), style: context.theme.remote)
        var remotes = state.status.remotes.filter { !$0.isServer }.map { remote in
            let failed = if case .failed = remote.status.state { true } else { false }
            return HeaderPart(
                forms: [remoteText(remote, short: false, context), remoteText(remote, short: true, context), ""],
                style: failed ? context.theme.warning : context.theme.remote)
        }
        func showRemotes(_ form: Int) { for index in remotes.indices { remotes[index].shown = form } }

        func right() -> [HeaderPart] {
            var parts = [counts, restart, store, serve] + remotes
            if counts.shown > 0, !restart.text.isEmpty {
                // Short counts and restart read as one: `30 flags 2 ovr 1⟳`.
                parts[0] = HeaderPart(forms: [counts.text + " " + restart.text], style: counts.style)
                parts[1] = HeaderPart(forms: [""], style: restart.style)
            }
            return parts.filter { !$0.text.isEmpty }
        }
        func rightWidth() -> Int {
            let parts = right()
            return parts.reduce(0) { $0 + DisplayWidth.of($1.text) } + max(0, parts.count - 1) * DisplayWidth.of(dot)
        }
        func fits() -> Bool { DisplayWidth.of(title.text) + 1 + rightWidth() + 1 <= state.width }
        let steps: [() -> Void] = [
            { showRemotes(1) }, { serve.shown = 1 },
            {
                counts.shown = 1
                restart.shown = 1
            },
            { showRemotes(2) }, { serve.shown = 2 }, { title.shown = 1 }, { serve.shown = 3 }, { store.shown = 1 },
        ]
        for step in steps where !fits() { step() }

        let rightX = max(0, state.width - rightWidth() - 1)
        var x = rightX
        for (index, part) in right().enumerated() {
            if index > 0 { x = buffer.put(dot, row: 0, column: x) }
            x = buffer.put(part.text, row: 0, column: x, style: part.style)
        }
        buffer.put(title.text, row: 0, column: 0, style: title.style, maxWidth: max(0, rightX - 1))
    }

    /// `30 flags · 2 overridden · 8 marked`, then `30 flags 2 ovr 8✓`.
    private static func countForms(_ context: Context) -> [String] {
        let counts = context.state.counts
        let marks = context.state.marks.count
        let dot = " \(context.glyphs.dot) "
        var full = "\(counts.flags) flag\(counts.flags == 1 ? "" : "s")" + dot + "\(counts.overridden) overridden"
        var short = "\(counts.flags) flags \(counts.overridden) ovr"
        if marks > 0 {
            full += dot + "\(marks) marked"
            short += " \(marks)\(markGlyph(context))"
        }
        return [full, short]
    }

    /// The flag server's forms: its whole name (`serve 127.0.0.1:4242 · 2 SDKs: ios-app, checkout`), without the
    /// client names (`serve 127.0.0.1:4242 · 2 SDKs`), the client count alone (`serve · 2 SDKs`), left out.
    /// A server whose status is a failure adds `failed` (its message is the detail pane's).
    private static func serverForms(_ servers: [ConsoleStatus.Remote], _ context: Context) -> [String] {
        guard let server = servers.first else { return [""] }
        let dot = " \(context.glyphs.dot) "
        let name = context.clean(server.name)
        let parts = name.components(separatedBy: dot)
        let address = parts[0]
        let clients = parts.dropFirst().joined(separator: dot)
        let count = clients.components(separatedBy: ":")[0]
        var suffix = ""
        if case .failed = server.status.state { suffix = " failed" }
        if clients.isEmpty { return [address + suffix, address + suffix, address + suffix, ""] }
        return [
            name + suffix, address + dot + count + suffix, "serve" + dot + count + suffix, "",
        ]
    }

    /// A remote source's status: `firebase ok 12:03:04`, `Unleash stale since 11:58:00`, or short (`firebase ok`,
    /// `Unleash stale`); a failure is `firebase failed` in both (the message is the detail pane's).
    private static func remoteText(_ remote: ConsoleStatus.Remote, short: Bool, _ context: Context) -> String {
        let word: String
        switch remote.status.state {
        case .failed: word = "failed"
        case .neverFetched: word = short ? "not fetched" : "not fetched yet"
        case .ok: word = short ? "ok" : RemoteStatusText.describe(remote.status)
        case .stale: word = short ? "stale" : RemoteStatusText.describe(remote.status)
        case .throttled: word = short ? "throttled" : RemoteStatusText.describe(remote.status)
        }
        return context.clean(remote.name) + " " + word
    }

    /// The detail pane's fact about a failed remote source the member is bound to: `firebase failed: …` with the
    /// whole message (the header only says `failed`).
    static func remoteFailureFact(_ chain: [ResolutionSource], _ context: Context) -> String? {
        let providers = chain.compactMap { source -> String? in
            if case .remote(let provider, _) = source { return provider }
            return nil
        }
        guard !providers.isEmpty else { return nil }
        for remote in context.state.status.remotes where !remote.isServer {
            guard case .failed(let message) = remote.status.state else { continue }
            let bound = providers.contains { $0.lowercased() == remote.name.lowercased() || $0 == "remote" }
            if bound || context.state.status.remotes.count(where: { !$0.isServer }) == 1 {
                return context.clean(remote.name) + " failed: " + context.clean(message)
            }
        }
        return nil
    }
}
