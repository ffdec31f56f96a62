import Foundation

extension UnleashClient {
    /// Fetches toggles now, after any fetch already running, and applies the answer.
    ///
    /// The outcome shows in the events and in ``status``; toggles are only replaced by a valid HTTP 200 body.
    public func fetchToggles() async {
        await gate.run { await self.performFetch() }
    }

    /// The headers of every request: authorization, app name, connection id, SDK, then the custom ones.
    func requestHeaders(_ own: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let base: [(name: String, value: String)] = [
            ("Authorization", clientKey),
            ("unleash-appname", appName),
            ("unleash-connection-id", options.connectionID),
            ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier),
        ]
        let custom = [customHeaders] + (customHeadersProvider.map { [$0()] } ?? [])
        return UnleashRequestHeaders.merge(own: base + own, custom: custom)
    }

    /// The request for the current context.
    func fetchRequest(context: UnleashContext, eTag: String?) -> UnleashHTTPRequest {
        let query = UnleashFrontendQuery.string(context: context, appName: appName, environment: environment)
        var own: [(name: String, value: String)] = [("Accept", "application/json")]
        if let eTag, !eTag.isEmpty { own.append(("If-None-Match", eTag)) }
        return UnleashHTTPRequest(method: "GET", url: UnleashFrontendQuery.url(url, query: query),
                                  headers: requestHeaders(own), body: nil)
    }

    private func performFetch() async {
        let (context, generation, eTag) = state.withLock { ($0.context, $0.contextGeneration, $0.eTag) }
        let request = fetchRequest(context: context, eTag: eTag)
        do throws(UnleashClientError) {
            let response = try await transport.send(request)
            switch response.status {
            case 200:
                let toggles = try UnleashTogglesDocument.decode(response.body, source: "body from \(url.absoluteString)")
                apply(toggles, eTag: response.header("etag"), generation: generation)
            case 304:
                let first = state.withLock { $0.fetch.recordSuccess(at: options.now()) }
                if first { hub.emit(.ready) }
            default:
                throw .httpStatus(response.status, url: url.absoluteString)
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

    private func apply(_ toggles: [UnleashToggle], eTag: String?, generation: Int) {
        let now = options.now()
        let outcome = state.withLock { state -> (first: Bool, changed: [String])? in
            guard state.contextGeneration == generation else { return nil }
            let changed = state.install(toggles)
            state.eTag = eTag
            return (state.fetch.recordSuccess(at: now), changed)
        }
        guard let outcome else { return }
        if outcome.first || !outcome.changed.isEmpty { persist(toggles) }
        if outcome.first { hub.emit(.ready) }
        if !outcome.changed.isEmpty { hub.emit(.update(changed: outcome.changed)) }
    }

    // MARK: Persistence

    private func persist(_ toggles: [UnleashToggle]) {
        guard let snapshots else { return }
        do throws(UnleashClientError) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data: Data
            do {
                data = try encoder.encode(UnleashTogglesDocument(toggles: toggles))
            } catch {
                throw .persistence("cannot encode toggles: \(error)")
            }
            try snapshots.save(data)
        } catch {
            hub.emit(.error(UnleashClientFailure(operation: .persist, error: error)))
        }
    }

    /// Reads persisted toggles; an unreadable or invalid file is reported, not fatal.
    static func loadSnapshot(_ snapshots: UnleashSnapshotStore?) -> ([UnleashToggle]?, UnleashClientFailure?) {
        guard let snapshots else { return (nil, nil) }
        do throws(UnleashClientError) {
            guard let data = try snapshots.load() else { return (nil, nil) }
            return (try UnleashTogglesDocument.decode(data, source: snapshots.fileURL.path), nil)
        } catch {
            let error: UnleashClientError = if case .invalidResponse(let message) = error { .persistence(message) } else { error }
            return (nil, UnleashClientFailure(operation: .persist, error: error))
        }
    }
}
