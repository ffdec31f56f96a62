import ArgumentParser
import Flagstaff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flagstaff console` (the default subcommand): the interactive feature console.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Open the interactive console (the default when no subcommand is given).",
        discussion: """
            Needs a terminal on standard input and output; from scripts use list, get and set. Exit status 3 \
            when you quit with restart-requiring changes that were not restarted.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Do not use colours (also when NO_COLOR is set).")
    var noColor = false

    @Option(help: ArgumentHelp("A shell command (run with /bin/sh -c) that restarts the app, offered when you quit with restart-requiring changes.", valueName: "command"))
    var restartCommand: String?

    func run() throws {
        let loaded = try RegistryLoader.load(source, watchStore: true)
        for (stream, descriptor) in [("standard input", STDIN_FILENO), ("standard output", STDOUT_FILENO)] where isatty(descriptor) == 0 {
            throw CLIFailure.usage("the console needs a terminal, but \(stream) is not one; from scripts use `flagstaff list`, `flagstaff get KEY` or `flagstaff set KEY on|off|default`")
        }
        _ = loaded
        throw CLIFailure.runtime("the console is not available in this build yet; use `flagstaff list`, `flagstaff get KEY` or `flagstaff set KEY on|off|default`")
    }
}
