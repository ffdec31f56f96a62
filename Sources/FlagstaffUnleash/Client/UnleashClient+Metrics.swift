import Foundation

extension UnleashClient {
    /// Sends the counts gathered since the last post to `{url}/client/metrics`, if there are any.
    ///
    /// The body is `{"appName","environment","instanceId","bucket":{"start","stop","toggles":{…}}}`. A 2xx answer
    /// sends a ``UnleashClientEvent/sent(_:)`` event; otherwise the counts are kept for the next post and an
    /// error event is sent. Called every ``metricsInterval`` while started, and by ``stop()``.
    public func flushMetrics() async {
        await poller.flushMetrics()
    }
}
