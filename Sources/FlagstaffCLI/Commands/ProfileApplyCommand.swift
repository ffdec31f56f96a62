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
        let (registry, profile, unknown) = try options.openProfile(name)
        let before = registry.storedOverrides
        let restartValues = registry.allFeatures.filter(\.requiresRestart).map { ($0, $0.currentValue) }
        let changes: [String: OverrideEdit]
        do {
            let applied = try profile.apply(to: registry, replace: replace)
            changes = applied.changes
            JournalNote.report(applied.receipt?.journalError)
        } catch let invalid as InvalidOverrideValue {
            throw CLIFailure.runtime("profile \(name): \(invalid); nothing was applied")
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        options.report(name, replace: replace, changes: changes, current: before, unknown: unknown)
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
        let (registry, profile, unknown) = try options.openProfile(name)
        let current = registry.storedOverrides
        let changes = profile.changes(from: current, replace: replace) { registry.feature(forKey: $0) != nil }
        options.report(
            name, replace: replace, changes: changes, current: current, unknown: unknown,
            whenNothing: "applying profile \(name) would change nothing")
    }
}
