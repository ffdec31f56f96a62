import Foundation

/// What both clients send with every request and how they poll and post metrics.
struct UnleashPollerSettings: Sendable {
    /// `{url}`: metrics go to `{url}/client/metrics`.
    var url: URL
    var appName: String
    var environment: String?
    /// The `instanceId` of metrics posts.
    var instanceID: String
    /// The client's connection id (`unleash-connection-id`, `connectionId` in metrics and registration).
    var connectionID: String
    /// Whether this is the server-side client (it sends `Unleash-Client-Spec`, `unleash-interval` and
    /// `connectionId` in metrics).
    var serverSide: Bool
    /// `Authorization` and the `unleash-*` fields, in order; custom fields follow them.
    var headers: [(name: String, value: String)]
    /// Fields only polls carry (server side: `Unleash-Client-Spec`, `unleash-interval`).
    var fetchHeaders: [(name: String, value: String)]
    /// Fields only metrics posts carry (server side: `unleash-interval`).
    var metricsHeaders: [(name: String, value: String)]
    var customHeaders: [String: String]
    var customHeadersProvider: (@Sendable () -> [String: String])?
    /// The time between polls, `nil` when polling is off (an interval of zero or less).
    var refreshInterval: Duration?
    /// The time between periodic metrics posts, `nil` when they are off (an interval of zero or less).
    var metricsInterval: Duration?
    var disableMetrics: Bool
    var options: UnleashClientOptions

    /// Settings; an interval of zero or less turns that activity off, one under a millisecond counts as one.
    /// - Parameter instanceID: The server client's instance id (sent as `unleash-instanceid` and in metrics);
    ///   `nil` for the frontend client, whose metrics name the connection id.
    init(
        url: URL, key: String, appName: String, environment: String?, instanceID: String?,
        customHeaders: [String: String], customHeadersProvider: (@Sendable () -> [String: String])?,
        refreshInterval: Duration, metricsInterval: Duration, disableMetrics: Bool, options: UnleashClientOptions
    ) {
        let connectionID = options.connectionID ?? UUID().uuidString.lowercased()
        let serverSide = instanceID != nil
        self.url = url
        self.appName = appName
        self.environment = environment
        self.connectionID = connectionID
        self.serverSide = serverSide
        self.instanceID = instanceID ?? connectionID
        headers =
            [("Authorization", key), ("unleash-appname", appName)]
            + (instanceID.map { [("unleash-instanceid", $0)] } ?? [])
            + [("unleash-connection-id", connectionID), ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier)]
        self.customHeaders = customHeaders
        self.customHeadersProvider = customHeadersProvider
        self.refreshInterval = Self.interval(refreshInterval)
        self.metricsInterval = Self.interval(metricsInterval)
        self.disableMetrics = disableMetrics
        self.options = options
        if serverSide {
            fetchHeaders = [
                ("Unleash-Client-Spec", UnleashRequestHeaders.specificationVersion),
                ("unleash-interval", String(Self.milliseconds(self.refreshInterval))),
            ]
            metricsHeaders = [("unleash-interval", String(Self.milliseconds(self.metricsInterval)))]
        } else {
            (fetchHeaders, metricsHeaders) = ([], [])
        }
    }

    /// `nil` for zero or less (off), else at least a millisecond.
    static func interval(_ duration: Duration) -> Duration? {
        duration <= .zero ? nil : max(duration, .milliseconds(1))
    }

    /// Whole milliseconds of an interval, 0 when it is off (what Unleash's `interval` fields carry).
    static func milliseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return 0 }
        return duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
