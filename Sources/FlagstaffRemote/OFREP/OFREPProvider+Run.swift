import Flagstaff
import Foundation

/// The provider's loop: one fetch at a time, triggered by the start, the event streams, the poll or a retry.
extension OFREPProvider {
    func run(triggers: AsyncStream<Trigger>, continuation: AsyncStream<Trigger>.Continuation) async {
        var streams: [URL: Task<Void, Never>] = [:]
        var poll: Task<Void, Never>?
        var retry: Task<Void, Never>?
        var failures = 0
        // 429s in a row: each doubles the pause, whatever `Retry-After` says.
        var limited = 0
        // Whether this run has had an answer: a run (after start(), or the return from a long inactivity) whose
        // first fetch fails retries it, whatever values an earlier run left.
        var answered = false
        defer {
            for task in streams.values { task.cancel() }
            poll?.cancel()
            retry?.cancel()
            continuation.finish()
        }
        for await trigger in triggers {
            if Task.isCancelled { return }
            let outcome = await fetch(trigger)
            if Task.isCancelled { return }
            retry?.cancel()
            retry = nil
            switch outcome {
            case .fatal:
                return
            case .retryAfter(let asked):
                limited += 1
                let pause = rateLimitedPause(times: limited, asked: asked)
                do { try await options.clock.sleep(for: pause) } catch { return }
                continuation.yield(.revalidate)
                continue
            case .answered, .unchanged:
                failures = 0
                limited = 0
                answered = true
                await announceIfDue()
                // A 304 stands for the last answer, its event streams included.
                let offered = state.withLock { $0.offeredStreams }
                for (url, task) in streams where !offered.contains(url) {
                    task.cancel()
                    streams[url] = nil
                }
                for url in offered where streams[url] == nil {
                    streams[url] = Task { await self.follow(url, triggers: continuation) }
                }
            case .failed:
                failures += 1
                announcementMayBeForgotten()
                // Until this run's first answer nothing would ask again: retry.
                if !answered {
                    let pause = reconnectDelay(failures: failures, serverMinimum: nil)
                    let clock = options.clock
                    retry = Task {
                        do { try await clock.sleep(for: pause) } catch { return }
                        continuation.yield(.revalidate)
                    }
                }
            }
            if streams.isEmpty, poll == nil, let interval = options.pollInterval, answered {
                let clock = options.clock
                poll = Task {
                    while !Task.isCancelled {
                        do { try await clock.sleep(for: max(interval, .milliseconds(1))) } catch { return }
                        continuation.yield(.revalidate)
                    }
                }
            } else if !streams.isEmpty {
                poll?.cancel()
                poll = nil
            }
        }
    }

    /// The pause before the next attempt after `failures` in a row: the minimum delay doubled per failure up to
    /// the maximum, times a jitter factor of 0.5–1.5, and never less than the server's `retry:`.
    func reconnectDelay(failures: Int, serverMinimum: Duration?) -> Duration {
        RemoteReconnectDelay.after(
            failures: failures, minimum: options.minimumReconnectDelay, maximum: options.maximumReconnectDelay,
            random: options.random(), serverMinimum: serverMinimum)
    }

    /// The pause after the `times`-th `429` in a row whose `Retry-After` asked for `asked`: the reconnection
    /// backoff (doubling from the minimum delay, with jitter) or what the server asked, whichever is longer, and never
    /// less than the minimum delay: a `Retry-After` of 0 (or one that is negative or past) cannot make the provider
    /// ask again at once, over and over.
    func rateLimitedPause(times: Int, asked: Duration) -> Duration {
        max(options.minimumReconnectDelay, reconnectDelay(failures: times, serverMinimum: asked))
    }

    /// One bulk evaluation, applied, after any under way (``fetchGate``).
    func fetch(_ trigger: Trigger) async -> FetchOutcome {
        await fetchGate.run { await self.fetchNow(trigger) }
    }

    private func fetchNow(_ trigger: Trigger) async -> FetchOutcome {
        // Cancelled while waiting for the gate (stopped, or closed for inactivity): ask nothing.
        if Task.isCancelled { return .failed }
        var url = options.bulkURL
        if case .event(let refetch) = trigger, refetch.etag != nil || refetch.lastModified != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            var items: [URLQueryItem] = []
            if let etag = refetch.etag { items.append(URLQueryItem(name: "flagConfigEtag", value: etag)) }
            if let modified = refetch.lastModified {
                items.append(URLQueryItem(name: "flagConfigLastModified", value: modified))
            }
            components.queryItems = items
            // `+` is a space to many servers' query parsers: send it escaped.
            components.percentEncodedQuery = components.percentEncodedQuery?
                .replacingOccurrences(of: "+", with: "%2B")
            url = components.url ?? url
        }
        var headers = options.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        headers.append((name: "Content-Type", value: "application/json"))
        headers.append((name: "Accept", value: "application/json"))
        let (etag, known) = state.withLock { state -> (String?, Int) in
            state.fetches += 1
            return (state.etag, state.flags.count)
        }
        if trigger != .start, let etag { headers.append((name: "If-None-Match", value: etag)) }
        let request = RemoteHTTPRequest(method: "POST", url: url, headers: headers, body: options.requestBody)
        let server = "OFREP server \(options.origin)"
        switch await transport.send(request, timeout: options.requestTimeout) {
        case .failure(.cancelled):
            return .failed
        case .failure(let error):
            record(error: "\(server): \(error)")
            return .failed
        case .success(let response):
            switch response.status {
            case 200:
                do {
                    let answer = try OFREPBulkAnswer.read(
                        response.body, baseURL: options.baseURL, expectedFlags: known)
                    apply(answer, etag: response.header("etag"))
                    return .answered
                } catch {
                    record(error: "\(server): unusable bulk evaluation: \(error)")
                    return .failed
                }
            case 304:
                state.withLock {
                    $0.lastFetch = Date()
                    $0.lastError = nil
                }
                return .unchanged
            case 401, 403:
                record(
                    error:
                        "\(server) refused the credentials (status \(response.status)); check the token, then stop and start the provider"
                )
                return .fatal
            case 429:
                let pause = Self.retryAfter(response.header("retry-after")) ?? .zero
                record(error: "\(server) asked to wait (status 429)\(pause > .zero ? " for \(pause)" : "")")
                return .retryAfter(pause)
            default:
                record(error: "\(server) answered status \(response.status)\(Self.details(response.body))")
                return .failed
            }
        }
    }

    private func record(error: String) {
        state.withLock { $0.lastError = error }
    }

    /// Replaces the values and tells the listeners which keys changed.
    private func apply(_ answer: OFREPBulkAnswer, etag: String?) {
        let (changed, listeners) = state.withLock { state -> (Set<String>, [@Sendable (Set<String>) -> Void]) in
            var changed = Set<String>()
            for (key, flag) in answer.flags where state.flags[key] != flag { changed.insert(key) }
            for key in state.flags.keys where answer.flags[key] == nil { changed.insert(key) }
            state.flags = answer.flags
            state.etag = etag
            // One stream of a type is all ADR-0008 needs (each tells of every change); following more would hold
            // more of the session's connections to the host (six in all with FoundationNetworking, shared with the
            // fetches) and could leave the fetches none. Only `sse` is followed, so the first stream is the one.
            state.offeredStreams = Array(answer.eventStreams.prefix(1))
            state.serverInactivityDelay = answer.inactivityDelay
            state.lastFetch = Date()
            state.lastError = nil
            let first = !state.answered
            state.answered = true
            return (first ? changed.union(answer.flags.keys) : changed, Array(state.listeners.values))
        }
        guard !changed.isEmpty else { return }
        for listener in listeners { listener(changed) }
    }

    /// `Retry-After` as seconds or an HTTP date, clamped to 0…1 hour; `nil` when absent or unreadable.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        var seconds: Double?
        if let number = Int(value) {
            seconds = Double(number)
        } else {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            seconds = formatter.date(from: value).map { $0.timeIntervalSinceNow }
        }
        guard let seconds else { return nil }
        return .milliseconds(Int64(min(max(seconds, 0), 3600) * 1000))
    }

    /// `: <errorDetails>` of an error body, when it has one.
    static func details(_ body: Data) -> String {
        guard case .string(let details) = (try? JSONValue.read(body))?["errorDetails"] else { return "" }
        return ": " + String(details.prefix(200))
    }
}
