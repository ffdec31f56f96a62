// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server
import Flagstaff
import FlagstaffConsole
import FlagstaffServer
import Foundation
import Logging
import ServiceLifecycle

/// `flagstaff console --serve [HOST:]PORT`: a ``FlagServer`` running beside the console on the console's
/// registry, attached to it as a remote source so that the header shows the connected SDKs and the detail pane
/// the evaluation counts their metrics report. Stopped (gracefully) when the console closes.
final class ServeConsoleSession: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, Never>

    private enum Start: Sendable {
        case listening(Int)
        case failed(String)
    }

    private init(group: ServiceGroup, task: Task<Void, Never>) {
        self.group = group
        self.task = task
    }

    /// Parses `[HOST:]PORT` (`4242`, `127.0.0.1:4242`, `[::1]:4242`).
    /// - Throws: `CLIFailure.usage` naming `--serve` and the expected form.
    static func address(_ text: String) throws -> (host: String, port: Int) {
        let expected = "--serve: expected [HOST:]PORT, e.g. 4242 or 127.0.0.1:4242, got \(TerminalText.safe(text))"
        var host = "127.0.0.1"
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host.isEmpty { throw CLIFailure.usage(expected) }
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw CLIFailure.usage(expected) }
        return (host, port)
    }

    /// Starts serving and attaches the server to the registry; returns once it listens.
    /// - Parameters:
    ///   - address: `[HOST:]PORT`.
    ///   - registry: the console's registry.
    /// - Throws: `CLIFailure` for a bad address, a non-loopback host without `$FLAGSTAFF_SERVE_TOKEN`, or an
    ///   address that cannot be bound.
    static func start(_ address: String, registry: AnyFeatureRegistry) throws -> ServeConsoleSession {
        let (host, port) = try self.address(address)
        let token = CommandContext.current.environment[ServeCommand.tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let problem = token.flatMap(FlagServerConfiguration.tokenProblem) {
            throw CLIFailure.usage("--serve: $\(ServeCommand.tokenVariable): \(problem)")
        }
        let configuration = FlagServerConfiguration(host: host, port: port, tokens: token.map { [$0] } ?? [])
        do {
            try configuration.validate()
        } catch {
            throw CLIFailure.usage(
                "--serve: \(error) (the console takes the token from $\(ServeCommand.tokenVariable))")
        }
        var logger = Logger(label: "flagstaff.console.serve")
        logger.logLevel = .warning
        let server = FlagServer(registry: registry, configuration: configuration, logger: logger)
        let (starts, continuation) = AsyncStream<Start>.makeStream()
        let group = server.makeServiceGroup { continuation.yield(.listening($0)) }
        let task = Task.detached {
            do {
                try await group.run()
            } catch {
                continuation.yield(.failed("\(error)"))
            }
            continuation.finish()
        }
        let start = BlockingTask.run { () async -> Start? in
            var iterator = starts.makeAsyncIterator()
            return await iterator.next()
        }
        guard case .listening(let boundPort) = start else {
            let reason: String
            if case .failed(let message) = start { reason = message } else { reason = "it stopped" }
            throw CLIFailure.runtime("--serve: cannot serve on \(host):\(port): \(reason)")
        }
        registry.attach(ServeConsoleSource(server: server, host: host, port: boundPort))
        return ServeConsoleSession(group: group, task: task)
    }

    /// Stops accepting connections, finishes the requests in flight (for at most the server's grace period) and
    /// waits for the server to end.
    func stop() {
        let (group, task) = (self.group, self.task)
        BlockingTask.run {
            await group.triggerGracefulShutdown()
            await task.value
        }
    }
}

/// The server as the console sees it: a remote source named after its address and its clients.
final class ServeConsoleSource: ServedEvaluationReport {
    let server: FlagServer
    let host: String
    let port: Int

    init(server: FlagServer, host: String, port: Int) {
        self.server = server
        self.host = host
        self.port = port
    }

    /// `serve 127.0.0.1:4242 · no SDK yet`, or `serve 127.0.0.1:4242 · 2 SDKs: ios-app, checkout`.
    var name: String {
        let clients = server.clients.clients
        let address = "serve \(host.contains(":") ? "[\(host)]" : host):\(port)"
        guard !clients.isEmpty else { return address + " \u{b7} no SDK yet" }
        let names = clients.prefix(3).map(\.name).joined(separator: ", ") + (clients.count > 3 ? ", \u{2026}" : "")
        return address + " \u{b7} \(clients.count) SDK\(clients.count == 1 ? "" : "s"): " + names
    }

    /// Failed while the store cannot be read (the last good values are served); else ok, with the time a client
    /// was last seen.
    var status: RemoteSourceStatus {
        if let problem = server.live.storeProblem {
            return RemoteSourceStatus(
                lastFetch: nil, state: .failed("store unreadable, serving the last good values: \(problem)"))
        }
        return RemoteSourceStatus(lastFetch: server.clients.clients.first?.lastSeen, state: .ok)
    }

    /// Re-reads the store if it changed (`Ctrl-R`).
    func refresh() async { _ = server.live.current() }

    /// The open streams, then the clients that fetched values without a stream open (a streaming SDK's register
    /// and metrics calls do not list it twice, nor once its stream closed), each with how many changes it lacks.
    var connectedApps: [ConnectedApp] {
        // Numbers a change not yet seen, so that a poller answered with the newest values counts as up to date.
        server.feed.refresh()
        let streams = server.streamClients
        let streaming = Set(streams.map(\.client.name))
        let streamed = streams.map { client, behind in
            ConnectedApp(
                name: client.name, sdk: client.sdk, address: client.address,
                connection: .streaming(client.kind == .unleash ? "Unleash" : "OFREP"), lastSeen: client.lastSeen,
                freshness: client.revision == nil ? .notFetched : Self.freshness(behind),
                registry: server.announcements.announcement(ofClient: client.name)?.summary)
        }
        let polling = server.clients.clients.compactMap { client -> ConnectedApp? in
            guard let etag = client.servedETag, !streaming.contains(client.name) else { return nil }
            return ConnectedApp(
                name: client.name, sdk: client.sdk, address: client.addressText, connection: .polling,
                lastSeen: client.lastSeen, freshness: Self.freshness(server.feed.changesBehind(etag: etag)),
                registry: server.announcements.announcement(ofClient: client.name)?.summary)
        }
        return streamed + polling
    }

    private static func freshness(_ changesBehind: Int?) -> ConnectedApp.Freshness {
        changesBehind == 0 ? .upToDate : .behind(changes: changesBehind)
    }

    func evaluationSummary(forKey key: String) -> String? {
        let count = server.clients.evaluations(forKey: key)
        guard count.total > 0 else { return nil }
        return "SDK metrics: \(count.total) evaluation\(count.total == 1 ? "" : "s") (\(count.yes) on, \(count.no) off)"
    }
}
#endif
