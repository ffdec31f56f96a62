import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff import FILE`: merges overrides of flags and settings from a file into the store, all or nothing.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge overrides from a file (the format `export` writes) into the store.",
        discussion: """
            FILE holds {"version":1,"overrides":{"key":"on","maxItems":50,"third":"default"}} ('-' reads \
            standard input): "on"/"off" for flags, the JSON value for settings; "default" or null removes an \
            override. The whole file is checked first: an unknown key (unless --allow-unknown), a value that is \
            not valid for its flag or setting, or a bad shape is reported and nothing is written. Then one \
            atomic write applies every change.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The file to import, or - for standard input.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var file: String

    @Flag(help: "Store overrides for keys the registry does not declare instead of refusing them.")
    var allowUnknown = false

    @Flag(help: "Also reset the registry's flags and settings the file does not mention (replace instead of merge).")
    var replace = false

    func run() throws {
        let name = InputFile.displayName(file)
        if file == "-" && source.manifestPath(environment: CommandContext.current.environment) == "-" {
            throw CLIFailure.usage("import - and --manifest - cannot both read standard input")
        }
        let contents: OverrideFileFormat.Contents
        do {
            contents = try OverrideFileFormat.decodeContents(
                try InputFile.read(file, for: "import"), file: name, rules: .document)
        } catch let error as OverrideFileError {
            throw CLIFailure.runtime(error.description)
        }
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        let mentioned = Set(contents.overrides.keys).union(contents.removals)
        // Every bad entry is reported at once: the unknown keys, then each value not valid for its member.
        let unknown = allowUnknown ? [] : mentioned.sorted().filter { registry.feature(forKey: $0) == nil }
        let problems = contents.overrides.keys.sorted().compactMap { key in
            Self.problem(key, contents.overrides[key], in: registry, file: name)
        }
        if !unknown.isEmpty || !problems.isEmpty {
            var lines = problems
            if !unknown.isEmpty {
                lines.insert(KeyLookup.unknownKeyMessage(unknown, in: registry, argument: "in \(name)"), at: 0)
            }
            let fix = unknown.isEmpty ? "fix the file" : "fix the file, or pass --allow-unknown to keep unknown keys"
            throw CLIFailure.runtime((lines + ["nothing was imported; \(fix)"]).joined(separator: "\n"))
        }
        var changes: [String: OverrideEdit] = [:]
        if replace {
            for feature in registry.allFeatures { changes[feature.key] = .remove }
        }
        for key in contents.removals { changes[key] = .remove }
        for (key, value) in contents.overrides { changes[key] = .set(value) }
        let before = registry.storedOverrides
        let restartValues = registry.allFeatures.filter(\.requiresRestart).map { ($0, $0.currentValue) }
        do {
            let receipt = try registry.writeOverrideValues(
                changes, policy: .writeEveryValue, parameters: WriteParameters(origin: .import))
            JournalNote.report(receipt.journalError)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let after = registry.storedOverrides
        let changedKeys = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        for key in changedKeys {
            let shown =
                registry.feature(forKey: key).map { ValueText.override(after[key], of: $0) }
                ?? after[key].map { JSONOutput.terminalSafe($0.json) } ?? "default"
            StandardStreams.out("\(TerminalText.safe(key)): \(shown)")
        }
        for (feature, value) in restartValues where feature.currentValue != value {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
        let count = mentioned.count
        StandardStreams.note(
            "imported \(count) entr\(count == 1 ? "y" : "ies"); \(changedKeys.count) override(s) changed")
    }

    /// Why an imported value is not valid for the member under its key, as `in.json: $.overrides["maxItems"]:
    /// must be 1…100, found 500`, or `nil` when it is valid (or the key is not declared).
    ///
    /// A flag's bad value reads `expected "on", "off" or "default", found …`; a JSON setting's error carries
    /// the path inside the value (`$.overrides["config"].maxUploadSize: expected a whole number`).
    static func problem(_ key: String, _ value: OverrideValue?, in registry: AnyFeatureRegistry, file: String)
        -> String?
    {
        guard let value, let feature = registry.feature(forKey: key) else { return nil }
        do {
            try feature.validate(value)
            return nil
        } catch {
            var path = "$.overrides[\(JSONText.quoted(key))]"
            var reason = error.reason
            if feature is AnyFlag {
                reason = #"expected "on", "off" or "default", found \#(value.summary)"#
            } else if reason.hasPrefix("at $"), let colon = reason.range(of: ": ") {
                // The path inside the value: `at $.maxUploadSize: …` → `$.overrides["config"].maxUploadSize`.
                path += reason[reason.index(reason.startIndex, offsetBy: 4)..<colon.lowerBound]
                reason = String(reason[colon.upperBound...])
            } else if !reason.contains("found") {
                reason += ", found \(value.summary)"
            }
            return OverrideFileError(file: file, path: path, key: key, problem: reason).description
        }
    }
}
