import FlagstaffRemote
import Foundation

extension UnleashServerClient {
    /// The standard strategies the engine implements, reported at registration.
    static let strategies = [
        "default", "userWithId", "gradualRolloutUserId", "gradualRolloutSessionId", "gradualRolloutRandom",
        "remoteAddress", "flexibleRollout", "applicationHostname",
    ]

    /// Fetches the state now (`/api/client/delta` or `/api/client/features`), after any fetch already running, and
    /// applies the answer.
    public func fetchFeatures() async {
        await poller.fetch()
    }

    /// Whether the client still polls the delta API (it starts there when `deltaAPI` is on and leaves it for good
    /// when the server answers 404).
    public var usesDeltaAPI: Bool { deltaAPI.isOn }

    /// Polling the client API: `GET {url}/client/delta` while the server offers it, else `{url}/client/features`.
    /// The engine takes a body as it is read (it keeps its own state); the model keeps each feature's and
    /// segment's JSON, which is what is persisted (a whole state, also after a delta).
    static func feed(
        features: URL, delta: URL, deltaAPI: UnleashDeltaSwitch, engine: UnleashEngine
    ) -> UnleashFeed<Model, UnleashStateDocument> {
        UnleashFeed(
            endpoint: { deltaAPI.isOn ? delta : features },
            url: { _ in deltaAPI.isOn ? delta : features },
            decode: { body, source throws(UnleashClientError) in try take(body, into: engine, source: source) },
            install: { model, document in model.install(document) },
            snapshot: { model, _ in model.document() },
            fallBack: { status in
                // A server without the delta API (older, or with it turned off) answers 404 there.
                status == 404 && deltaAPI.turnOff()
            })
    }

    /// Gives a state body to the engine.
    /// - Returns: The body as the model keeps it.
    static func take(_ data: Data, into engine: UnleashEngine, source: String) throws(UnleashClientError)
        -> UnleashStateDocument
    {
        do throws(UnleashStateError) {
            let document = try UnleashEngine.read(data, keepingJSON: true)
            engine.take(document)
            return UnleashStateDocument(document)
        } catch {
            throw .invalidResponse("\(source): \(error.description)")
        }
    }

    // MARK: Registration and metrics

    /// Registers the application: `POST {url}/client/register`. Failures are reported as error events.
    ///
    /// The body has what Unleash's server SDKs send: `appName`, `instanceId`, `connectionId`, `sdkVersion`,
    /// `strategies`, `started`, `interval` (the metrics interval in milliseconds), `platformName`,
    /// `platformVersion`, `specVersion` and, if set, `environment`.
    public func register() async {
        let target = url.appendingPathComponent("client").appendingPathComponent("register")
        var body: [String: Any] = [
            "appName": appName, "instanceId": instanceID, "connectionId": connectionID,
            "sdkVersion": UnleashRequestHeaders.sdkIdentifier, "strategies": Self.strategies,
            "started": UnleashTimestamp.format(startedAt),
            "interval": UnleashPollerSettings.milliseconds(poller.settings.metricsInterval),
            "platformName": UnleashRequestHeaders.platformName,
            "platformVersion": UnleashRequestHeaders.platformVersion,
            "specVersion": UnleashRequestHeaders.specificationVersion,
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
    /// post and an error event is sent (401/403 stop the periodic posts, 404/429/5xx make them back off). Called
    /// every ``metricsInterval`` while started, and by ``stop()``.
    public func flushMetrics() async {
        await poller.flushMetrics()
    }
}
