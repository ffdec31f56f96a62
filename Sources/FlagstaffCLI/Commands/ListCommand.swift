import ArgumentParser
import Flagstaff

/// `flagstaff list`: every flag and setting with its value and where the value comes from.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List flags and settings with their effective value and its source.",
        discussion: """
            Text output has one flag or setting per line: key, value (ON/OFF for flags; strings quoted, \
            numbers, case names, compact JSON, cut to 40 columns), source, and markers: '*' overridden, \
            'expires 2h' the override's time left, 'restart' requires a restart, 'pending' changed since launch \
            (see pending-restart). Expired overrides still in the store are noted on standard error. With --search \
            the flags are ranked best match first.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Only flags and settings that have an override.")
    var overridden = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only flags matching this text (key, label, group, description), best first.", valueName: "query"))
    var search: String?

    /// The widest value shown in text output, in columns; longer values are cut with `…` (`get` prints them
    /// whole).
    static let valueColumns = 40

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        let baseline = try LaunchBaseline.load(forStore: loaded.storeURL)
        let scope: SearchScope = overridden ? .overridden : .all
        let features = registry.search(search ?? "", scope: scope).map(\.feature)
        if json {
            try JSONOutput.print(
                ListReport(
                    registry: registry.name, store: loaded.storeURL.path, manifest: loaded.manifestPath,
                    flags: features.map { FlagReport($0, pendingRestart: baseline.isPending($0), includeChain: false) })
            )
            return
        }
        let now = registry.now
        let expired = registry.expiredOverrides.keys.sorted()
        if !expired.isEmpty {
            StandardStreams.note(
                "\(expired.count) expired override(s) no longer apply and leave the store at its next write: "
                    + expired.prefix(10).map(TerminalText.safe).joined(separator: ", ")
                    + (expired.count > 10 ? ", …" : ""))
        }
        if features.isEmpty {
            StandardStreams.note(
                search == nil ? (overridden ? "no flag is overridden" : "the registry has no flags") : "no flag matches"
            )
            return
        }
        let resolutions = features.map(\.explanation)
        let keys = features.map { TerminalText.safe($0.key) }
        let keyWidth = keys.map(TerminalText.columns).max() ?? 0
        let values = zip(features, resolutions).map { feature, resolution in
            ValueText.cut(ValueText.shown(resolution.value, of: feature), toColumns: Self.valueColumns)
        }
        let valueWidth = max(3, values.map(TerminalText.columns).max() ?? 0)
        let sources = resolutions.map { SourceText.name($0.source) }
        let sourceWidth = sources.map(TerminalText.columns).max() ?? 0
        for (index, feature) in features.enumerated() {
            var markers: [String] = []
            if feature.isOverridden { markers.append("*") }
            if let expiry = feature.overrideExpiry { markers.append("expires \(ExpiryText.left(expiry, now: now))") }
            if feature.requiresRestart { markers.append("restart") }
            if baseline.isPending(feature) { markers.append("pending") }
            let line =
                TerminalText.padded(keys[index], to: keyWidth) + "  "
                + TerminalText.padded(values[index], to: valueWidth) + "  "
                + TerminalText.padded(sources[index], to: sourceWidth)
                + (markers.isEmpty ? "" : "  " + markers.joined(separator: " "))
            StandardStreams.out(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
    }
}

/// The JSON document of `list --json`.
struct ListReport: Encodable {
    /// The registry's name.
    var registry: String
    /// The override store file.
    var store: String
    /// The manifest file, absent for the demo registry.
    var manifest: String?
    /// The flags and settings, in declaration order (search order with `--search`).
    var flags: [FlagReport]
}
