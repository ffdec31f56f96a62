import ArgumentParser
import Flagstaff

/// `flagstaff reset KEY… | --all`: removes overrides.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove the overrides of the given flags and settings, or of all of them with --all.",
        discussion: """
            All keys are checked before anything is written; one write removes them all. --all removes the \
            overrides of this registry's flags and settings and keeps the store's entries for keys it does not declare.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The flags' and settings' full keys.", valueName: "key"), completion: KeyCompletion.kind)
    var keys: [String] = []

    @Flag(help: "Reset every flag and setting of the registry.")
    var all = false

    func validate() throws {
        if all && !keys.isEmpty { throw ValidationError("give either keys or --all, not both") }
        if !all && keys.isEmpty {
            throw ValidationError("give the keys of the flags or settings to reset, or --all")
        }
    }

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        let features = all ? registry.allFeatures : try KeyLookup.features(keys, in: registry)
        // An entry the registry ignores (not valid for its member) is removed too, and reported as reset.
        let stored = registry.storedOverrides
        let changed = features.filter { $0.isOverridden || stored[$0.key] != nil }
        do {
            if all {
                try registry.resetAllOverrides()
            } else {
                try registry.setOverrideValues(
                    Dictionary(features.map { ($0.key, OverrideValue?.none) }, uniquingKeysWith: { a, _ in a }))
            }
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        if changed.isEmpty {
            StandardStreams.out("nothing to reset")
        } else {
            for feature in changed {
                let resolution = feature.explanation
                StandardStreams.out(
                    "\(TerminalText.safe(feature.key)): default (\(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source)))"
                )
            }
        }
    }
}
