import ArgumentParser
import Flagstaff

/// `flagstaff reset KEY… | --match PATTERN | --all`: removes overrides.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract:
            "Remove the overrides of the given flags and settings, of those matching --match, or of all with --all.",
        discussion: """
            All keys are checked before anything is written; one write removes them all (one undo step). \
            --match PATTERN resets the flags and settings whose key matches the glob (* any run of characters, \
            ? one character); no match is status 1. --all removes the overrides of this registry's flags and \
            settings. Both keep the store's entries for keys the registry does not declare.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The flags' and settings' full keys.", valueName: "key"), completion: KeyCompletion.kind)
    var keys: [String] = []

    @Flag(help: "Reset every flag and setting of the registry.")
    var all = false

    @Option(
        help: ArgumentHelp(
            "Reset every flag and setting whose key matches this glob (checkout.*).", valueName: "pattern"))
    var match: String?

    @Flag(help: "Print the changes as JSON.")
    var json = false

    func validate() throws {
        let ways = [!keys.isEmpty, all, match != nil].filter { $0 }.count
        if ways > 1 { throw ValidationError("give either keys, --match or --all, not more than one") }
        if ways == 0 {
            throw ValidationError("give the keys of the flags or settings to reset, --match PATTERN, or --all")
        }
    }

    func run() throws {
        let loaded = try RegistryLoader.load(source, store: .repairable)
        let registry = loaded.registry
        let features: [AnyFeature]
        if all {
            features = registry.allFeatures
        } else if let match {
            let matcher = KeyPattern(match)
            features = registry.allFeatures.filter { matcher.matches($0.key) }.sorted { $0.key < $1.key }
            if features.isEmpty { throw BulkSetPlan.noMatch(match, in: registry) }
        } else {
            features = try KeyLookup.features(keys, in: registry)
        }
        // An entry the registry ignores (not valid for its member) is removed too, and reported as reset.
        let stored = registry.storedOverrides
        let changed = features.filter { $0.isOverridden || stored[$0.key] != nil }
        // An entry of these keys that the store cannot read (which makes it refuse every read) is removed too.
        let repair = StoreRepair(.keys(Set(features.map(\.key))))
        do {
            let parameters = WriteParameters(repair: repair)
            let receipt =
                if all {
                    try registry.resetAllOverrides(parameters: parameters)
                } else {
                    try registry.writeOverrideValues(
                        Dictionary(features.map { ($0.key, OverrideEdit.remove) }, uniquingKeysWith: { a, _ in a }),
                        policy: .writeEveryValue, parameters: parameters)
                }
            JournalNote.report(receipt.journalError)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let repaired = repair.entries
        for entry in repaired {
            StandardStreams.note(
                "removed the store's unreadable entry for \(TerminalText.safe(entry.key)) (\(entry.problem))")
        }
        // The registry could not read the entries repaired: they are reported as reset all the same.
        let repairedKeys = Set(repaired.map(\.key))
        let changedKeys = repairedKeys.isEmpty ? [] : Set(changed.map(\.key))
        let reset =
            repairedKeys.isEmpty
            ? changed : features.filter { changedKeys.contains($0.key) || repairedKeys.contains($0.key) }
        if json {
            StandardStreams.out(
                #"{"changes":"#
                    + HistoryOutput.changesJSON(reset.map { ($0.key, stored[$0.key], nil) })
                    + #","matched":\#(features.count)}"#)
        } else if reset.isEmpty {
            StandardStreams.out("nothing to reset")
        } else {
            for feature in reset {
                let resolution = feature.explanation
                StandardStreams.out(
                    "\(TerminalText.safe(feature.key)): default (\(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source)))"
                )
            }
        }
    }
}
