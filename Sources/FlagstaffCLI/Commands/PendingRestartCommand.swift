import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff pending-restart`: the restart-requiring flags and settings whose value changed since the app
/// launched.
struct PendingRestartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending-restart",
        abstract: "List restart-requiring flags and settings whose value changed since launch; exit status 3 when any.",
        discussion: """
            "Launch" is the launch snapshot <store>.launch.json when there is one (written by --record, and by \
            the console after a successful 'restart now'); for flags and settings it does not list, and without \
            one, it is the value without any override. Run `flagstaff pending-restart --record` when the app \
            starts (e.g. at the end of a --restart-command) so later changes are measured from there.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(
        help:
            "Record the current values as the launch snapshot (the app has just been (re)started), then report nothing pending."
    )
    var record = false

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        if record {
            let values = try LaunchBaseline.record(registry, forStore: loaded.storeURL)
            if !json {
                StandardStreams.note(
                    "recorded \(values.count) restart-requiring flag(s) and setting(s) in \(LaunchBaseline.url(forStore: loaded.storeURL).path)"
                )
            }
        }
        let baseline = try LaunchBaseline.load(forStore: loaded.storeURL)
        let pending = registry.allFeatures.filter(baseline.isPending)
        if json {
            try JSONOutput.print(
                PendingRestartReport(
                    snapshot: baseline.recordedAt == nil ? nil : baseline.url.path,
                    recordedAt: baseline.recordedAt,
                    flags: pending.map { feature in
                        let launch = baseline.launchValue(of: feature)
                        return .init(
                            key: feature.key, label: feature.label, type: feature.settingType.name,
                            launchValue: ReportValue(launch.value, of: feature), launchValueFrom: launch.origin,
                            currentValue: ReportValue(feature.currentValue, of: feature),
                            source: SourceText.identifier(feature.explanation.source))
                    }))
        } else if pending.isEmpty {
            StandardStreams.out("no restart needed")
        } else {
            for feature in pending {
                let launch = baseline.launchValue(of: feature)
                let old = ValueText.cut(ValueText.shown(launch.value, of: feature), toColumns: ListCommand.valueColumns)
                let new = ValueText.cut(
                    ValueText.shown(feature.currentValue, of: feature), toColumns: ListCommand.valueColumns)
                StandardStreams.out(
                    "\(TerminalText.safe(feature.key))  \(old) → \(new)  (\(SourceText.labelPath(feature)))")
            }
        }
        if !pending.isEmpty { throw ExitCode(ExitStatus.pendingRestart.rawValue) }
    }
}

/// The JSON document of `pending-restart --json`.
struct PendingRestartReport: Encodable {
    /// One pending flag or setting.
    struct Entry: Encodable {
        var key: String
        var label: String
        /// `boolean`, `string`, `integer`, `double`, `choice` or `json`.
        var type: String
        /// The value at launch (`true`/`false` for flags).
        var launchValue: ReportValue
        /// `snapshot` or `withoutOverride`.
        var launchValueFrom: LaunchBaseline.Origin
        /// The effective value now.
        var currentValue: ReportValue
        /// The source of the current value.
        var source: String
    }

    /// The launch snapshot file, absent when there is none.
    var snapshot: String?
    /// When the snapshot was recorded.
    var recordedAt: Date?
    /// The pending flags and settings.
    var flags: [Entry]
}
