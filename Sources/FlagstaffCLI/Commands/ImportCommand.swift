import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff import FILE`: merges overrides from a file into the store, all or nothing.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge overrides from a file (the format `export` writes) into the store.",
        discussion: """
            FILE holds {"version":1,"overrides":{"key":"on","other":"off","third":"default"}} ('-' reads \
            standard input); "default" removes an override. The whole file is checked first: an unknown key \
            (unless --allow-unknown), a bad value or a bad shape is reported and nothing is written. Then one \
            atomic write applies every change.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The file to import, or - for standard input.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var file: String

    @Flag(help: "Store overrides for keys the registry does not declare instead of refusing them.")
    var allowUnknown = false

    @Flag(help: "Also reset the registry's flags the file does not mention (replace instead of merge).")
    var replace = false

    func run() throws {
        let name = InputFile.displayName(file)
        if file == "-" && source.manifestPath(environment: CommandContext.current.environment) == "-" {
            throw CLIFailure.usage("import - and --manifest - cannot both read standard input")
        }
        let entries: [String: OverrideState]
        do {
            entries = try OverrideFileFormat.decode(
                try InputFile.read(file, for: "import"), file: name, rules: .document)
        } catch let error as OverrideFileError {
            throw CLIFailure.runtime(error.description)
        }
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        let unknown = entries.keys.sorted().filter { registry.feature(forKey: $0) == nil }
        if !unknown.isEmpty && !allowUnknown {
            let message = KeyLookup.unknownKeyMessage(unknown, in: registry, argument: "in \(name)")
            throw CLIFailure.runtime(
                message + "\nnothing was imported; fix the file or pass --allow-unknown to keep them")
        }
        var changes: [String: OverrideState] = [:]
        if replace {
            for feature in registry.allFeatures { changes[feature.key] = .featureDefault }
        }
        changes.merge(entries) { _, imported in imported }
        let before = registry.storedOverrides
        let restartValues = registry.allFeatures.filter(\.requiresRestart).map { ($0, $0.enabled) }
        do {
            try registry.setOverrides(changes)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let after = registry.storedOverrides
        let changedKeys = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        for key in changedKeys {
            StandardStreams.out("\(TerminalText.safe(key)): \((after[key] ?? .featureDefault).storageWord)")
        }
        for (feature, wasEnabled) in restartValues where feature.enabled != wasEnabled {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
        StandardStreams.note(
            "imported \(entries.count) entr\(entries.count == 1 ? "y" : "ies"); \(changedKeys.count) override(s) changed"
        )
    }
}
