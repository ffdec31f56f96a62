import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff pending-restart`: the restart-requiring flags whose value changed since the app launched.
struct PendingRestartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending-restart",
        abstract: "List restart-requiring flags whose value changed since launch; exit status 3 when any.",
        discussion: """
            "Launch" is the launch snapshot <store>.launch.json when there is one (written by --record, and by \
            the console after a successful 'restart now'); for flags it does not list, and without one, it is \
            the flag's value without any override. Run `flagstaff pending-restart --record` when the app \
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
                    "recorded \(values.count) restart-requiring flag(s) in \(LaunchBaseline.url(forStore: loaded.storeURL).path)"
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
                            key: feature.key, label: feature.label, launchValue: launch.value,
                            launchValueFrom: launch.origin, currentValue: feature.enabled,
                            source: SourceText.identifier(feature.resolution.source))
                    }))
        } else if pending.isEmpty {
            StandardStreams.out("no restart needed")
        } else {
            for feature in pending {
                let launch = baseline.launchValue(of: feature)
                StandardStreams.out(
                    "\(TerminalText.safe(feature.key))  \(SourceText.value(launch.value)) → \(SourceText.value(feature.enabled))  (\(SourceText.labelPath(feature)))"
                )
            }
        }
        if !pending.isEmpty { throw ExitCode(ExitStatus.pendingRestart.rawValue) }
    }
}

/// The JSON document of `pending-restart --json`.
struct PendingRestartReport: Encodable {
    /// One pending flag.
    struct Entry: Encodable {
        var key: String
        var label: String
        /// The value at launch.
        var launchValue: Bool
        /// `snapshot` or `withoutOverride`.
        var launchValueFrom: LaunchBaseline.Origin
        /// The effective value now.
        var currentValue: Bool
        /// The source of the current value.
        var source: String
    }

    /// The launch snapshot file, absent when there is none.
    var snapshot: String?
    /// When the snapshot was recorded.
    var recordedAt: Date?
    /// The pending flags.
    var flags: [Entry]
}
