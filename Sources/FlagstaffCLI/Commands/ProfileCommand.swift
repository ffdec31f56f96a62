import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff profile save|apply|list|show|diff|delete`: named override sets.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Save, apply and manage named override sets (profiles).",
        discussion: """
            A profile is a file in the export format ({"version":1,"overrides":{…}}) named <name>.json in the \
            profiles folder: --profiles, else <store name>.profiles beside the store file \
            (overrides.json → overrides.profiles/). Profiles are plain files a team can commit. Names use \
            letters, digits, '-', '_' and '.', and do not start with '.'. In a profile, "default" means \
            "no override".
            """,
        subcommands: [
            ProfileSaveCommand.self, ProfileApplyCommand.self, ProfileListCommand.self, ProfileShowCommand.self,
            ProfileDiffCommand.self, ProfileDeleteCommand.self,
        ])
}

/// `--profiles DIR` and the registry options every profile command takes.
struct ProfileOptions: ParsableArguments {
    @OptionGroup var source: RegistrySourceOptions

    @Option(
        help: ArgumentHelp("The profiles folder (default: <store name>.profiles beside the store).", valueName: "dir"),
        completion: .directory)
    var profiles: String?

    @Flag(help: "Print JSON.")
    var json = false

    /// The registry, and the library in the chosen folder.
    func open(store requirement: RegistryLoader.StoreRequirement = .readable) throws -> (
        LoadedRegistry, ProfileLibrary
    ) {
        let loaded = try RegistryLoader.load(source, store: requirement)
        // A folder named with --profiles must exist, as an explicit store's folder must; the default one is created.
        if let profiles {
            let folder = URL(fileURLWithPath: (profiles as NSString).expandingTildeInPath, isDirectory: true)
            return (loaded, ProfileLibrary(folder: folder, createsFolder: false))
        }
        return (loaded, ProfileLibrary(folder: ProfileLibrary.defaultFolder(forStore: loaded.storeURL)))
    }

    /// Checks `name`, opens the registry and loads the profile: what `apply` and `diff` start with.
    /// - Returns: the registry, the profile, and the profile's keys the registry does not declare.
    func openProfile(_ name: String) throws -> (registry: AnyFeatureRegistry, profile: Profile, unknown: [String]) {
        try Self.validate(name)
        let (loaded, library) = try open()
        let profile = try Self.load(name, from: library)
        return (loaded.registry, profile, Self.unknownKeys(profile, in: loaded.registry))
    }

    /// Prints the changes of applying profile `name` (JSON, or one line each, then `whenNothing` as a note if
    /// there are none) and notes the unknown keys.
    func report(
        _ name: String, replace: Bool, changes: [String: OverrideEdit], current: [String: OverrideValue],
        unknown: [String], whenNothing: String? = nil
    ) {
        if json {
            StandardStreams.out(
                #"{"profile":"# + JSONOutput.quoted(name) + #","replace":\#(replace),"changes":"#
                    + Self.changesJSON(changes, current: current) + #","unknownKeys":"#
                    + HistoryOutput.json(unknown) + "}")
        } else {
            Self.printChanges(changes, current: current)
            if changes.isEmpty, let whenNothing { StandardStreams.note(whenNothing) }
        }
        Self.noteUnknown(unknown, name: name)
    }

    /// Checks a name before anything is read, as a usage error.
    static func validate(_ name: String) throws {
        do {
            try ProfileLibrary.validate(name: name)
        } catch {
            throw CLIFailure.usage("NAME: \(error)")
        }
    }

    /// Loads a profile, reporting every problem as a runtime failure naming the file.
    static func load(_ name: String, from library: ProfileLibrary) throws -> Profile {
        do {
            return try library.load(name)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
    }

    /// The keys of a profile the registry does not declare, sorted.
    static func unknownKeys(_ profile: Profile, in registry: AnyFeatureRegistry) -> [String] {
        profile.keys.filter { registry.feature(forKey: $0) == nil }
    }

    /// Says which keys the registry does not declare (kept in the profile; stored when applied).
    static func noteUnknown(_ keys: [String], name: String) {
        guard !keys.isEmpty else { return }
        let list = keys.prefix(10).map(TerminalText.safe).joined(separator: ", ") + (keys.count > 10 ? ", …" : "")
        StandardStreams.note(
            "profile \(name): \(keys.count) key(s) this registry does not declare (kept): \(list)")
    }

    /// Prints changes as `key: from → to` lines.
    static func printChanges(_ changes: [String: OverrideEdit], current: [String: OverrideValue]) {
        for key in changes.keys.sorted() {
            StandardStreams.out(
                "\(TerminalText.safe(key)): \(HistoryOutput.text(current[key])) → \(HistoryOutput.text(changes[key]?.value))"
            )
        }
    }

    /// Changes as the JSON array of ``HistoryOutput/changesJSON(_:)``.
    static func changesJSON(_ changes: [String: OverrideEdit], current: [String: OverrideValue]) -> String {
        HistoryOutput.changesJSON(changes.keys.sorted().map { ($0, current[$0], changes[$0]?.value) })
    }
}
