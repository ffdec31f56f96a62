import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@Suite("RemoteConfig fetch, activate, interval, backoff")
struct RemoteConfigFetchTests {
    @Test("reads resolve remote > default > static, and activation makes fetched values visible")
    func resolutionOrder() async throws {
        let provider = ScriptedProvider()
        provider.answer(entries: ["isRoundedAvatar": "true", "title": "Remote"], version: "7", eTag: "e1")
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        try config.setDefaults(["title": "Default", "maxItems": 20])
        #expect(config.lastFetchStatus == .noFetchYet)
        #expect(config.lastFetchTime == nil)
        #expect(config["title"] == RemoteConfigValue(string: "Default", source: .default))
        #expect(config["missing"].source == .static)

        let result = await config.fetch()
        #expect(result.status == .success)
        #expect(result.pendingKeys == ["isRoundedAvatar", "title"])
        #expect(config["title"].stringValue == "Default", "fetched values are invisible until activation")
        #expect(config.fetchedEntries?["title"] == "Remote")

        #expect(config.activate() == true)
        #expect(config["title"] == RemoteConfigValue(string: "Remote", source: .remote))
        #expect(config["isRoundedAvatar"].boolValue)
        #expect(config["maxItems"].numberValue == 20)
        #expect(config.configValue(forKey: "title", source: .default).stringValue == "Default")
        #expect(config.configValue(forKey: "title", source: .static).source == .static)
        #expect(config.configValue(forKey: "maxItems", source: .remote).source == .static)
        #expect(config.allKeys(from: .remote) == ["isRoundedAvatar", "title"])
        #expect(config.allKeys(from: .default) == ["maxItems", "title"])
        #expect(config.allKeys(from: .static).isEmpty)
        #expect(config.keys(withPrefix: "is") == ["isRoundedAvatar"])
        #expect(config.keys(withPrefix: nil) == ["isRoundedAvatar", "title"])
        #expect(config.metadata.activeTemplateVersion == "7")
        #expect(config.activate() == false, "activating the same config again changes nothing")
    }

    @Test("minimum fetch interval serves from cache; expiration 0 always asks")
    func minimumInterval() async {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(
            answering: ["a": "1"], minimumFetchInterval: 3600, clock: clock)
        #expect(await config.fetch().servedFromCache == false)
        #expect(config.lastFetchTime == clock.date)
        clock.advance(by: .seconds(3599))
        let cached = await config.fetch()
        #expect(cached.status == .success && cached.servedFromCache)
        #expect(provider.requests.count == 1)
        #expect(await config.fetch(expirationDuration: 0).servedFromCache == false)
        #expect(provider.requests.count == 2)
        clock.advance(by: .seconds(3600))
        #expect(await config.fetch().servedFromCache == false)
        #expect(provider.requests.count == 3)
    }

    @Test("fetchAndActivate statuses")
    func fetchAndActivateStatuses() async {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(
            answering: ["a": "1"], minimumFetchInterval: 60, clock: clock)
        let first = await config.fetchAndActivate()
        #expect(first.status == .successFetchedFromRemote)
        #expect(first.activated)
        let second = await config.fetchAndActivate()
        #expect(second.status == .successUsingPreFetchedData)
        #expect(second.activated == false)
        clock.advance(by: .seconds(61))
        provider.answer(.failure(.transport("connection refused")))
        let failed = await config.fetchAndActivate()
        #expect(failed.status == .error)
        #expect(failed.fetch.error == .fetchFailed(.transport("connection refused")))
        #expect(config["a"].stringValue == "1", "last-known-good values survive a failure")
        #expect(config.lastFetchStatus == .failure)
    }

    @Test("ETag is sent back; NO_CHANGE keeps fetched values; EMPTY_CONFIG and NO_TEMPLATE clear them")
    func responseStates() async {
        let provider = ScriptedProvider()
        provider.answer(entries: ["a": "1"], version: "3", eTag: "etag-1")
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        await config.fetchAndActivate()
        provider.answer(.response(RemoteConfigFetchResponse(content: .unchanged, eTag: "etag-1")))
        let unchanged = await config.fetchAndActivate()
        #expect(unchanged.activated == false)
        #expect(provider.requests.last?.eTag == "etag-1")
        #expect(provider.requests.last?.lastTemplateVersion == "3")
        #expect(config["a"].stringValue == "1")
        for content in [RemoteConfigFetchResponse.Content.empty, .noTemplate] {
            provider.answer(entries: ["a": "1"], eTag: "etag-2")
            await config.fetchAndActivate()
            provider.answer(.response(RemoteConfigFetchResponse(content: content, eTag: "etag-3")))
            let cleared = await config.fetchAndActivate()
            #expect(cleared.activated, "\(content) removes every remote value")
            #expect(config["a"].source == .static)
            #expect(config.metadata.eTag == "etag-3")
        }
    }

    @Test(
        "429/500/503/504 back off 2 min doubling to 4 h with jitter; a success resets", arguments: [429, 500, 503, 504])
    func exponentialBackoff(status: Int) async {
        let clock = ManualClock()
        let provider = ScriptedProvider(.failure(.httpStatus(status, message: "busy")))
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: .manual(clock))
        var expected: TimeInterval = 120
        for attempt in 1...9 {
            let result = await config.fetch()
            #expect(result.status == .throttled, "attempt \(attempt)")
            #expect(result.throttledUntil == clock.date.addingTimeInterval(expected), "attempt \(attempt)")
            #expect(
                result.error
                    == .throttled(
                        until: clock.date.addingTimeInterval(expected),
                        cause: .httpStatus(status, message: "busy")))
            // Inside the window: no request, status throttled with the same end time.
            let requestsBefore = provider.requests.count
            clock.advance(by: .seconds(expected - 1))
            let inside = await config.fetch()
            #expect(inside.status == .throttled)
            #expect(inside.throttledUntil == clock.date.addingTimeInterval(1))
            #expect(provider.requests.count == requestsBefore)
            clock.advance(by: .seconds(1))
            expected = min(expected * 2, 4 * 3600)
        }
        #expect(expected == 4 * 3600)
        provider.answer(entries: ["a": "1"])
        #expect(await config.fetch().status == .success)
        #expect(config.metadata.backoffInterval == 0)
        #expect(config.throttledUntil == nil)
        provider.answer(.failure(.httpStatus(status, message: nil)))
        #expect(await config.fetch().throttledUntil == clock.date.addingTimeInterval(120))
    }

    @Test("jitter stays within ±50 %", arguments: [0.0, 0.25, 0.999])
    func jitter(random: Double) async {
        let clock = ManualClock()
        let provider = ScriptedProvider(.failure(.httpStatus(503, message: nil)))
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: .manual(clock, random: random))
        let result = await config.fetch()
        let window = (result.throttledUntil ?? clock.date).timeIntervalSince(clock.date)
        #expect(abs(window - 120 * (0.5 + random)) < 0.001)
        #expect(window >= 60 && window < 180)
    }

    @Test("other failures do not throttle")
    func nonBackoffFailures() async {
        let provider = ScriptedProvider()
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        for failure: RemoteConfigProviderError in [
            .httpStatus(400, message: nil), .httpStatus(403, message: "denied"),
            .timedOut(after: 1), .transport("reset"), .invalidResponse("bad"),
            .serverError(code: 400, status: "INVALID_ARGUMENT", message: "x"),
        ] {
            provider.answer(.failure(failure))
            let result = await config.fetch()
            #expect(result.status == .failure)
            #expect(result.error == .fetchFailed(failure))
            #expect(config.throttledUntil == nil)
            #expect(config.lastFetchErrorMessage?.contains(failure.description) == true)
        }
    }

    @Test("times out when the clock reaches the timeout, unless the answer comes first", arguments: [false, true])
    func timeout(answersInTime: Bool) async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.hang(RemoteConfigFetchResponse(content: .entries(["a": "1"]))))
        defer { provider.release() }
        let config = RemoteConfig(
            provider: provider,
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 30),
            environment: .manual(clock))
        let fetch = Task { await config.fetch() }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1, "the timeout has not fired a second early")
        if answersInTime {
            provider.release()
            #expect(await fetch.value.status == .success)
            #expect(config.fetchedEntries == ["a": "1"])
        } else {
            clock.advance(by: .seconds(1))
            #expect(await fetch.value.error == .fetchFailed(.timedOut(after: 30)))
            #expect(config.lastFetchStatus == .failure)
            #expect(config.fetchedEntries == nil, "the late answer is not applied")
        }
        #expect(clock.sleeperCount == 0, "the timeout no longer waits once the fetch has returned")
    }

    @Test("an unwritable storage directory is reported, and values still work in memory")
    func unwritableStorage() async throws {
        let blocker = makeTemporaryDirectory()
        try Data("a file, not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let provider = ScriptedProvider()
        provider.answer(entries: ["a": "1"])
        let config = RemoteConfig(
            provider: provider, storageDirectory: blocker.appendingPathComponent("remote"),
            settings: RemoteConfigSettings(minimumFetchInterval: 0))
        let result = await config.fetchAndActivate()
        #expect(result.status == .successFetchedFromRemote)
        #expect(config["a"].stringValue == "1")
        let problem = try #require(config.persistenceProblems.first)
        #expect(problem.description.contains(blocker.lastPathComponent))
        #expect(problem.description.contains("cannot write"))
    }

    @Test("concurrent fetches share one request")
    func coalescing() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.hang(RemoteConfigFetchResponse(content: .entries(["a": "1"]))))
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: .manual(clock))
        let first = Task { await config.fetch().status }
        try await clock.waitForSleepers()  // the shared request is in flight: its timeout waits on the clock
        let statuses = await withTaskGroup(of: RemoteConfigFetchStatus.self) { group in
            for _ in 0..<7 {
                group.addTask { await config.fetch().status }
            }
            // Answer once every caller has joined the request in flight: an answer before that would let a late
            // caller start a second request and fail the test.
            while config.joinedFetchCount < 7 { await Task.yield() }
            provider.release()
            return await group.reduce(into: [await first.value]) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .success, count: 8))
        #expect(provider.requests.count == 1)
    }
}
