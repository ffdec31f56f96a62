import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the console's apps overlay reads about a client that polls: where its last fetch came from and which
/// values it was answered with, counted against the feed's changes.
@Suite struct ClientFreshnessTests {
    @Test("a fetch records the client's address and the ETag it got; a change puts it one behind")
    func pollerFreshness() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let server = running.server
        let fetched = try await HTTPExchange.send(
            running.url("/api/frontend?appName=web-app"), headers: ["unleash-sdk": "unleash-js:3.7"])
        #expect(fetched.status == 200)
        let metrics = try await HTTPExchange.send(
            running.url("/api/client/metrics"), method: "POST",
            body: Data(#"{"appName":"metrics-only","bucket":{"start":"a","stop":"b","toggles":{}}}"#.utf8))
        #expect(metrics.status == 202)

        let web = try #require(server.clients.clients.first { $0.name == "web-app" })
        #expect(web.addressText?.hasPrefix("127.0.0.1:") == true, "\(web.addressText ?? "no address")")
        let etag = try #require(web.servedETag)
        #expect(etag == server.live.current().etag && fetched.header("ETag")?.hasPrefix(etag.dropLast()) == true)
        #expect(server.feed.changesBehind(etag: etag) == 0)
        let metricsOnly = try #require(server.clients.clients.first { $0.name == "metrics-only" })
        #expect(metricsOnly.servedETag == nil, "a metrics call fetches no values")

        try registry.setOverrideValues(["blueText": .set(.on)])
        server.feed.refresh()
        #expect(server.feed.changesBehind(etag: etag) == 1)
        #expect(server.feed.changesBehind(etag: "\"unknown\"") == nil)
        // A 304 means the client has the newest values.
        let again = try await HTTPExchange.send(
            running.url("/api/frontend?appName=web-app"), headers: ["If-None-Match": server.feed.latest.etag])
        #expect(again.status == 304)
        let refreshed = try #require(server.clients.clients.first { $0.name == "web-app" }?.servedETag)
        #expect(server.feed.changesBehind(etag: refreshed) == 0)
    }
}
