import ArgumentParser

/// `flagstaff unleash`: commands that work on Unleash data without a server.
struct UnleashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unleash",
        abstract: "Work with Unleash feature data offline.",
        discussion: """
            `flagstaff unleash eval` evaluates flags from a saved /api/client/features body with Flagstaff's \
            local engine, the same one the server-side client uses, so you can ask "why is this flag on for this \
            user" from a shell. See docs/unleash.md.
            """,
        subcommands: [UnleashEvalCommand.self])
}
