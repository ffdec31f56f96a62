import Flagstaff
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `flagstaff serve`: a Hummingbird 2 application serving a registry's effective values over the Unleash
/// frontend API, the Unleash client API and OFREP, following the store live.
///
/// The transport is thin: routes (``FlagRoutes``) hand the request and the live snapshot to the pure protocol
/// code. Middleware refuses a request without `Host` (400), answers `HEAD` like `GET` without the body, adds CORS
/// headers (browser SDKs), refuses a `Content-Length` over the body limit (413) from the header, checks tokens (401)
/// and turns framework errors (404 for unknown paths, 413 for bodies over the limit) into JSON messages. A 413
/// closes the connection; silent connections are closed after the idle timeout, and clients that stop reading an
/// answer after the write timeout (``WriteTimeoutHandler``); a graceful stop closes what is still open after the
/// grace period.
package final class FlagServer: Sendable {
    /// Where and how it listens.
    package let configuration: FlagServerConfiguration
    /// The values served.
    package let live: LiveSnapshot
    /// Who has called, and the evaluation counts their metrics reported.
    package let clients: ClientTracker
    /// The numbered changes pushed to the event streams.
    package let feed: ChangeFeed
    /// The event streams open now (Unleash streaming, OFREP events).
    package let streams: StreamConnections
    /// The registries linked apps announced (their members are added to the registry served).
    package let announcements = AppAnnouncements()
    /// How many conditional GETs were answered 304 on the event loop, before the router (``NotModifiedHandler``).
    package let earlyNotModified = ServerCount()
    /// How many connections were closed because their client took none of an answer for the write timeout
    /// (``WriteTimeoutHandler``).
    package let closedForWriteTimeout = ServerCount()
    private let logger: Logger
    /// The `Server` header of every answer.
    static let serverName = "flagstaff"

    /// Creates a server for a registry (nothing listens until ``run(onRunning:)`` or
    /// ``makeApplication(onRunning:)``). Raises the process's soft open-file limit to the hard one (each connection
    /// holds a descriptor), and lowers the stream limit, saying so on the log, when the descriptors do not allow it
    /// with room for polling (``DescriptorBudget``).
    /// - Parameters:
    ///   - registry: the registry served (its store is only read).
    ///   - configuration: address, tokens, limits.
    ///   - logger: where the server says what it does: one line per client first seen, store problems.
    package init(registry: AnyFeatureRegistry, configuration: FlagServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let storeLogger = logger
        self.live = LiveSnapshot(registry: registry) { problem in
            if let problem {
                storeLogger.warning("the override store cannot be read; still serving the last good values: \(problem)")
            } else {
                storeLogger.notice("the override store is readable again; serving its values")
            }
        }
        let clientLogger = logger
        self.clients = ClientTracker(onFirstSeen: { client in
            clientLogger.notice("client \(client.name)\(client.sdk.map { " (\($0))" } ?? "") connected")
        })
        self.feed = ChangeFeed(live: live)
        var streamLimit = configuration.maxStreams
        if let (budget, limit) = DescriptorBudget.raisingLimit(requested: configuration.maxStreams),
            budget.streams < configuration.maxStreams
        {
            streamLimit = budget.streams
            logger.notice(
                "--max-streams \(configuration.maxStreams) lowered to \(budget.streams): the open-file limit is \(limit.soft) (ulimit -n, and the hard limit does not allow more), room for \(budget.connections) connections, \(budget.polling) of them kept for polling"
            )
        }
        self.streams = StreamConnections(limit: streamLimit, log: { clientLogger.notice("\($0)") })
    }

    /// The stream clients with how far each is behind the values served now: `0` up to date, `nil` when the
    /// revision it has is no longer known (it will be sent the whole state).
    package var streamClients: [(client: StreamClient, changesBehind: Int?)] {
        streams.clients.map { client in (client, client.revision.flatMap(feed.changesBehind)) }
    }

    /// The Hummingbird application, to run in a service group.
    /// - Parameter onRunning: called with the bound port once the server listens.
    package func makeApplication(
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol & Service {
        let router = Router(context: FlagRequestContext.self)
        router.add(middleware: HostMiddleware())
        router.add(middleware: HeadMiddleware())
        router.add(
            middleware: CORSMiddleware(
                allowOrigin: .all,
                allowHeaders: [
                    .accept, .authorization, .contentType, .origin, .ifNoneMatch, .cacheControl,
                    FlagRoutes.appNameHeader, FlagRoutes.sdkHeader, StreamRoutes.lastEventIDHeader,
                    HTTPField.Name("unleash-connection-id")!, HTTPField.Name("unleash-instanceid")!,
                    HTTPField.Name("x-unleash-connection-id")!, HTTPField.Name("x-unleash-sdk")!,
                    HTTPField.Name("x-unleash-appname")!,
                ],
                allowMethods: [.get, .post, .head, .options], exposedHeaders: ["ETag"], maxAge: .seconds(600)))
        router.add(middleware: ErrorBodyMiddleware())
        router.add(
            middleware: BodyLimitMiddleware(
                limit: configuration.bodyLimit, largerLimits: [AnnounceRoutes.path: AppAnnouncements.bodyLimit]))
        router.add(middleware: TokenMiddleware(tokens: Set(configuration.tokens)))
        FlagRoutes(
            live: live, clients: clients, bodyLimit: configuration.bodyLimit,
            offersEventStream: streams.limit > 0
        ).add(to: router)
        StreamRoutes(feed: feed, streams: streams, clients: clients).add(to: router)
        AnnounceRoutes(live: live, clients: clients, announcements: announcements).add(to: router)
        let answerer = NotModifiedHandler.Answerer(
            live: live, clients: clients, tokens: Set(configuration.tokens), serverName: Self.serverName,
            answered: earlyNotModified)
        let early = configuration.answersPollsEarly ? answerer : nil
        let writeTimeout = (Self.timeAmount(configuration.writeTimeout), "\(configuration.writeTimeout)")
        let logger = self.logger
        let closed = closedForWriteTimeout
        return Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: Self.channelHandlers(
                        early: early, writeTimeout: writeTimeout, closed: closed, logger: logger),
                    idleTimeout: Self.timeAmount(configuration.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: Self.serverName),
            services: [ChangeFeedService(feed: feed, configuration: configuration)],
            onServerRunning: { [streams] channel in
                try? await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(
                        AcceptErrorLogger(logger: logger, streams: streams), position: .first)
                }.get()
                await onRunning(channel.localAddress?.port ?? 0)
            },
            logger: logger)
    }

    /// The handlers of each connection besides Hummingbird's (made for each connection).
    private static func channelHandlers(
        early answerer: NotModifiedHandler.Answerer?, writeTimeout: (amount: TimeAmount, shown: String),
        closed: ServerCount, logger: Logger
    ) -> [any RemovableChannelHandler] {
        let timedOut = WriteTimeoutHandler(timeout: writeTimeout.amount) { address in
            closed.add()
            let client = address.map(StreamRoutes.describe) ?? "a client"
            logger.notice("closed the connection of \(client): it took none of its answer for \(writeTimeout.shown)")
        }
        var handlers: [any RemovableChannelHandler] = [CloseAfterResponseHandler(), StreamHangUpHandler(), timedOut]
        if let answerer { handlers.append(NotModifiedInstaller(answerer: answerer)) }
        return handlers
    }

    /// A duration as NIO's time amount.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The application in a service group whose graceful shutdown (a signal in `signals`, or
    /// `triggerGracefulShutdown()`) stops accepting connections, lets the requests in flight finish for at most
    /// the configuration's ``FlagServerConfiguration/shutdownGracePeriod``, then closes the connections left.
    /// - Parameters:
    ///   - signals: the signals that stop it gracefully (none: the caller stops it).
    ///   - onRunning: called with the bound port once the server listens.
    /// - Returns: the group; its `run()` returns normally after a graceful shutdown, also one cut short by the
    ///   grace period.
    package func makeServiceGroup(
        signals: [UnixSignal] = [], onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> ServiceGroup {
        var group = ServiceGroupConfiguration(
            services: [makeApplication(onRunning: onRunning)], gracefulShutdownSignals: signals, logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        return ServiceGroup(configuration: group)
    }

    /// Serves until SIGTERM, SIGINT or SIGHUP, then stops accepting connections, finishes the requests in flight
    /// for at most the grace period, and returns.
    /// - Parameter onRunning: called with the bound port once the server listens.
    /// - Throws: ``FlagServerError`` for an invalid configuration; the framework's error when the address
    ///   cannot be bound.
    package func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try configuration.validate()
        try await makeServiceGroup(signals: [.sigterm, .sigint, .sighup], onRunning: onRunning).run()
    }
}

/// Follows the values for the event streams while the server runs: looks for changes (see ``ChangeFeed``) and
/// sends keep-alives.
struct ChangeFeedService: Service {
    let feed: ChangeFeed
    let configuration: FlagServerConfiguration

    func run() async throws {
        let feed = feed
        let keepAlive = configuration.keepAliveInterval
        let tick = min(keepAlive, .seconds(1))
        let lastKeepAlive = AnnotatedMutex(ContinuousClock.now)
        await withGracefulShutdownHandler {
            await feed.run(pollInterval: configuration.changePollInterval, tickInterval: tick) {
                let due = lastKeepAlive.withLock { last in
                    guard last.duration(to: .now) >= keepAlive - tick / 2 else { return false }
                    last = .now
                    return true
                }
                if due { feed.wakeAll() }
            }
        } onGracefulShutdown: {
            feed.stop()
        }
    }
}
