import Flagstaff
import FlagstaffRemote
import Foundation

/// Fetching: requests with the client's headers and deadline, and applying, persisting and announcing answers.
extension UnleashPoller {
    /// Fetches now, after any fetch already running, and applies the answer.
    func fetch() async {
        await executor.run { await gate.run { await self.performFetch() } }
    }

    /// Fetches now; after 401/403 stopped polling, a successful fetch starts it again (as any successful fetch
    /// does).
    func refresh() async {
        await fetch()
    }

    /// The client's header fields, then `own`, then the accepted custom ones.
    func headers(_ own: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let custom = [settings.customHeaders] + (settings.customHeadersProvider.map { [$0()] } ?? [])
        return UnleashRequestHeaders.merge(own: settings.headers + own, custom: custom)
    }

    /// Sends a request on the client's executor, within ``UnleashClientOptions/timeout`` measured on the client's
    /// clock.
    ///
    /// The exchange races a sleep of `timeout` on ``UnleashClientOptions/clock``: whichever ends first decides, and
    /// the other is cancelled. The transport also enforces `timeout` in real time (its exact timers on a private
    /// queue), so with the default clock a request ends on time even while the cooperative pool is busy, and with a
    /// test clock that nobody advances it still cannot hang for good.
    func send(_ request: RemoteHTTPRequest) async throws(UnleashClientError) -> RemoteHTTPResponse {
        let timeout = options.timeout
        let clock = options.clock
        let transport = self.transport
        let outcome = await executor.run {
            await withTaskGroup(of: Result<RemoteHTTPResponse, RemoteHTTPError>?.self) { group in
                group.addTask { await transport.send(request, timeout: timeout) }
                group.addTask {
                    // Cancelled (`nil`) when the exchange ended first or the caller was cancelled.
                    do { try await clock.sleep(for: timeout) } catch { return nil }
                    return .failure(.timedOut(after: timeout, url: request.url))
                }
                var first: Result<RemoteHTTPResponse, RemoteHTTPError>?
                while first == nil, let next = await group.next() { first = next }
                group.cancelAll()
                return first ?? .failure(.cancelled)
            }
        }
        return try outcome.mapError(UnleashClientError.init).get()
    }

    func performFetch() async {
        await performFetch(fallingBack: false)
    }

    private func performFetch(fallingBack: Bool) async {
        let (generation, eTag) = state.withLock { ($0.generation, $0.eTag) }
        // Read after the generation: if the model changes in between, the generation has moved on too and the
        // answer to this request is dropped.
        let model = read { $0 }
        var own: [(name: String, value: String)] = [("Accept", "application/json")]
        if let eTag, !eTag.isEmpty { own.append(("If-None-Match", eTag)) }
        let request = RemoteHTTPRequest(
            method: "GET", url: feed.url(model), headers: headers(own + settings.fetchHeaders))
        let endpoint = feed.endpoint().absoluteString
        do throws(UnleashClientError) {
            let response = try await send(request)
            switch response.status {
            case 200:
                let answer = try feed.decode(response.body, "body from \(endpoint)")
                apply(answer, body: response.body, eTag: response.header("etag"), generation: generation)
            case 304:
                let now = options.now()
                succeeded(state.withLock { $0.fetch.recordSuccess(at: now) })
            case let status where !fallingBack && feed.fallBack(status):
                // The feed moved to another endpoint (the delta API is not offered): its ETag means nothing there.
                state.withLock { $0.eTag = nil }
                await performFetch(fallingBack: true)
            default:
                throw .httpStatus(response.status, url: endpoint)
            }
        } catch {
            // A fetch abandoned by stop() is not a failure of the server.
            if Task.isCancelled { return }
            recordFetchFailure(error)
        }
    }

    /// Records a failure to get the state (a fetch, or the stream) and reports it as an error event.
    func recordFetchFailure(_ error: UnleashClientError) {
        let now = options.now()
        let limit = options.maximumBackoffMultiplier
        state.withLock { $0.fetch.recordFailure(error, at: now, maximumMultiplier: limit) }
        hub.emit(.error(UnleashClientFailure(operation: .fetch, error: error)))
    }

    /// Applies a body that came without a request (an event of the server client's stream), as a fetched one.
    /// - Parameters:
    ///   - body: The body, as a `200` answer would carry it.
    ///   - source: Names the event in errors.
    /// - Throws: ``UnleashClientError/invalidResponse(_:)`` for a body the feed rejects; nothing is applied then.
    func take(pushed body: Data, source: String) throws(UnleashClientError) {
        let generation = state.withLock { $0.generation }
        let answer = try feed.decode(body, source)
        apply(answer, body: body, eTag: nil, generation: generation)
    }

    /// Sends `ready` (and, server side, `synchronized`) after the first success, and starts polling again when a
    /// success follows a stop by 401/403.
    private func succeeded(_ outcome: (first: Bool, resumes: Bool)) {
        if outcome.first {
            let sendReady = state.withLock { state in
                defer { state.readySent = true }
                return !state.readySent
            }
            if sendReady { hub.emit(.ready) }
            if settings.serverSide { hub.emit(.synchronized) }
        }
        if outcome.resumes && isRunning { startPolling() }
    }

    private func apply(_ answer: Answer, body: Data, eTag: String?, generation: Int) {
        let now = options.now()
        let install = feed.install
        let outcome = state.withLock { state -> (success: (first: Bool, resumes: Bool), changed: [String])? in
            guard state.generation == generation else { return nil }
            let changed = changeModel { install(&$0, answer) }
            state.eTag = eTag
            return (state.fetch.recordSuccess(at: now), changed)
        }
        guard let outcome else { return }
        if outcome.success.first || !outcome.changed.isEmpty { persist(body: body) }
        succeeded(outcome.success)
        if !outcome.changed.isEmpty { hub.emit(.update(changed: outcome.changed)) }
    }

    /// Writes the snapshot of the current model, if the client persists.
    func persist(body: Data) {
        guard let snapshots else { return }
        do throws(UnleashClientError) {
            try snapshots.save(feed.snapshot(read { $0 }, body))
        } catch {
            hub.emit(.error(UnleashClientFailure(operation: .persist, error: error)))
        }
    }
}
