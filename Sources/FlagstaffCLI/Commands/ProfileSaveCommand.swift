import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff profile save NAME [--match PATTERN]`.
struct ProfileSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save the store's current overrides (or those matching --match) as a profile.",
        discussion:
            "Replaces a profile of the same name. Overrides of keys the registry does not declare are saved too.")

    @OptionGroup var options: ProfileOptions

    @Argument(help: "The profile's name.")
    var name: String

    @Option(help: ArgumentHelp("Only keys matching a key or glob (checkout.*).", valueName: "pattern"))
    var match: String?

    func run() throws {
        try ProfileOptions.validate(name)
        let (loaded, library) = try options.open()
        let pattern = match.map(KeyPattern.init)
        let overrides = loaded.registry.storedOverrides.filter { pattern?.matches($0.key) ?? true }
        let replaced: Bool
        do {
            replaced = try library.save(Profile(name: name, overrides: overrides))
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let file = (try? library.url(for: name).path) ?? name
        if options.json {
            StandardStreams.out(
                #"{"profile":"# + JSONOutput.quoted(name) + #","file":"# + JSONOutput.quoted(file)
                    + #","replaced":\#(replaced),"keys":"# + HistoryOutput.json(overrides.keys.sorted()) + "}")
        } else {
            StandardStreams.out(
                "\(replaced ? "replaced" : "saved") profile \(name) (\(overrides.count) override(s)) in \(TerminalText.safe(file))"
            )
        }
        if overrides.isEmpty {
            StandardStreams.note(
                "the profile is empty: \(match == nil ? "the store has no overrides" : "no override matches \(TerminalText.safe(match ?? ""))")"
            )
        }
    }
}
