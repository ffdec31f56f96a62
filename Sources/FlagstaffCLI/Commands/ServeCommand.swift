// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server
import ArgumentParser
import Flagstaff
import FlagstaffServer
import Foundation
import Logging

/// `flagstaff serve`: serves the registry's effective values to real SDKs over the Unleash frontend API, the
/// Unleash client API and OFREP, following the store live, until SIGTERM or SIGINT.
struct ServeCommand: ParsableCommand {
    /// The environment variable read as one more token (keeps it out of the process list).
    static let tokenVariable = "FLAGSTAFF_SERVE_TOKEN"

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the flags' effective values to Unleash and OpenFeature (OFREP) SDKs.",
        discussion: """
            Endpoints: GET /api/frontend (also /api/proxy) for Unleash frontend SDKs, GET /api/client/features \
            for Unleash server-side SDKs, POST /ofrep/v1/evaluate/flags[/<key>] for OpenFeature's OFREP \
            providers; pushed changes over GET /api/client/streaming (Unleash streaming SDKs), \
            GET /api/client/delta and GET /ofrep/v1/events (OFREP event stream). Changes made in the console, with \
            `flagstaff set` or by any other process are served on the next request and pushed to the streams. The store is never written. Binding an address other than a loopback one needs \
            --token (or $FLAGSTAFF_SERVE_TOKEN); clients then send it as the Authorization header. \
            See docs/serve.md.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(
        parsing: .unconditional,  // `--port -1` is a value (refused by `validate()`), not a missing one
        help: ArgumentHelp("The TCP port to listen on (0: any free port, printed at start).", valueName: "port"))
    var port: Int = 4242

    @Option(
        name: .customLong("token"),
        help: ArgumentHelp(
            "A token clients must send as the Authorization header (repeatable). Default: $FLAGSTAFF_SERVE_TOKEN.",
            valueName: "token"))
    var tokens: [String] = []

    @Option(
        name: .customLong("max-streams"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most event streams open at once; one more gets 503 (0: no streams offered).", valueName: "count"))
    var maxStreams: Int = FlagServerConfiguration.defaultMaxStreams

    func validate() throws {
        guard maxStreams >= 0 else {
            throw ValidationError("--max-streams: \(maxStreams) is negative (0 turns streams off)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port: \(port) is not a port (0–65535)") }
        if let problem = tokens.lazy.compactMap(FlagServerConfiguration.tokenProblem).first {
            throw ValidationError("--token: \(problem)")
        }
    }

    /// The tokens given with `--token`, and the environment's (an empty variable adds none).
    /// - Throws: `CLIFailure.usage` naming the variable when its token could not be sent by any client.
    private func allTokens() throws -> [String] {
        guard let token = CommandContext.current.environment[Self.tokenVariable], !token.isEmpty else { return tokens }
        if let problem = FlagServerConfiguration.tokenProblem(token) {
            throw CLIFailure.usage("$\(Self.tokenVariable): \(problem)")
        }
        return tokens + [token]
    }

    func run() throws {
        let configuration = FlagServerConfiguration(
            host: host, port: port, tokens: try allTokens(), maxStreams: maxStreams)
        do {
            try configuration.validate()
        } catch {
            throw CLIFailure.usage("\(error)")
        }
        // The manifest is not kept: the registry, its remote config and the store's path are all the server needs.
        let (registry, remoteConfig, storePath) = try {
            let loaded = try RegistryLoader.load(source)
            return (loaded.registry, loaded.remoteConfig, loaded.storeURL.path)
        }()
        var logger = Logger(label: "flagstaff.serve")
        logger.logLevel = .notice
        let server = FlagServer(registry: registry, configuration: configuration, logger: logger)
        // The manifest read and the first snapshot's scratch are freed by now: give their pages back
        // (docs/performance.md, "Memory at 100,000 flags").
        releaseFreedMemory()
        let context = CommandContext.current
        let name = registry.name
        let count = registry.allFeatures.count
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let announce: @Sendable (Int) async -> Void = { port in
            context.writeError(
                "flagstaff: note: serving \(TerminalText.safe(name)) (\(count) flags and settings) on http://\(shownHost):\(port): Unleash frontend API /api/frontend, client API /api/client/features (streaming /api/client/streaming), OFREP /ofrep/v1 (events /ofrep/v1/events); store \(TerminalText.safe(storePath))\n"
            )
        }
        let failure: String? = BlockingTask.run {
            do {
                try await server.run(onRunning: announce)
                return nil
            } catch {
                return "\(error)"
            }
        }
        withExtendedLifetime(remoteConfig) {}
        if let failure { throw CLIFailure.runtime("cannot serve on \(shownHost):\(port): \(failure)") }
    }
}
#endif
