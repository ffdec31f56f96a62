import FlagstaffRemote
import Foundation

extension UnleashServerClient {
    /// The standard strategies the engine implements, reported at registration.
    static let strategies = [
        "default", "userWithId", "gradualRolloutUserId", "gradualRolloutSessionId", "gradualRolloutRandom",
        "remoteAddress", "flexibleRollout", "applicationHostname",
    ]

    /// Fetches `/api/client/features` now, after any fetch already running, and applies the answer.
    public func fetchFeatures() async {
        await poller.fetch()
    }

    /// Polling the client API: `GET {url}/client/features`; the engine takes a body as it is read (it keeps
    /// its own state), the model keeps each feature's definition, and the body is persisted as it came.
    static func feed(endpoint: URL, engine: UnleashEngine) -> UnleashFeed<Model, [String: Data]> {
        UnleashFeed(
            endpoint: endpoint,
            url: { _ in endpoint },
            decode: { body, source throws(UnleashClientError) in try take(body, into: engine, source: source) },
            install: { model, definitions in
                let names = Set(model.definitions.keys).union(definitions.keys)
                let changed = names.filter { model.definitions[$0] != definitions[$0] }.sorted()
                model.definitions = definitions
                return changed
            },
            snapshot: { _, body in body })
    }

    /// Gives a state body to the engine.
    /// - Returns: Each feature's definition, canonical, by name.
    static func take(_ data: Data, into engine: UnleashEngine, source: String) throws(UnleashClientError) -> [String:
        Data]
    {
        do {
            try engine.takeState(data)
            return definitions(of: data)
        } catch let error as UnleashStateError {
            throw .invalidResponse("\(source): \(error.description)")
        } catch {
            throw .invalidResponse("\(source): \(error)")
        }
    }

    /// Each feature's definition re-serialised with sorted keys, by name.
    static func definitions(of data: Data) -> [String: Data] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let features = object["features"] as? [[String: Any]]
        else { return [:] }
        let segments = (object["segments"] as? [Any]).flatMap {
            try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])
        }
        var result: [String: Data] = [:]
        for feature in features {
            guard let name = feature["name"] as? String,
                var canonical = try? JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys])
            else { continue }
            // A segment change can change any feature that uses segments.
            if let segments, canonical.range(of: Data("\"segments\"".utf8)) != nil { canonical.append(segments) }
            result[name] = canonical
        }
        return result
    }

    // MARK: Registration and metrics

    /// Registers the application: `POST {url}/client/register`. Failures are reported as error events.
    public func register() async {
        let target = url.appendingPathComponent("client").appendingPathComponent("register")
        var body: [String: Any] = [
            "appName": appName, "instanceId": instanceID, "connectionId": options.connectionID,
            "sdkVersion": UnleashRequestHeaders.sdkIdentifier, "strategies": Self.strategies,
            "started": UnleashTimestamp.format(startedAt),
            "interval": Int(
                refreshInterval.components.seconds * 1000 + refreshInterval.components.attoseconds
                    / 1_000_000_000_000_000),
        ]
        if let environment { body["environment"] = environment }
        do throws(UnleashClientError) {
            let data: Data
            do { data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) } catch {
                throw .invalidResponse("cannot encode the registration: \(error)")
            }
            let request = RemoteHTTPRequest(
                method: "POST", url: target,
                headers: poller.headers([("Content-Type", "application/json")]), body: data)
            let response = try await poller.send(request)
            guard (200...299).contains(response.status) else {
                throw .httpStatus(response.status, url: target.absoluteString)
            }
        } catch {
            poller.hub.emit(.error(UnleashClientFailure(operation: .register, error: error)))
        }
    }

    /// Sends the counts gathered since the last post to `{url}/client/metrics`, if there are any.
    ///
    /// A 2xx answer sends a ``UnleashClientEvent/sent(_:)`` event; otherwise the counts are kept for the next
    /// post and an error event is sent. Called every ``metricsInterval`` while started, and by ``stop()``.
    public func flushMetrics() async {
        await poller.flushMetrics()
    }
}
