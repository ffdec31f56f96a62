import ArgumentParser
import Flagstaff

/// `flagstaff set KEY on|off|default`: forces a flag or puts it back to its default.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Force a flag on or off, or put it back to its default.",
        discussion: "Writes the override store atomically; a running app or console watching the store sees the change."
    )

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The flag's full key, e.g. list.infiniteScroll.", valueName: "key"),
        completion: KeyCompletion.kind)
    var key: String

    @Argument(help: ArgumentHelp("on, off or default.", valueName: "state"))
    var state: StateArgument

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let feature = try KeyLookup.feature(key, in: loaded.registry)
        let wasEnabled = feature.enabled
        do {
            try loaded.registry.setOverride(state.state, for: feature)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let resolution = feature.resolution
        StandardStreams.out(
            "\(TerminalText.safe(feature.key)): \(feature.override.storageWord) (\(SourceText.value(resolution.value)) \(SourceText.byPhrase(resolution.source)))"
        )
        if feature.requiresRestart && wasEnabled != feature.enabled {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
    }
}
