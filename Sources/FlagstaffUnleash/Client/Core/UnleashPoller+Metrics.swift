import Flagstaff
import FlagstaffRemote
import Foundation

/// Metrics: posting the counts gathered since the last post.
extension UnleashPoller {
    /// Posts the counts gathered since the last post, if there are any.
    func flushMetrics() async {
        guard !settings.disableMetrics, let bucket = metrics.takeBucket() else { return }
        await executor.run { await post(bucket) }
    }

    /// Posts a bucket to `{url}/client/metrics`: a 2xx sends `sent`, anything else puts the counts back and sends
    /// an error event. 401/403 stop the periodic posts, 404/429/5xx make them back off; a later accepted post
    /// (``flushMetrics()``) restores the interval and, while started, the periodic posts.
    func post(_ bucket: UnleashMetricsBucket) async {
        let target = settings.url.appendingPathComponent("client").appendingPathComponent("metrics")
        do throws(UnleashClientError) {
            let body = try UnleashMetricsPost(
                appName: settings.appName, environment: settings.environment,
                instanceId: settings.instanceID,
                connectionId: settings.serverSide ? settings.connectionID : nil,
                platformName: settings.serverSide ? UnleashRequestHeaders.platformName : nil,
                platformVersion: settings.serverSide ? UnleashRequestHeaders.platformVersion : nil,
                specVersion: settings.serverSide ? UnleashRequestHeaders.specificationVersion : nil,
                bucket: bucket
            ).encoded()
            let request = RemoteHTTPRequest(
                method: "POST", url: target,
                headers: headers([("Content-Type", "application/json")] + settings.metricsHeaders), body: body)
            let response = try await send(request)
            guard (200...299).contains(response.status) else {
                throw .httpStatus(response.status, url: target.absoluteString)
            }
            let resumes = state.withLock { $0.metrics.recordSuccess() }
            hub.emit(.sent(bucket))
            if resumes && isRunning { startMetrics() }
        } catch {
            metrics.restore(bucket)
            if !Task.isCancelled {
                let limit = options.maximumBackoffMultiplier
                state.withLock { $0.metrics.recordFailure(error, maximumMultiplier: limit) }
            }
            hub.emit(.error(UnleashClientFailure(operation: .metrics, error: error)))
        }
    }
}

/// The body of a metrics post; the server-side client adds `connectionId`, `platformName`, `platformVersion` and
/// `specVersion`, as Unleash's server SDKs do.
struct UnleashMetricsPost: Encodable {
    var appName: String
    var environment: String?
    var instanceId: String
    var connectionId: String?
    var platformName: String?
    var platformVersion: String?
    var specVersion: String?
    var bucket: UnleashMetricsBucket

    /// The JSON, keys sorted.
    func encoded() throws(UnleashClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw .invalidResponse("cannot encode the metrics body: \(error)")
        }
    }
}
