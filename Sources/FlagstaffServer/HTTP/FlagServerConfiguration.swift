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

    /// Creates a configuration.
    package init(
        host: String = "127.0.0.1", port: Int = 4242, tokens: [String] = [], bodyLimit: Int = 1 << 20,
        idleTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.tokens = tokens
        self.bodyLimit = bodyLimit
        self.idleTimeout = idleTimeout
    }

    /// Whether `host` names this machine only (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Checks the configuration before binding.
    /// - Throws: ``FlagServerError`` naming the option: a port out of range, an empty token, or a non-loopback
    ///   host without a token.
    package func validate() throws(FlagServerError) {
        guard (0...65535).contains(port) else { throw FlagServerError("--port: \(port) is not a port (0–65535)") }
        guard !host.isEmpty else { throw FlagServerError("--host: needs an address, e.g. 127.0.0.1") }
        if tokens.contains(where: \.isEmpty) { throw FlagServerError("--token: a token cannot be empty") }
        if !Self.isLoopback(host) && tokens.isEmpty {
            throw FlagServerError(
                "--host \(host): serving beyond this machine needs at least one --token (clients then send it as the Authorization header)"
            )
        }
        guard bodyLimit > 0 else { throw FlagServerError("the body limit must be positive") }
    }
}

/// Why the server cannot start or run, as a message naming the option or address.
package struct FlagServerError: Error, Sendable, CustomStringConvertible {
    /// The message.
    package var description: String

    /// Creates an error.
    package init(_ description: String) { self.description = description }
}
