import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff profile apply NAME [--replace]` and `flagstaff profile diff NAME [--replace]`.
struct ProfileApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a profile in one write (one undo step).",
        discussion: """
            Merges by default: keys the profile does not mention keep their overrides. --replace also removes \
            the overrides of this registry's other flags and settings (overrides of keys it does not declare \
            are kept). Values are checked first; an invalid one is reported and nothing is applied. Keys the \
            registry does not declare are stored as given and reported.
            """)

    @OptionGroup var options: ProfileOptions

    @Argument(help: "The profile's name.")
    var name: String

    @Flag(help: "Remove the registry's overrides the profile does not mention.")
    var replace = false

    func run() throws {
        try ProfileOptions.validate(name)
        let (loaded, library) = try options.open()
        let profile = try ProfileOptions.load(name, from: library)
        let registry = loaded.registry
        let before = registry.storedOverrides
        let unknown = ProfileOptions.unknownKeys(profile, in: registry)
        let restartValues = registry.allFeatures.filter(\.requiresRestart).map { ($0, $0.currentValue) }
        let changes: [String: OverrideValue?]
        do {
            changes = try registry.applyProfile(profile, replace: replace)
        } catch let invalid as InvalidOverrideValue {
            throw CLIFailure.runtime("profile \(name): \(invalid); nothing was applied")
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        if options.json {
            StandardStreams.out(
                #"{"profile":"# + JSONOutput.quoted(name) + #","replace":\#(replace),"changes":"#
                    + ProfileOptions.changesJSON(changes, current: before) + #","unknownKeys":"#
                    + HistoryOutput.json(unknown) + "}")
        } else {
            ProfileOptions.printChanges(changes, current: before)
        }
        ProfileOptions.noteUnknown(unknown, name: name)
        for (feature, value) in restartValues where feature.currentValue != value {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
        if !options.json {
            StandardStreams.note("applied profile \(name): \(changes.count) override(s) changed")
        }
    }
}

/// `flagstaff profile diff NAME [--replace]`: what applying would change.
struct ProfileDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what applying a profile would change (key: current → profile).")

    @OptionGroup var options: ProfileOptions

    @Argument(help: "The profile's name.")
    var name: String

    @Flag(help: "Show the changes of 'apply --replace'.")
    var replace = false

    func run() throws {
        try ProfileOptions.validate(name)
        let (loaded, library) = try options.open()
        let profile = try ProfileOptions.load(name, from: library)
        let registry = loaded.registry
        let current = registry.storedOverrides
        let changes = profile.changes(from: current, replace: replace) { registry.feature(forKey: $0) != nil }
        let unknown = ProfileOptions.unknownKeys(profile, in: registry)
        if options.json {
            StandardStreams.out(
                #"{"profile":"# + JSONOutput.quoted(name) + #","replace":\#(replace),"changes":"#
                    + ProfileOptions.changesJSON(changes, current: current) + #","unknownKeys":"#
                    + HistoryOutput.json(unknown) + "}")
        } else {
            ProfileOptions.printChanges(changes, current: current)
            if changes.isEmpty { StandardStreams.note("applying profile \(name) would change nothing") }
        }
        ProfileOptions.noteUnknown(unknown, name: name)
    }
}
