import Flagstaff
import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Testing

@Suite("Fetch timing as in the Firebase SDK: interval before throttling, device-context changes, timeout default")
struct RemoteConfigTimingTests {
    @Test("inside the minimum fetch interval a fetch answers from the cache even while throttled")
    func intervalBeforeThrottle() async throws {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(
            answering: ["a": "1"], minimumFetchInterval: 3600, clock: clock)
        #expect(await config.fetch().status == .success)
        // A forced fetch fails with 503 and starts a 120 s backoff.
        provider.answer(.failure(.httpStatus(503, message: nil)))
        #expect(await config.fetch(expirationDuration: 0).status == .throttled)
        #expect(config.throttledUntil != nil)

        let cached = await config.fetch()
        #expect(cached.status == .success, "the last success is 0 s old, inside the 3600 s interval")
        #expect(cached.servedFromCache)
        #expect(provider.requests.count == 2)

        let forced = await config.fetch(expirationDuration: 0)
        #expect(forced.status == .throttled, "outside the interval, backoff still applies")
        #expect(provider.requests.count == 2)
    }

    @Test("a device-context change skips the minimum fetch interval and backoff; the context is persisted")
    func deviceContextChange() async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: ["a": "1"])
        provider.deviceContext = ["app_version": "1.0", "device_locale": "en"]
        let settings = RemoteConfigSettings(minimumFetchInterval: 3600)
        let config = RemoteConfig(
            provider: provider, storageDirectory: directory, settings: settings, environment: .manual(clock))
        #expect(await config.fetch().servedFromCache == false)
        #expect(config.metadata.deviceContext == ["app_version": "1.0", "device_locale": "en"])
        #expect(await config.fetch().servedFromCache, "same context, inside the interval")
        #expect(provider.requests.count == 1)

        provider.deviceContext["app_version"] = "1.1"
        let updated = await config.fetch()
        #expect(updated.servedFromCache == false, "a new app version fetches at once")
        #expect(provider.requests.count == 2)

        provider.answer(.failure(.httpStatus(429, message: nil)))
        #expect(await config.fetch(expirationDuration: 0).status == .throttled)
        provider.answer(entries: ["a": "2"])
        provider.deviceContext["device_locale"] = "fr"
        #expect(await config.fetch().status == .success, "a language change skips the backoff too")
        #expect(provider.requests.count == 4)

        // The recorded context survives a restart: the same context stays inside the interval.
        let reopened = RemoteConfig(
            provider: provider, storageDirectory: directory, settings: settings, environment: .manual(clock))
        #expect(reopened.metadata.deviceContext == ["app_version": "1.1", "device_locale": "fr"])
        #expect(await reopened.fetch().servedFromCache)
        #expect(provider.requests.count == 4)
    }

    @Test("a provider without a device context never skips the interval")
    func emptyContext() async {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(answering: ["a": "1"], minimumFetchInterval: 60, clock: clock)
        await config.fetch()
        #expect(await config.fetch().servedFromCache)
        #expect(provider.requests.count == 1)
    }

    @Test("fetchTimeout of zero or less (or NaN) means the 60 s default", arguments: [0, -5, Double.nan])
    func timeoutDefault(seconds: Double) {
        #expect(RemoteConfigSettings(fetchTimeout: seconds).fetchTimeout == 60)
        var settings = RemoteConfigSettings(fetchTimeout: 5)
        #expect(settings.fetchTimeout == 5)
        settings.fetchTimeout = seconds
        #expect(settings.fetchTimeout == 60)
    }

    @Test("a zero timeout waits the default 60 s on the clock, not zero")
    func zeroTimeoutWaitsSixtySeconds() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.hang(RemoteConfigFetchResponse(content: .empty)))
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 0),
            environment: .manual(clock))
        let fetch = Task { await config.fetch() }
        try await clock.waitForSleepers()
        #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(60)))
        clock.advance(by: .seconds(60))
        let result = await fetch.value
        #expect(result.error == .fetchFailed(.timedOut(after: 60)))
        provider.release()
    }
}
