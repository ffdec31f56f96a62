import Foundation

extension UnleashServerClient {
    /// The standard strategies the engine implements, reported at registration.
    static let strategies = [
        "default", "userWithId", "gradualRolloutUserId", "gradualRolloutSessionId", "gradualRolloutRandom",
        "remoteAddress", "flexibleRollout", "applicationHostname",
    ]

    /// The client's own header fields followed by the accepted custom ones.
    func requestHeaders(_ own: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let base: [(name: String, value: String)] = [
            ("Authorization", apiKey),
            ("unleash-appname", appName),
            ("unleash-instanceid", instanceID),
            ("unleash-connection-id", options.connectionID),
            ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier),
        ]
        let custom = [customHeaders] + (customHeadersProvider.map { [$0()] } ?? [])
        return UnleashRequestHeaders.merge(own: base + own, custom: custom)
    }

    func endpoint(_ last: String) -> URL {
        url.appendingPathComponent("client").appendingPathComponent(last)
    }

    /// Fetches `/api/client/features` now, after any fetch already running, and applies the answer.
    public func fetchFeatures() async {
        await gate.run { await self.performFetch() }
    }

    private func performFetch() async {
        let eTag = state.withLock { $0.eTag }
        var own: [(name: String, value: String)] = [("Accept", "application/json")]
        if let eTag, !eTag.isEmpty { own.append(("If-None-Match", eTag)) }
        let target = endpoint("features")
        let request = UnleashHTTPRequest(method: "GET", url: target, headers: requestHeaders(own), body: nil)
        do throws(UnleashClientError) {
            let response = try await transport.send(request)
            switch response.status {
            case 200:
                try Self.take(response.body, into: engine, source: "body from \(target.absoluteString)")
                let definitions = Self.definitions(of: response.body)
                let now = options.now()
                let (first, changed) = state.withLock { state -> (Bool, [String]) in
                    let names = Set(state.definitions.keys).union(definitions.keys)
                    let changed = names.filter { state.definitions[$0] != definitions[$0] }.sorted()
                    state.definitions = definitions
                    state.hasState = true
                    state.eTag = response.header("etag")
                    return (state.fetch.recordSuccess(at: now), changed)
                }
                if first || !changed.isEmpty { persist(response.body) }
                if first { hub.emit(.ready) }
                if !changed.isEmpty { hub.emit(.update(changed: changed)) }
            case 304:
                let first = state.withLock { $0.fetch.recordSuccess(at: options.now()) }
                if first { hub.emit(.ready) }
            default:
                throw .httpStatus(response.status, url: target.absoluteString)
            }
        } catch {
            // A fetch abandoned by stop() is not a failure of the server.
            if Task.isCancelled { return }
            let now = options.now()
            let limit = options.maximumBackoffMultiplier
            state.withLock { $0.fetch.recordFailure(error, at: now, maximumMultiplier: limit) }
            hub.emit(.error(UnleashClientFailure(operation: .fetch, error: error)))
        }
    }

    /// Gives a state body to the engine.
    static func take(_ data: Data, into engine: UnleashEngine, source: String) throws(UnleashClientError) {
        do {
            try engine.takeState(data)
        } catch let error as UnleashStateError {
            throw .invalidResponse("\(source): \(error.description)")
        } catch {
            throw .invalidResponse("\(source): \(error)")
        }
    }

    /// Each feature's definition re-serialised with sorted keys, by name.
    static func definitions(of data: Data) -> [String: Data] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let features = object["features"] as? [[String: Any]] else { return [:] }
        let segments = (object["segments"] as? [Any]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        var result: [String: Data] = [:]
        for feature in features {
            guard let name = feature["name"] as? String,
                  var canonical = try? JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys]) else { continue }
            // A segment change can change any feature that uses segments.
            if let segments, canonical.range(of: Data("\"segments\"".utf8)) != nil { canonical.append(segments) }
            result[name] = canonical
        }
        return result
    }

    private func persist(_ body: Data) {
        guard let snapshots else { return }
        do throws(UnleashClientError) {
            try snapshots.save(body)
        } catch {
            hub.emit(.error(UnleashClientFailure(operation: .persist, error: error)))
        }
    }

    // MARK: Registration and metrics

    /// Registers the application: `POST {url}/client/register`. Failures are reported as error events.
    public func register() async {
        let target = endpoint("register")
        var body: [String: Any] = [
            "appName": appName, "instanceId": instanceID, "connectionId": options.connectionID,
            "sdkVersion": UnleashRequestHeaders.sdkIdentifier, "strategies": Self.strategies,
            "started": UnleashTimestamp.format(startedAt),
            "interval": Int(refreshInterval.components.seconds * 1000 + refreshInterval.components.attoseconds / 1_000_000_000_000_000),
        ]
        if let environment { body["environment"] = environment }
        do throws(UnleashClientError) {
            let data: Data
            do { data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) } catch {
                throw .invalidResponse("cannot encode the registration: \(error)")
            }
            let request = UnleashHTTPRequest(method: "POST", url: target,
                                             headers: requestHeaders([("Content-Type", "application/json")]), body: data)
            let response = try await transport.send(request)
            guard (200...299).contains(response.status) else { throw .httpStatus(response.status, url: target.absoluteString) }
        } catch {
            hub.emit(.error(UnleashClientFailure(operation: .register, error: error)))
        }
    }

    /// Sends the counts gathered since the last post to `{url}/client/metrics`, if there are any.
    ///
    /// A 2xx answer sends a ``UnleashClientEvent/sent(_:)`` event; otherwise the counts are kept for the next
    /// post and an error event is sent.
    public func flushMetrics() async {
        guard !disableMetrics, let bucket = metrics.takeBucket() else { return }
        let target = endpoint("metrics")
        do throws(UnleashClientError) {
            let body = try UnleashClient.metricsBody(appName: appName, environment: environment, instanceID: instanceID, bucket: bucket)
            let request = UnleashHTTPRequest(method: "POST", url: target,
                                             headers: requestHeaders([("Content-Type", "application/json")]), body: body)
            let response = try await transport.send(request)
            guard (200...299).contains(response.status) else { throw .httpStatus(response.status, url: target.absoluteString) }
            hub.emit(.sent(bucket))
        } catch {
            metrics.restore(bucket)
            hub.emit(.error(UnleashClientFailure(operation: .metrics, error: error)))
        }
    }
}
