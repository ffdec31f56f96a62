/// How ``UnleashServerClient`` learns of changes: by polling (the default) or by following the server's event
/// stream, as the `experimentalMode: {type: "streaming"}` option of Unleash's SDKs asks for.
///
/// A struct rather than an enum, so that a mode can be added without breaking code that handles these values.
public struct UnleashExperimentalMode: Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case polling
        case streaming
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// Polls `{url}/client/delta` (or `/client/features`) every refresh interval.
    public static let polling = UnleashExperimentalMode(.polling)

    /// Keeps one connection to `{url}/client/streaming` (Server-Sent Events, as Unleash Edge and
    /// `flagstaff serve` offer it) and applies each change as it arrives; reconnects with backoff, resuming with
    /// `Last-Event-ID`, and falls back to polling when the server has no stream (404 or 405) or asks for polling.
    public static let streaming = UnleashExperimentalMode(.streaming)

    /// Whether this is ``streaming``.
    public var isStreaming: Bool { code == .streaming }

    /// `polling` or `streaming`.
    public var description: String { isStreaming ? "streaming" : "polling" }
}
