import ArgumentParser

/// `flagstaff flagd`: commands that work on flagd flag definitions without a flagd server.
struct FlagdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flagd",
        abstract: "Work with flagd flag definitions offline.",
        discussion: """
            `flagstaff flagd eval` evaluates flags from flagd definitions files with Flagstaff's in-process flagd \
            evaluator (the FlagstaffFlagd library), so you can ask "what does this flag give for this context" from \
            a shell. See docs/flagd.md.
            """,
        subcommands: [FlagdEvalCommand.self])
}
