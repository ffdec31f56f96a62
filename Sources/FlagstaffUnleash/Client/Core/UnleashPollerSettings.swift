import Foundation

/// What both clients send with every request and how they poll and post metrics.
struct UnleashPollerSettings: Sendable {
    /// `{url}`: metrics go to `{url}/client/metrics`.
    var url: URL
    var appName: String
    var environment: String?
    /// The `instanceId` of metrics posts.
    var instanceID: String
    /// `Authorization` and the `unleash-*` fields, in order; custom fields follow them.
    var headers: [(name: String, value: String)]
    var customHeaders: [String: String]
    var customHeadersProvider: (@Sendable () -> [String: String])?
    var refreshInterval: Duration
    var metricsInterval: Duration
    var disableMetrics: Bool
    var options: UnleashClientOptions

    /// Settings; intervals under a millisecond count as one.
    /// - Parameter instanceID: The server client's instance id (sent as `unleash-instanceid` and in metrics);
    ///   `nil` for the frontend client, whose metrics name the connection id.
    init(
        url: URL, key: String, appName: String, environment: String?, instanceID: String?,
        customHeaders: [String: String], customHeadersProvider: (@Sendable () -> [String: String])?,
        refreshInterval: Duration, metricsInterval: Duration, disableMetrics: Bool, options: UnleashClientOptions
    ) {
        self.url = url
        self.appName = appName
        self.environment = environment
        self.instanceID = instanceID ?? options.connectionID
        headers =
            [("Authorization", key), ("unleash-appname", appName)]
            + (instanceID.map { [("unleash-instanceid", $0)] } ?? [])
            + [("unleash-connection-id", options.connectionID), ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier)]
        self.customHeaders = customHeaders
        self.customHeadersProvider = customHeadersProvider
        self.refreshInterval = max(refreshInterval, .milliseconds(1))
        self.metricsInterval = max(metricsInterval, .milliseconds(1))
        self.disableMetrics = disableMetrics
        self.options = options
    }
}
