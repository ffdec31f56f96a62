import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Testing

/// The auto-refresh loop driven by a `ManualClock`: every wait is the clock's, so nothing here waits on real time.
@Suite("RemoteConfig auto-refresh")
struct RemoteConfigAutoRefreshTests {
    /// The activations of a config, as a stream the test awaits.
    private func activations(of config: RemoteConfig) -> AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
        config.addOnActivateListener { continuation.yield($0) }
        return stream
    }

    @Test("fetches at once, then each interval on the clock; activate: true applies; stop ends the wait")
    func loop() async throws {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(
            answering: ["a": "1"], minimumFetchInterval: 3600, clock: clock)
        var activated = activations(of: config).makeAsyncIterator()
        config.startAutoRefresh(every: 300, activate: true)
        #expect(config.isAutoRefreshing)

        #expect(await activated.next() == ["a"])
        // The fetch is over (its timeout no longer waits), so the one sleeper is the loop's pause.
        try await clock.waitForSleepers()
        #expect(config["a"].stringValue == "1")
        provider.answer(entries: ["a": "2"])
        clock.advance(by: .seconds(299))
        #expect(clock.sleeperCount == 1, "no fetch before the interval is over")
        #expect(provider.requests.count == 1)
        clock.advance(by: .seconds(1))
        #expect(await activated.next() == ["a"])
        #expect(config["a"].stringValue == "2", "each tick ignores the minimum fetch interval")
        #expect(provider.requests.count == 2)

        try await clock.waitForSleepers()
        config.stopAutoRefresh()
        #expect(config.isAutoRefreshing == false)
        #expect(clock.sleeperCount == 0, "the loop no longer waits, so it cannot fetch again")
    }

    @Test("the loop holds the config only while fetching: releasing the config ends the loop")
    func endsWithTheConfig() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: ["a": "1"])
        var config: RemoteConfig? = RemoteConfig(provider: provider, environment: .manual(clock))
        weak let released = config
        var updates = try #require(config).configUpdates.makeAsyncIterator()
        config?.startAutoRefresh(every: 60)
        #expect(await updates.next()?.updatedKeys == ["a"])
        try await clock.waitForSleepers()
        config = nil
        #expect(released == nil)
        #expect(clock.sleeperCount == 0, "deallocation cancelled the loop's pause")
        #expect(await updates.next() == nil, "the update stream ends with the config")
    }
}
