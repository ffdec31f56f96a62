import Foundation

extension UnleashClient {
    /// Fetches toggles now, after any fetch already running, and applies the answer.
    ///
    /// The outcome shows in the events and in ``status``; toggles are only replaced by a valid HTTP 200 body.
    public func fetchToggles() async {
        await poller.fetch()
    }

    /// Polling the frontend API: `GET {url}?{context}`; a body is a toggle list, persisted re-encoded with the
    /// session id.
    static func feed(url: URL, appName: String, environment: String) -> UnleashFeed<Model, [UnleashToggle]> {
        UnleashFeed(
            endpoint: { url },
            url: { model in
                let query = UnleashFrontendQuery.string(
                    context: model.context, appName: appName, environment: environment)
                return UnleashFrontendQuery.url(url, query: query)
            },
            decode: { body, source throws(UnleashClientError) in try UnleashTogglesDocument.decode(body, source: source)
            },
            install: { model, toggles in model.install(toggles) },
            snapshot: { model, _ throws(UnleashClientError) in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let toggles = model.order.compactMap { model.toggles[$0] }
                do {
                    return try encoder.encode(
                        UnleashFrontendSnapshot(toggles: toggles, sessionId: model.context.sessionId))
                } catch {
                    throw .persistence("cannot encode toggles: \(error)")
                }
            })
    }

    /// Reads persisted toggles and session id; an unreadable or invalid file is reported, not fatal.
    static func loadSnapshot(_ snapshots: UnleashSnapshotStore?) -> (UnleashFrontendSnapshot?, UnleashClientFailure?) {
        guard let snapshots else { return (nil, nil) }
        do throws(UnleashClientError) {
            guard let data = try snapshots.load() else { return (nil, nil) }
            return (try UnleashTogglesDocument.read(data, source: snapshots.fileURL.path), nil)
        } catch {
            return (nil, UnleashClientFailure(operation: .persist, error: error.asPersistence))
        }
    }

    /// A new session id: a random whole number below 10⁹ in decimal, as Unleash's JS and Swift SDKs make them.
    static func makeSessionID() -> String {
        String(Int.random(in: 0..<1_000_000_000))
    }
}

/// What the frontend client persists: the toggles in the frontend API's shape, and the session id.
struct UnleashFrontendSnapshot: Encodable, Sendable {
    var toggles: [UnleashToggle]
    var sessionId: String?
}

extension UnleashClientError {
    /// A bad snapshot file is a persistence problem, whatever the reader called it.
    var asPersistence: UnleashClientError {
        isInvalidResponse ? .persistence(message) : self
    }
}
