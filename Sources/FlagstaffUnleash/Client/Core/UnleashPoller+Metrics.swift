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
    /// an error event.
    func post(_ bucket: UnleashMetricsBucket) async {
        let target = settings.url.appendingPathComponent("client").appendingPathComponent("metrics")
        do throws(UnleashClientError) {
            let body = try UnleashMetricsPost(
                appName: settings.appName, environment: settings.environment,
                instanceId: settings.instanceID, bucket: bucket
            ).encoded()
            let request = RemoteHTTPRequest(
                method: "POST", url: target,
                headers: headers([("Content-Type", "application/json")]), body: body)
            let response = try await send(request)
            guard (200...299).contains(response.status) else {
                throw .httpStatus(response.status, url: target.absoluteString)
            }
            hub.emit(.sent(bucket))
        } catch {
            metrics.restore(bucket)
            hub.emit(.error(UnleashClientFailure(operation: .metrics, error: error)))
        }
    }
}

/// The body of a metrics post.
struct UnleashMetricsPost: Encodable {
    var appName: String
    var environment: String?
    var instanceId: String
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
