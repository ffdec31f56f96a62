import Foundation

/// The spellings of unleash-proxy-client-swift (`UnleashProxyClientSwift.UnleashClient`), so code written for it
/// compiles against ``UnleashClient`` with few changes. Each is a thin layer over the client's own API; the
/// migration section of `docs/unleash.md` lists what differs.
extension UnleashClient {
    /// Creates a client as unleash-proxy-client-swift's initializer does: intervals in whole seconds (refresh 15 s,
    /// metrics 30 s by default, 0 turns that activity off) and the context as a dictionary.
    ///
    /// Unlike the original, which stops the process on a bad URL, this initializer throws.
    /// - Parameters:
    ///   - unleashUrl: The frontend API endpoint, an absolute http or https URL.
    ///   - clientKey: The frontend (client) key.
    ///   - refreshInterval: Seconds between polls (default 15); 0 fetches only at start and on request.
    ///   - metricsInterval: Seconds between metrics posts (default 30); 0 turns periodic posts off.
    ///   - disableMetrics: `true` to neither count nor send metrics.
    ///   - appName: The application name (default `unleash-swift-client`, as the original).
    ///   - environment: The environment (default `default`; `nil` means `default`).
    ///   - context: The context as a dictionary: `userId`, `sessionId`, `remoteAddress` are fields, `appName` and
    ///     `environment` are ignored (they are fixed by the arguments above), every other key is a property.
    ///   - customHeaders: Extra header fields for every request (reserved ones are ignored).
    ///   - bootstrap: Toggles to serve before the first fetch.
    ///   - options: Timeouts, limits, persistence and the clock.
    /// - Throws: ``UnleashClientError/invalidArgument(_:)`` naming `unleashUrl` when it is not an absolute http or
    ///   https URL.
    public convenience init(
        unleashUrl: String, clientKey: String, refreshInterval: Int = 15, metricsInterval: Int = 30,
        disableMetrics: Bool = false, appName: String = "unleash-swift-client", environment: String? = "default",
        context: [String: String]? = nil, customHeaders: [String: String] = [:],
        bootstrap: UnleashBootstrap = .toggles([]), options: UnleashClientOptions = UnleashClientOptions()
    ) throws(UnleashClientError) {
        guard let url = URL(string: unleashUrl), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw .invalidArgument(
                "unleashUrl \"\(unleashUrl)\" is not an absolute http or https URL (expected e.g. "
                    + "\"https://edge.example.com/api/frontend\")")
        }
        self.init(
            url: url, clientKey: clientKey, appName: appName, environment: environment ?? "default",
            refreshInterval: .seconds(max(0, refreshInterval)), metricsInterval: .seconds(max(0, metricsInterval)),
            disableMetrics: disableMetrics, context: Self.context(context ?? [:]),
            customHeaders: customHeaders, bootstrap: bootstrap, options: options)
    }

    /// unleash-proxy-client-swift's `start(bootstrap:printToConsole:)`: serves `bootstrap` (when it has toggles and
    /// nothing was fetched yet), then ``start()``.
    /// - Parameters:
    ///   - bootstrap: Toggles to serve until the first successful fetch.
    ///   - printToConsole: Ignored (the original's logging switch); subscribe to events instead.
    /// - Throws: The first fetch's error when it failed (the client keeps polling, as the original does).
    public func start(bootstrap: UnleashBootstrap = .toggles([]), printToConsole: Bool = false)
        async throws(UnleashClientError)
    {
        if !bootstrap.toggles.isEmpty {
            poller.state.withLock { state in
                if state.fetch.lastFetch == nil { _ = poller.changeModel { $0.install(bootstrap.toggles) } }
            }
        }
        await start()
        if let error = poller.state.withLock({ $0.fetch.lastFetch == nil ? $0.fetch.lastError : nil }) { throw error }
    }

    /// The context of a dictionary, without `appName` and `environment` (fixed by the client, as in the original).
    static func context(_ dictionary: [String: String]) -> UnleashContext {
        var context = UnleashContext(dictionary: dictionary)
        (context.appName, context.environment) = (nil, nil)
        return context
    }

    /// unleash-proxy-client-swift's `isEnabled(name:)`: ``isEnabled(_:)``.
    /// - Parameter name: The toggle's name.
    /// - Returns: `true` when the toggle is on.
    public func isEnabled(name: String) -> Bool {
        isEnabled(name)
    }

    /// unleash-proxy-client-swift's `getVariant(name:)`: ``variant(_:)``.
    /// - Parameter name: The toggle's name.
    /// - Returns: The variant.
    public func getVariant(name: String) -> UnleashVariant {
        variant(name)
    }

    /// unleash-proxy-client-swift's `updateContext(context:properties:)`: the context as a dictionary (see
    /// ``init(unleashUrl:clientKey:refreshInterval:metricsInterval:disableMetrics:appName:environment:context:customHeaders:bootstrap:options:)``),
    /// `properties` merged over its properties; the session id is kept when the dictionary has none.
    /// - Parameters:
    ///   - context: The context as a dictionary.
    ///   - properties: More properties.
    /// - Throws: The fetch's error when the client is started and the fetch for the new context failed (the
    ///   previous toggles stay).
    public func updateContext(context: [String: String], properties: [String: String]? = nil)
        async throws(UnleashClientError)
    {
        await updateContext(Self.context(context), properties: properties ?? [:])
        // Only a started client fetched; a stopped one just took the context.
        if let error = poller.state.withLock({ $0.running ? $0.fetch.lastError : nil }) { throw error }
    }

    /// unleash-proxy-client-swift's `subscribe(_:callback:)`: calls `callback` for every event of that kind until
    /// ``unsubscribe(_:)``. The client keeps the subscription (unlike ``onEvent(_:)``, nothing is returned).
    ///
    /// Callbacks run on the client's tasks (impressions on the evaluating thread), never on the main thread by
    /// itself; hop to the main actor in the callback for UI work.
    /// - Parameters:
    ///   - kind: The kind of event (`.ready`, `.update`, `.error`, `.sent`, `.impression`, `.synchronized`).
    ///   - callback: Called for each event of that kind.
    public func subscribe(_ kind: UnleashClientEvent.Kind, callback: @escaping @Sendable () -> Void) {
        poller.hub.keep(kind) { _ in callback() }
    }

    /// Like ``subscribe(_:callback:)``, with the event.
    /// - Parameters:
    ///   - kind: The kind of event.
    ///   - callback: Called with each event of that kind.
    public func subscribe(_ kind: UnleashClientEvent.Kind, callback: @escaping @Sendable (UnleashClientEvent) -> Void) {
        poller.hub.keep(kind, callback)
    }

    /// unleash-proxy-client-swift's `unsubscribe(_:)`: ends every ``subscribe(_:callback:)`` callback of
    /// that kind.
    /// - Parameter kind: The kind of event.
    public func unsubscribe(_ kind: UnleashClientEvent.Kind) {
        poller.hub.release(kind)
    }
}

extension UnleashContext {
    /// A context from unleash-proxy-client-swift's dictionary form: `userId`, `sessionId` and `remoteAddress` are
    /// fields, `appName` and `environment` too, every other key is a property.
    /// - Parameter dictionary: The context as a dictionary.
    public init(dictionary: [String: String]) {
        var properties = dictionary
        let field = { (name: String) in properties.removeValue(forKey: name) }
        self.init(
            userId: field("userId"), sessionId: field("sessionId"), remoteAddress: field("remoteAddress"),
            environment: field("environment"), appName: field("appName"), properties: [:])
        self.properties = properties
    }

    /// The context as unleash-proxy-client-swift's `Context.toMap()` gives it: the properties, then the fields
    /// that are set (`userId`, `sessionId`, `remoteAddress`, `appName`, `environment`) over them.
    /// - Returns: The dictionary.
    public func toMap() -> [String: String] {
        var map = properties
        let fields = [
            ("userId", userId), ("sessionId", sessionId), ("remoteAddress", remoteAddress), ("appName", appName),
            ("environment", environment),
        ]
        for case (let name, let value?) in fields { map[name] = value }
        return map
    }
}
