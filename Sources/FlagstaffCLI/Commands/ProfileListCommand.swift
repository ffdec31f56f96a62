import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff profile list`.
struct ProfileListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the profiles with their number of entries (and any that cannot be read).")

    @OptionGroup var options: ProfileOptions

    func run() throws {
        let (_, library) = try options.open(store: .ignored)
        let names: [String]
        do {
            names = try library.names()
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        var objects: [String] = []
        for name in names {
            do {
                let profile = try library.load(name)
                objects.append(#"{"name":"# + JSONOutput.quoted(name) + #","entries":\#(profile.keys.count)}"#)
                if !options.json {
                    StandardStreams.out("\(name)  \(profile.keys.count) entr\(profile.keys.count == 1 ? "y" : "ies")")
                }
            } catch {
                objects.append(
                    #"{"name":"# + JSONOutput.quoted(name) + #","error":"# + JSONOutput.quoted("\(error)") + "}")
                if !options.json { StandardStreams.out("\(name)  unreadable: \(TerminalText.safe("\(error)"))") }
            }
        }
        if options.json {
            StandardStreams.out(
                #"{"folder":"# + JSONOutput.quoted(library.folder.path) + #","profiles":["#
                    + objects.joined(separator: ",") + "]}")
        } else if names.isEmpty {
            StandardStreams.note("no profiles in \(library.folder.path)")
        }
    }
}

/// `flagstaff profile show NAME`.
struct ProfileShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a profile's entries (keys the registry does not declare are marked).")

    @OptionGroup var options: ProfileOptions

    @Argument(help: "The profile's name.")
    var name: String

    func run() throws {
        try ProfileOptions.validate(name)
        let (loaded, library) = try options.open(store: .ignored)
        let profile = try ProfileOptions.load(name, from: library)
        let keys = profile.keys
        let unknown = ProfileOptions.unknownKeys(profile, in: loaded.registry)
        if options.json {
            let entries = keys.map { key in
                JSONOutput.quoted(key) + ":" + (profile.overrides[key].map(HistoryOutput.json) ?? #""default""#)
            }
            StandardStreams.out(
                #"{"profile":"# + JSONOutput.quoted(name) + #","file":"#
                    + JSONOutput.quoted((try? library.url(for: name).path) ?? "")
                    + #","overrides":{"# + entries.joined(separator: ",") + #"},"unknownKeys":"#
                    + HistoryOutput.json(unknown) + "}")
            return
        }
        let undeclared = Set(unknown)
        for key in keys {
            let marker = undeclared.contains(key) ? "  (not declared by this registry)" : ""
            StandardStreams.out("\(TerminalText.safe(key)): \(HistoryOutput.text(profile.overrides[key]))\(marker)")
        }
        if keys.isEmpty { StandardStreams.note("profile \(name) is empty") }
    }
}

/// `flagstaff profile delete NAME`.
struct ProfileDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a profile's file.")

    @OptionGroup var options: ProfileOptions

    @Argument(help: "The profile's name.")
    var name: String

    func run() throws {
        try ProfileOptions.validate(name)
        let (_, library) = try options.open(store: .ignored)
        do {
            try library.delete(name)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        if options.json {
            StandardStreams.out(#"{"deleted":"# + JSONOutput.quoted(name) + "}")
        } else {
            StandardStreams.out("deleted profile \(name)")
        }
    }
}
