import Flagstaff
import Foundation

/// How an ``OFREPProvider`` reaches its server and when it asks again.
///
/// ```swift
/// let options = OFREPOptions(
///     baseURL: URL(string: "http://192.168.1.20:4242")!, headers: ["Authorization": "Bearer qa-secret"],
///     context: ["targetingKey": OverrideValue(string: "qa-phone")])
/// ```
public struct OFREPOptions: Sendable {
    /// The server's address before `/ofrep` (`http://host:port`, or with a path prefix).
    public var baseURL: URL
    /// Header fields sent with every request to the server, event streams on its origin included (an `Authorization`
    /// or `X-API-Key`); never to another origin (a stream offered there, a redirect).
    public var headers: [String: String]
    /// The static evaluation context sent with every bulk evaluation (`targetingKey` and any attributes).
    public var context: [String: OverrideValue]
    /// How long one bulk evaluation may take (default 10 s, as the OFREP provider guideline says).
    public var requestTimeout: Duration
    /// Timer polling, used only while the server offers no event stream (ADR-0010: off by default).
    public var pollInterval: Duration?
    /// The first pause before reconnecting a failed event stream; it doubles with each failure in a row.
    public var minimumReconnectDelay: Duration
    /// The longest pause between reconnections.
    public var maximumReconnectDelay: Duration
    /// How long an event stream may stay silent (no event, no keep-alive comment) before it is reconnected.
    public var streamIdleTimeout: Duration
    /// How long the app may stay inactive (``OFREPProvider/applicationBecameInactive()``) before the event streams
    /// are closed; `nil` (the default) takes the server's `inactivityDelaySec`, else 120 s (ADR-0008).
    public var inactivityDelay: Duration?
    /// The largest bulk evaluation body accepted.
    public var maximumResponseBytes: Int
    /// The clock every wait runs on: poll intervals, reconnection pauses, `Retry-After` and the inactivity delay. A
    /// `ManualClock` (`FlagstaffTesting`) in tests.
    public var clock: any Clock<Duration>
    /// A uniformly distributed number in `0..<1`, for reconnection jitter (±50 %).
    public var random: @Sendable () -> Double

    /// Creates options.
    /// - Parameters:
    ///   - baseURL: The server's address before `/ofrep`.
    ///   - headers: Header fields for every request.
    ///   - context: The static evaluation context.
    ///   - requestTimeout: The longest a bulk evaluation may take.
    ///   - pollInterval: Timer polling while no event stream is offered; `nil` (the default) for none.
    ///   - minimumReconnectDelay: The first pause before reconnecting an event stream (default 1 s).
    ///   - maximumReconnectDelay: The longest pause (default 60 s).
    ///   - streamIdleTimeout: How long a stream may stay silent (default 75 s; servers send keep-alives).
    ///   - inactivityDelay: How long the app may be inactive before the streams close; `nil` (the default) for the
    ///     server's `inactivityDelaySec`, else 120 s.
    ///   - maximumResponseBytes: The largest body accepted (default 16 MiB).
    ///   - clock: The clock waits run on.
    ///   - random: The jitter source.
    public init(
        baseURL: URL, headers: [String: String] = [:], context: [String: OverrideValue] = [:],
        requestTimeout: Duration = .seconds(10), pollInterval: Duration? = nil,
        minimumReconnectDelay: Duration = .seconds(1), maximumReconnectDelay: Duration = .seconds(60),
        streamIdleTimeout: Duration = .seconds(75), inactivityDelay: Duration? = nil,
        maximumResponseBytes: Int = 16 << 20,
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.context = context
        self.requestTimeout = requestTimeout
        self.pollInterval = pollInterval
        self.minimumReconnectDelay = minimumReconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
        self.streamIdleTimeout = streamIdleTimeout
        self.inactivityDelay = inactivityDelay
        self.maximumResponseBytes = maximumResponseBytes
        self.clock = clock
        self.random = random
    }

    /// The bulk evaluation endpoint: `baseURL` + `/ofrep/v1/evaluate/flags`.
    var bulkURL: URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/ofrep/v1/evaluate/flags") ?? baseURL
    }

    /// `scheme://host:port` of the base URL: names the server in explanations and messages (never a path,
    /// query or credentials).
    var origin: String {
        guard let scheme = baseURL.scheme, let host = baseURL.host else { return "server" }
        return "\(scheme)://\(host)\(baseURL.port.map { ":\($0)" } ?? "")"
    }

    /// The request body: `{"context":{…}}`, members sorted by name.
    var requestBody: Data {
        let members = context.keys.sorted().map { JSONText.quoted($0) + ":" + (context[$0] ?? .on).json }
        return Data(("{\"context\":{" + members.joined(separator: ",") + "}}").utf8)
    }
}
