import ArgumentParser
import Flagstaff

/// `flagstaff get KEY`: one flag's or setting's value, optionally with the whole resolution chain.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a flag's or setting's effective value, or explain where it comes from.",
        discussion: """
            Without options prints the value alone, for scripts: 'on' or 'off' for flags, the text of a string \
            setting, a number, a case name, or compact JSON. --explain shows every source considered, and when \
            the override expires.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The flag's or setting's full key, e.g. list.infiniteScroll.", valueName: "key"),
        completion: KeyCompletion.kind)
    var key: String

    @Flag(help: "Print JSON (with the resolution chain) instead of text.")
    var json = false

    @Flag(help: "Explain the value: every source in the resolution chain, restart state, description.")
    var explain = false

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let feature = try KeyLookup.feature(key, in: loaded.registry)
        let baseline = try LaunchBaseline.load(forStore: loaded.storeURL)
        if json {
            try JSONOutput.print(FlagReport(feature, pendingRestart: baseline.isPending(feature), includeChain: true))
        } else if explain {
            for line in ExplainText.lines(for: feature, baseline: baseline, now: loaded.registry.now) {
                StandardStreams.out(line)
            }
        } else {
            StandardStreams.out(ValueText.plain(feature.currentValue, of: feature))
        }
    }
}
