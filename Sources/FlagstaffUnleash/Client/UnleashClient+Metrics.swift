import Foundation

extension UnleashClient {
    /// Sends the counts gathered since the last post to `{url}/client/metrics`, if there are any.
    ///
    /// The body is `{"appName","environment","instanceId","bucket":{"start","stop","toggles":{…}}}`. A 2xx answer
    /// sends a ``UnleashClientEvent/sent(_:)`` event; otherwise the counts are kept for the next post and an
    /// error event is sent. Called every ``metricsInterval`` while started; call it yourself before ``stop()``
    /// to send the last counts.
    public func flushMetrics() async {
        guard !disableMetrics, let bucket = metrics.takeBucket() else { return }
        let target = url.appendingPathComponent("client").appendingPathComponent("metrics")
        do throws(UnleashClientError) {
            let body = try Self.metricsBody(appName: appName, environment: environment,
                                            instanceID: options.connectionID, bucket: bucket)
            let request = UnleashHTTPRequest(method: "POST", url: target,
                                             headers: requestHeaders([("Content-Type", "application/json")]), body: body)
            let response = try await transport.send(request)
            guard (200...299).contains(response.status) else {
                throw .httpStatus(response.status, url: target.absoluteString)
            }
            hub.emit(.sent(bucket))
        } catch {
            metrics.restore(bucket)
            hub.emit(.error(UnleashClientFailure(operation: .metrics, error: error)))
        }
    }

    /// The metrics body, keys sorted.
    static func metricsBody(appName: String, environment: String?, instanceID: String,
                            bucket: UnleashMetricsBucket) throws(UnleashClientError) -> Data {
        struct Body: Encodable {
            var appName: String
            var environment: String?
            var instanceId: String
            var bucket: UnleashMetricsBucket
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(Body(appName: appName, environment: environment, instanceId: instanceID, bucket: bucket))
        } catch {
            throw .invalidResponse("cannot encode the metrics body: \(error)")
        }
    }
}
