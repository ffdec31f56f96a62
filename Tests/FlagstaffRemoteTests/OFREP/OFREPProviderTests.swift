import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffRemote

/// The OFREP provider against a real HTTP server on 127.0.0.1: bulk evaluation with ETag/304, event streams
/// (refetch, coalescing, Last-Event-ID, reconnect with backoff on a manual clock), polling only without a stream,
/// and the statuses that stop or pause it.
@Suite("OFREP provider")
struct OFREPProviderTests {
    private func options(_ server: FakeOFREPServer, clock: ManualClock, poll: Duration? = nil) -> OFREPOptions {
        OFREPOptions(
            baseURL: server.baseURL, headers: ["Authorization": "Bearer qa-secret"],
            context: ["targetingKey": OverrideValue(string: "qa-phone"), "tier": OverrideValue(string: "gold")],
            // A long request timeout: a first request that timed out on a loaded machine would wait for the manual
            // clock to retry it.
            requestTimeout: .seconds(60), pollInterval: poll, clock: clock, random: { 0.5 })
    }

    @Test("the first evaluation is unconditional with the static context; a refresh revalidates with If-None-Match")
    func bulkEvaluationAndETag() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true", "pageSize": "20"], streaming: false)
            let provider = OFREPProvider(options: options(server, clock: ManualClock()))
            provider.start()
            defer { provider.stop() }
            #expect(
                await eventually { provider.flags.count == 2 },
                "fetches \(provider.fetchCount), requests \(server.server.requestCount), \(provider.lastError ?? "-")")
            let first = try #require(server.bulkRequests.first)
            #expect(first.headers["If-None-Match"] == nil)
            #expect(first.headers["Authorization"] == "Bearer qa-secret")
            #expect(first.bodyText == #"{"context":{"targetingKey":"qa-phone","tier":"gold"}}"#)
            #expect(provider.value(forKey: "newFeed", as: Bool.self) == true)
            #expect(provider.value(forKey: "pageSize", as: Int.self) == 20)
            #expect(provider.value(forKey: "pageSize", as: String.self) == nil)
            #expect(provider.etag == "\"v1\"")

            await provider.refresh()
            #expect(server.bulkRequests.last?.headers["If-None-Match"] == "\"v1\"")
            #expect(provider.flags.count == 2)
            #expect(provider.status.state == .ok)
        })
    }

    @Test("a refetchEvaluation message re-fetches with flagConfigEtag/flagConfigLastModified; no timer poll meanwhile")
    func eventStreamRefetch() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "false"])
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock, poll: .seconds(30)))
            provider.start()
            defer { provider.stop() }
            #expect(await server.events.waitForConnections(1))
            // The stream's opening revalidates (a change may have come before it opened).
            #expect(await eventually { server.bulkRequests.count == 2 })
            let stream = try #require(server.streamRequests.first)
            #expect(stream.headers["Accept"] == "text/event-stream")
            #expect(stream.headers["Authorization"] == "Bearer qa-secret")

            server.publish("newFeed", "true", id: "e1")
            #expect(await eventually { provider.value(forKey: "newFeed", as: Bool.self) == true })
            let refetch = try #require(server.bulkRequests.last)
            #expect(refetch.query["flagConfigEtag"] == "\"v2\"")
            #expect(refetch.query["flagConfigLastModified"] == "1771622898")
            #expect(refetch.headers["If-None-Match"] == "\"v1\"")

            // A stream is offered: the poll interval is not used. Nothing waits on the clock, so no poll can come
            // however far it moves (the loop would have started its timer after the first answer, long before).
            #expect(clock.sleeperCount == 0, "a timer waits on the clock although a stream is offered")
        })
    }

    @Test("messages that arrive while a fetch is under way make one more fetch, not one each")
    func coalescing() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"])
            let provider = OFREPProvider(options: options(server, clock: ManualClock()))
            provider.start()
            defer { provider.stop() }
            #expect(await server.events.waitForConnections(1))
            // The stream's opening revalidates (a change may have come before it opened).
            #expect(await eventually { server.bulkRequests.count == 2 })
            // The fetch the first message makes is held until every later message has arrived: they all come while
            // it is under way, however slowly the machine runs.
            server.holdNextBulk()
            server.publish("n", "2", id: "1")
            #expect(await eventually { server.bulkRequests.count == 3 })
            for index in 3...7 { server.publish("n", "\(index)", id: "\(index)") }
            #expect(await eventually { provider.refetchMessageCount == 6 })
            server.releaseBulk()
            // The held answer has n = 2; only the one more fetch brings 7.
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 7 })
            #expect(server.bulkRequests.count == 4)
            #expect(server.bulkRequests.last?.query["flagConfigEtag"] == "\"v7\"", "the newest message's")
        })
    }

    @Test("answers are applied in the order asked: a slow earlier answer never replaces a later one")
    func answersInOrder() async throws {
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            let provider = OFREPProvider(options: options(server, clock: ManualClock()))
            provider.start()
            defer { provider.stop() }
            #expect(await eventually { provider.flags.count == 1 })
            server.set("n", "2")
            server.holdNextBulk()
            async let slow: Void = provider.refresh()
            // The slow request has its answer (n = 2) made and held; then the value changes again.
            #expect(await eventually { server.bulkRequests.count == 2 })
            server.set("n", "3")
            async let later: Void = provider.refresh()
            // Without the one-at-a-time rule the later request would be answered now, before the held one; with it,
            // it waits. Either way, give it the chance (no assertion: this wait only makes the bad order show).
            _ = await eventually(timeout: .seconds(2)) { server.bulkRequests.count == 3 }
            server.releaseBulk()
            _ = await (slow, later)
            #expect(provider.value(forKey: "n", as: Int.self) == 3)
            #expect(provider.etag == "\"v3\"")
        })
    }

    @Test("a dropped stream reconnects after the backoff on the clock, with Last-Event-ID, then re-fetches")
    func reconnect() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"])
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock))
            provider.start()
            defer { provider.stop() }
            #expect(await server.events.waitForConnections(1))
            server.publish("n", "2", id: "41")
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })

            server.set("n", "3")  // missed while the stream is down
            server.events.closeConnections()
            try await clock.waitForSleepers(timeout: .seconds(90))
            #expect(server.events.openedConnectionCount == 1)
            // Minimum delay 1 s × jitter factor 1: nothing happens before it. The advance wakes a due sleeper at
            // once, so a reconnection still asleep after it cannot have been due.
            #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(1)))
            clock.advance(by: .milliseconds(999))
            #expect(clock.sleeperCount == 1, "the reconnection woke before its delay")
            #expect(server.events.openedConnectionCount == 1)
            clock.advance(by: .milliseconds(1))
            #expect(await server.events.waitForConnections(1))
            #expect(server.streamRequests.last?.headers["Last-Event-ID"] == "41")
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 3 })
        })
    }

    @Test("backoff doubles per failure up to the maximum, with ±50 % jitter, and honours the server's retry")
    func backoff() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1"))
        let provider = OFREPProvider(
            options: OFREPOptions(
                baseURL: url, minimumReconnectDelay: .seconds(1), maximumReconnectDelay: .seconds(10),
                clock: ManualClock(), random: { 0.5 }))
        #expect(provider.reconnectDelay(failures: 1, serverMinimum: nil) == .seconds(1))
        #expect(provider.reconnectDelay(failures: 3, serverMinimum: nil) == .seconds(4))
        #expect(provider.reconnectDelay(failures: 9, serverMinimum: nil) == .seconds(10))
        #expect(provider.reconnectDelay(failures: 99, serverMinimum: nil) == .seconds(10))
        #expect(provider.reconnectDelay(failures: 1, serverMinimum: .seconds(5)) == .seconds(5))
        let jittered = OFREPProvider(
            options: OFREPOptions(baseURL: url, clock: ManualClock(), random: { 0 }))
        #expect(jittered.reconnectDelay(failures: 2, serverMinimum: nil) == .seconds(1))
    }

    @Test("without an event stream, the timer polls (with If-None-Match) only when an interval is set")
    func pollingWithoutStream() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock, poll: .seconds(30)))
            provider.start()
            defer { provider.stop() }
            #expect(await eventually { provider.flags.count == 1 })
            try await clock.waitForSleepers(timeout: .seconds(90))
            server.set("n", "2")
            clock.advance(by: .seconds(30))
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })
            #expect(server.bulkRequests.last?.headers["If-None-Match"] == "\"v1\"")

            // A clock of its own: the first provider's poll waits on the other one.
            let quiet = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            let idleClock = ManualClock()
            let idle = OFREPProvider(options: options(quiet, clock: idleClock))
            idle.start()
            defer { idle.stop() }
            #expect(await eventually { idle.flags.count == 1 })
            // The answer is applied before the loop would start a timer; once the loop is on its next trigger it has
            // gone past that point, and a timer started then has had a whole request to reach its sleep.
            idle.state.withLock { $0.triggers }?.yield(.revalidate)
            #expect(await eventually { quiet.bulkRequests.count == 2 })
            #expect(idleClock.sleeperCount == 0, "nothing waits on the clock: no poll can come")
        })
    }

    @Test("401 stops the provider with a message about the credentials; a 500 is reported and retried")
    func refusedAndFailing() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            server.answer(status: 401)
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock, poll: .seconds(1)))
            provider.start()
            defer { provider.stop() }
            #expect(await eventually { provider.lastError != nil })
            #expect(provider.lastError?.contains("refused the credentials (status 401)") == true)
            // Stopped: the loop has ended, so neither the poll nor a retry can ask again.
            let loop = try #require(provider.state.withLock { $0.run })
            let ended = AnnotatedMutex(false)
            Task {
                await loop.value
                ended.withLock { $0 = true }
            }
            #expect(await eventually { ended.withLock { $0 } }, "the loop goes on after a 401")
            #expect(clock.sleeperCount == 0)
            #expect(server.bulkRequests.count == 1)

            let failing = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            failing.answer(status: 500)
            let retrying = OFREPProvider(options: options(failing, clock: clock))
            retrying.start()
            defer { retrying.stop() }
            #expect(await eventually { retrying.lastError?.contains("answered status 500: scripted status") == true })
            failing.answer(status: nil)
            try await clock.waitForSleepers(timeout: .seconds(90))
            clock.advance(by: .seconds(1))
            #expect(await eventually { retrying.flags.count == 1 })
            #expect(retrying.lastError == nil)
        })
    }
}
