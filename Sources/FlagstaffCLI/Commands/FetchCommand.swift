import ArgumentParser
import Flagstaff
import FlagstaffRemote
import Foundation

/// `flagstaff fetch`: fetches and activates the remote config of the manifest's provider.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch and activate remote values from the manifest's remote-config provider.",
        discussion: """
            The values are kept in <store>.remote/ next to the store, so later list, get and console runs use \
            them without the network. Fetches closer together than the provider's minimum interval are served \
            from that cache unless --force is given.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Fetch even if the cached values are younger than the minimum fetch interval.")
    var force = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        guard let config = loaded.remoteConfig else {
            throw CLIFailure.usage(
                "\(loaded.manifestPath ?? "the demo registry") has no remote-config provider; add a \"remote\" section to the manifest (see docs/cli.md)"
            )
        }
        let expiration: TimeInterval? = force ? 0 : nil
        let result = BlockingTask.run { await config.fetch(expirationDuration: expiration) }
        let activated = result.status == .success ? config.activate() : false
        let remoteFlags = loaded.registry.allFeatures.filter(Self.readsRemote)
        loaded.registry.notifyRemoteChange(keys: Set(remoteFlags.map(\.key)))
        if json {
            try JSONOutput.print(
                FetchReport(
                    provider: config.name, status: result.status.rawValue, servedFromCache: result.servedFromCache,
                    activated: activated, lastFetchTime: config.lastFetchTime, error: result.error.map { "\($0)" },
                    flags: remoteFlags.map { FlagReport($0, pendingRestart: false, includeChain: true) }))
        } else {
            if let error = result.error {
                StandardStreams.error("\(error)")
                if loaded.manifestPath == nil {
                    // The demo's provider is a placeholder project: say so rather than leave a network error.
                    StandardStreams.note(
                        "the demo registry's remote config names a placeholder Firebase project; give --manifest a manifest with your project's \"remote\" section (see docs/cli.md)"
                    )
                }
            } else {
                let when = config.lastFetchTime.map(SourceText.timestamp) ?? "never"
                StandardStreams.out(
                    "\(TerminalText.safe(config.name)): \(result.servedFromCache ? "served from cache" : "fetched"), last fetch \(when)\(activated ? ", activated" : "")"
                )
            }
            for feature in remoteFlags {
                let resolution = feature.explanation
                StandardStreams.out(
                    "\(TerminalText.safe(feature.key))  \(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source))"
                )
            }
        }
        if result.error != nil { throw ExitCode(ExitStatus.runtimeError.rawValue) }
    }

    /// Whether a member reads a remote value: a remote flag, or a setting bound to a remote key (its
    /// resolution chain has a remote step).
    static func readsRemote(_ feature: AnyFeature) -> Bool {
        if feature.kind == .remote { return true }
        return feature.explanation.chain.contains { step in
            if case .remote = step.source { return true }
            return false
        }
    }
}

/// The JSON document of `fetch --json`.
struct FetchReport: Encodable {
    /// The provider's name.
    var provider: String
    /// `success`, `failure`, `throttled` or `noFetchYet`.
    var status: String
    /// Whether the fetch was answered from the cache (minimum interval not elapsed).
    var servedFromCache: Bool
    /// Whether newly fetched values were activated.
    var activated: Bool
    /// When values were last fetched successfully.
    var lastFetchTime: Date?
    /// The error, if the fetch failed.
    var error: String?
    /// The remote flags and remote-bound settings after the fetch, with their resolution chains.
    var flags: [FlagReport]
}
