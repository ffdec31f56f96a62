import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Testing

@Suite("Update listeners and auto-refresh against the loopback Firebase server")
struct FirebaseListenerTests {
    /// Collects updates delivered to a callback.
    final class Collector: Sendable {
        private let updates = AnnotatedMutex<[RemoteConfigUpdate]>([])
        func add(_ update: RemoteConfigUpdate) { updates.withLock { $0.append(update) } }
        var all: [RemoteConfigUpdate] { updates.withLock { $0 } }
    }

    @Test("callback and AsyncStream receive updatedKeys (added, removed, changed vs active)")
    func listeners() async throws {
        let server = try FakeFirebaseServer()
        let config = FirebaseTestSupport.config(server.baseURL)
        let collector = Collector()
        let registration = config.addOnConfigUpdateListener { collector.add($0) }
        var iterator = config.configUpdates.makeAsyncIterator()

        await config.fetch()
        #expect(collector.all == [RemoteConfigUpdate(updatedKeys: ["isRoundedAvatar", "welcomeText", "maxPhotos"])])
        #expect(await iterator.next()?.updatedKeys == ["isRoundedAvatar", "welcomeText", "maxPhotos"])
        config.activate()

        await config.fetch()
        #expect(collector.all.count == 1, "an unchanged fetch does not notify")

        server.publish([
            "maxPhotos": FakeFirebaseServer.Parameter(defaultValue: "12"),
            "welcomeText": Optional<FakeFirebaseServer.Parameter>.none,
            "newFeature": FakeFirebaseServer.Parameter(defaultValue: "on"),
        ])
        let result = await config.fetch()
        #expect(result.pendingKeys == ["maxPhotos", "welcomeText", "newFeature"])
        #expect(collector.all.last?.updatedKeys == ["maxPhotos", "welcomeText", "newFeature"])
        #expect(await iterator.next()?.updatedKeys == ["maxPhotos", "welcomeText", "newFeature"])

        registration.remove()
        registration.remove()
        server.publish(["maxPhotos": FakeFirebaseServer.Parameter(defaultValue: "13")])
        await config.fetch()
        #expect(collector.all.count == 2, "a removed listener is not called")
    }

    @Test("activation listeners get the keys whose active values changed")
    func activationListener() async throws {
        let server = try FakeFirebaseServer()
        let config = FirebaseTestSupport.config(server.baseURL)
        let changed = AnnotatedMutex<[Set<String>]>([])
        let registration = config.addOnActivateListener { keys in changed.withLock { $0.append(keys) } }
        defer { registration.remove() }
        await config.fetchAndActivate()
        server.publish(["isRoundedAvatar": FakeFirebaseServer.Parameter(defaultValue: "false")])
        await config.fetchAndActivate()
        await config.fetchAndActivate()
        #expect(changed.withLock { $0 } == [["isRoundedAvatar", "welcomeText", "maxPhotos"], ["isRoundedAvatar"]])
    }

    @Test("auto-refresh fetches on its own and feeds the listeners; activate: true applies changes")
    func autoRefresh() async throws {
        let server = try FakeFirebaseServer()
        let clock = ManualClock()
        let config = FirebaseTestSupport.config(server.baseURL, clock: clock)
        var updates = config.configUpdates.makeAsyncIterator()
        config.startAutoRefresh(every: 300, activate: true)
        #expect(config.isAutoRefreshing)
        defer { config.stopAutoRefresh() }

        #expect(await updates.next()?.updatedKeys.contains("isRoundedAvatar") == true)
        try await clock.waitForSleepers()  // fetched, activated, and waiting for the next tick
        #expect(config["isRoundedAvatar"].boolValue)
        server.publish(["isRoundedAvatar": FakeFirebaseServer.Parameter(defaultValue: "false")])
        clock.advance(by: .seconds(300))
        #expect(await updates.next()?.updatedKeys == ["isRoundedAvatar"])
        try await clock.waitForSleepers()
        #expect(config["isRoundedAvatar"].boolValue == false)
        #expect(server.requests.count == 2)

        config.stopAutoRefresh()
        #expect(config.isAutoRefreshing == false)
        #expect(clock.sleeperCount == 0, "the loop no longer waits, so it cannot fetch again")
    }
}
