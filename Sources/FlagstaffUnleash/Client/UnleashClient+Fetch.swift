import Foundation

extension UnleashClient {
    /// Fetches toggles now, after any fetch already running, and applies the answer.
    ///
    /// The outcome shows in the events and in ``status``; toggles are only replaced by a valid HTTP 200 body.
    public func fetchToggles() async {
        await poller.fetch()
    }

    /// Polling the frontend API: `GET {url}?{context}`; a body is a toggle list, persisted re-encoded.
    static func feed(url: URL, appName: String, environment: String) -> UnleashFeed<Model, [UnleashToggle]> {
        UnleashFeed(
            endpoint: url,
            url: { model in
                let query = UnleashFrontendQuery.string(
                    context: model.context, appName: appName, environment: environment)
                return UnleashFrontendQuery.url(url, query: query)
            },
            decode: { body, source throws(UnleashClientError) in try UnleashTogglesDocument.decode(body, source: source)
            },
            install: { model, toggles in model.install(toggles) },
            snapshot: { toggles, _ throws(UnleashClientError) in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                do {
                    return try encoder.encode(UnleashTogglesDocument(toggles: toggles))
                } catch {
                    throw .persistence("cannot encode toggles: \(error)")
                }
            })
    }

    /// Reads persisted toggles; an unreadable or invalid file is reported, not fatal.
    static func loadSnapshot(_ snapshots: UnleashSnapshotStore?) -> ([UnleashToggle]?, UnleashClientFailure?) {
        guard let snapshots else { return (nil, nil) }
        do throws(UnleashClientError) {
            guard let data = try snapshots.load() else { return (nil, nil) }
            return (try UnleashTogglesDocument.decode(data, source: snapshots.fileURL.path), nil)
        } catch {
            return (nil, UnleashClientFailure(operation: .persist, error: error.asPersistence))
        }
    }
}

extension UnleashClientError {
    /// A bad snapshot file is a persistence problem, whatever the reader called it.
    var asPersistence: UnleashClientError {
        if case .invalidResponse(let message) = self { .persistence(message) } else { self }
    }
}
