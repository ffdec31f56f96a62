/// Where and how `flagstaff serve` listens.
package struct FlagServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` unless told otherwise.
    package var host: String
    /// The TCP port (0: any free port, reported when the server runs).
    package var port: Int
    /// Accepted `Authorization` values; when non-empty every request needs one of them (`Bearer <token>` also
    /// accepted). Required for any host other than a loopback address.
    package var tokens: [String]
    /// The largest request body accepted (413 beyond).
    package var bodyLimit: Int
    /// How long a connection may stay silent (a slow or stalled client) before it is closed.
    package var idleTimeout: Duration
    /// How long a graceful stop (SIGTERM, SIGINT, SIGHUP, the console closing) lets the requests in flight
    /// finish before the remaining connections are closed: a client holding a half-sent request cannot keep the
    /// server running.
    package var shutdownGracePeriod: Duration
    /// The most event streams (`/api/client/streaming`, `/ofrep/v1/events`) open at once; one more gets 503.
    package var maxStreams: Int
    /// How often a stream with nothing to say gets a keep-alive comment (also how soon a client gone is noticed).
    package var keepAliveInterval: Duration
    /// How long a response (a body, an event stream) may wait for a client that takes none of it before the
    /// connection is closed (``WriteTimeoutHandler``).
    package var writeTimeout: Duration
    /// How often the server looks for changes of the store on its own (no request needed) to push them.
    package var changePollInterval: Duration
    /// Whether a poll that has the values gets its 304 on the event loop, before the router
    /// (``NotModifiedHandler``); off only to measure the router's path beside it (`flagstaff-bench serve`).
    package var answersPollsEarly = true

    /// The default ``shutdownGracePeriod``, as docs/serve.md says.
    package static let defaultShutdownGracePeriod = Duration.seconds(5)
    /// The default ``maxStreams``, as docs/serve.md says.
    package static let defaultMaxStreams = 1_000

    /// Creates a configuration.
    package init(
        host: String = "127.0.0.1", port: Int = 4242, tokens: [String] = [], bodyLimit: Int = 1 << 20,
        idleTimeout: Duration = .seconds(30), shutdownGracePeriod: Duration = defaultShutdownGracePeriod,
        maxStreams: Int = defaultMaxStreams, keepAliveInterval: Duration = .seconds(15),
        writeTimeout: Duration = .seconds(15), changePollInterval: Duration = .milliseconds(50)
    ) {
        self.host = host
        self.port = port
        self.tokens = tokens
        self.bodyLimit = bodyLimit
        self.idleTimeout = idleTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maxStreams = maxStreams
        self.keepAliveInterval = keepAliveInterval
        self.writeTimeout = writeTimeout
        self.changePollInterval = changePollInterval
    }

    /// Whether `host` names this machine only (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Checks the configuration before binding.
    /// - Throws: ``FlagServerError`` naming the option: a port out of range, a token no client could send
    ///   (see ``tokenProblem(_:)``), or a non-loopback host without a token.
    package func validate() throws(FlagServerError) {
        guard (0...65535).contains(port) else { throw FlagServerError("--port: \(port) is not a port (0–65535)") }
        guard !host.isEmpty else { throw FlagServerError("--host: needs an address, e.g. 127.0.0.1") }
        if let problem = tokens.lazy.compactMap(Self.tokenProblem).first {
            throw FlagServerError("--token: \(problem)")
        }
        if !Self.isLoopback(host) && tokens.isEmpty {
            throw FlagServerError(
                "--host \(host): serving beyond this machine needs at least one --token (clients then send it as the Authorization header)"
            )
        }
        guard bodyLimit > 0 else { throw FlagServerError("the body limit must be positive") }
        guard maxStreams >= 0 else {
            throw FlagServerError("--max-streams: \(maxStreams) is negative (0 turns streams off)")
        }
    }

    /// Why `token` cannot be a token, or `nil` when it can: it is empty or only white space (every request would
    /// get 401 while the server looked protected), it starts or ends with white space (HTTP drops that from a
    /// header, so no client could send it), or it holds a control character (not allowed in a header).
    package static func tokenProblem(_ token: String) -> String? {
        let isSpace: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
        if token.unicodeScalars.allSatisfy(isSpace) {
            return token.isEmpty ? "a token cannot be empty" : "a token cannot be blank (only white space)"
        }
        if let first = token.unicodeScalars.first, let last = token.unicodeScalars.last, isSpace(first) || isSpace(last)
        {
            return "a token cannot start or end with white space (HTTP drops it from the Authorization header)"
        }
        if token.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a token cannot contain a control character (an HTTP header cannot carry it)"
        }
        return nil
    }
}

/// Why the server cannot start or run, as a message naming the option or address.
package struct FlagServerError: Error, Sendable, CustomStringConvertible {
    /// The message.
    package var description: String

    /// Creates an error.
    package init(_ description: String) { self.description = description }
}
