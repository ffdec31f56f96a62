import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

/// The push endpoints against the real server on 127.0.0.1: Unleash streaming and delta, OFREP's event stream.
@Suite struct StreamServeTests {
    /// A server with keep-alives every `keepAlive`.
    private static func server(
        _ registry: AnyFeatureRegistry, maxStreams: Int = 1_000, keepAlive: Duration = .seconds(15),
        writeTimeout: Duration = .seconds(15), tokens: [String] = []
    ) async throws -> RunningServer {
        try await RunningServer(
            registry: registry,
            configuration: FlagServerConfiguration(
                tokens: tokens, maxStreams: maxStreams, keepAliveInterval: keepAlive,
                writeTimeout: writeTimeout))
    }

    /// The `events` array of an Unleash delta body.
    private static func events(_ event: ReadEvent?) -> [[String: Any]] {
        (event?.json?["events"] as? [[String: Any]]) ?? []
    }

    @Test("Last-Event-ID: a revision number, nothing, or a 400 that says what was expected")
    func lastEventIDValues() throws {
        #expect(try StreamBodies.lastEventID(nil) == nil)
        #expect(try StreamBodies.lastEventID("") == nil)
        #expect(try StreamBodies.lastEventID(" 12 ") == 12)
        #expect(try StreamBodies.lastEventID("4294967295") == 4_294_967_295)
        for bad in ["abc", "-1", "4294967296", "1.5", "12 13", String(repeating: "9", count: 500)] {
            do {
                _ = try StreamBodies.lastEventID(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.reply.status == 400)
                #expect(error.reply.text.contains("Last-Event-ID") && error.reply.text.contains("expected"))
                #expect(error.reply.text.count < 300)
            }
        }
        #expect(StreamBodies.revision(inIfNoneMatch: "\"17\"") == 17)
        #expect(StreamBodies.revision(inIfNoneMatch: "W/\"17\"") == 17)
        #expect(StreamBodies.revision(inIfNoneMatch: "17") == 17)
        #expect(StreamBodies.revision(inIfNoneMatch: "\"abc\"") == nil)
    }

    @Test("the feed numbers each change once, with delta events for the members that changed only")
    func feedNumbersChanges() throws {
        let registry = try ServedFixtures.registry()
        let feed = ChangeFeed(live: LiveSnapshot(registry: registry), firstID: 100)
        #expect(feed.refresh().id == 100, "nothing changed")
        try registry.setOverrideValues(["blueText": .set(.on), "maxItems": .set(OverrideValue(jsonObject: 42))])
        let second = feed.refresh()
        #expect(second.id == 101)
        #expect(feed.refresh().id == 101)
        let body = try #require(StreamBodies.delta([second]))
        let events = try #require(
            (try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["events"] as? [[String: Any]])
        #expect(events.count == 2)
        #expect(
            Set(events.compactMap { ($0["feature"] as? [String: Any])?["name"] as? String }) == [
                "blueText", "maxItems",
            ])
        #expect(events.allSatisfy { $0["eventId"] as? Int == 101 && $0["type"] as? String == "feature-updated" })
        #expect(feed.revisions(after: 100)?.map(\.id) == [101])
        #expect(feed.revisions(after: 101)?.isEmpty == true)
        #expect(feed.revisions(after: 7) == nil, "an id this feed never gave is unknown")
        #expect(feed.changesBehind(100) == 1 && feed.changesBehind(101) == 0)
        // Once newer, a revision is kept for its events only, not its snapshot (and bodies).
        try registry.setOverrideValues(["blueText": .set(.off)])
        #expect(feed.refresh().id == 102)
        let kept = try #require(feed.revisions(after: 100))
        #expect(kept.map(\.id) == [101, 102] && kept[0].snapshot.flags.isEmpty)
        #expect(StreamBodies.delta(kept) != nil, "its events are kept")
        #expect(kept[1].snapshot.flags.count == 8 && kept[0].etag == second.etag)
    }

    @Test("GET /api/client/streaming: the whole state on connect, each change as delta events with no request")
    func unleashStreaming() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry)
        defer { Task { await running.stop() } }
        let port = running.port
        let server = running.server
        let (connected, updated, closedCount, listing) = try await offCooperativePool {
            let client = try SSETestClient(
                port: port, path: "/api/client/streaming",
                headers: ["unleash-appname": "checkout", "unleash-sdk": "unleash-python-sdk:6.9.1"])
            let connected = client.next().first
            try registry.setOverrideValues(["cardColor": .set(OverrideValue(jsonObject: "#000000"))])
            let updated = client.next().first
            // Listed while connected, with the revision it was sent (noted once the write completed).
            _ = blockingEventually { server.streamClients.first?.changesBehind == 0 }
            return (connected, updated, client.status, server.streamClients.first)
        }
        #expect(closedCount == 200)
        #expect(connected?.event == "unleash-connected")
        let hydration = try #require(Self.events(connected).first)
        #expect(hydration["type"] as? String == "hydration")
        #expect((hydration["features"] as? [[String: Any]])?.count == 8)
        #expect(connected?.id == "\(hydration["eventId"] as? Int ?? -1)")
        #expect(updated?.event == "unleash-updated")
        let change = Self.events(updated)
        #expect(change.count == 1)
        let feature = try #require(change.first?["feature"] as? [String: Any])
        #expect(feature["name"] as? String == "cardColor")
        let payload = ((feature["variants"] as? [[String: Any]])?.first?["payload"] as? [String: Any])?["value"]
        #expect(payload as? String == "#000000")
        let connectedID = try #require(connected?.id.flatMap { UInt32($0) })
        let updatedID = try #require(updated?.id.flatMap { UInt32($0) })
        #expect(updatedID == connectedID + 1)
        // The stream is listed with its client, address and revision.
        let listed = try #require(listing)
        #expect(listed.changesBehind == 0 && listed.client.revision == updatedID)
        #expect(listed.client.name == "checkout" && listed.client.sdk == "unleash-python-sdk:6.9.1")
        #expect(listed.client.address?.hasPrefix("127.0.0.1:") == true && listed.client.kind == .unleash)
    }

    @Test("Last-Event-ID resumes: a known revision gets only what it missed, an unknown one the whole state")
    func unleashResume() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry)
        defer { Task { await running.stop() } }
        let before = running.server.feed.refresh().id
        try registry.setOverrideValues(["blueText": .set(.on)])
        let after = running.server.feed.refresh().id
        #expect(after == before + 1)
        let port = running.port
        let (resumed, current, unknown, malformed) = try await offCooperativePool {
            let resumed = try SSETestClient(
                port: port, path: "/api/client/streaming", headers: ["Last-Event-ID": "\(before)"]
            ).next().first
            let current = try SSETestClient(
                port: port, path: "/api/client/streaming", headers: ["Last-Event-ID": "\(after)"]
            ).next().first
            let unknown = try SSETestClient(
                port: port, path: "/api/client/streaming", headers: ["Last-Event-ID": "12345"]
            ).next().first
            let bad = try LoopbackHTTPRawConnection(port: UInt16(port))
            try bad.send("GET /api/client/streaming HTTP/1.1\r\nHost: t\r\nLast-Event-ID: yesterday\r\n\r\n")
            let malformed = String(decoding: bad.receive(until: "}", timeout: .seconds(5)), as: UTF8.self)
            return (resumed, current, unknown, malformed)
        }
        let missed = Self.events(resumed)
        #expect(resumed?.event == "unleash-connected" && missed.count == 1)
        #expect(missed.first?["type"] as? String == "feature-updated" && resumed?.id == "\(after)")
        #expect(
            current?.event == "unleash-connected" && Self.events(current).isEmpty,
            "nothing missed: \(String(describing: current))")
        #expect(Self.events(unknown).first?["type"] as? String == "hydration")
        #expect(malformed.hasPrefix("HTTP/1.1 400"), "\(malformed)")
        #expect(malformed.contains("{\"error\":\"Last-Event-ID: \\\"yesterday\\\" is not an event id"))
    }

    @Test("GET /api/client/delta: the whole state, 304 for the latest revision, then only the change")
    func deltaAPI() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry)
        defer { Task { await running.stop() } }
        let first = try await HTTPExchange.send(running.url("/api/client/delta"))
        #expect(first.status == 200)
        let etag = try #require(first.header("ETag"))
        let body = try ServedFixtures.json(Array(first.body))
        #expect((body["events"] as? [[String: Any]])?.first?["type"] as? String == "hydration")
        let same = try await HTTPExchange.send(running.url("/api/client/delta"), headers: ["If-None-Match": etag])
        #expect(same.status == 304)
        try registry.setOverrideValues(["theme": .set(OverrideValue(jsonObject: "dark"))])
        let changed = try await HTTPExchange.send(running.url("/api/client/delta"), headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.header("ETag") != etag)
        let events = try #require(try ServedFixtures.json(Array(changed.body))["events"] as? [[String: Any]])
        #expect(events.count == 1 && (events.first?["feature"] as? [String: Any])?["name"] as? String == "theme")
        // The engine of this package applies the hydration then the delta to the values served.
        let unknown = try await HTTPExchange.send(running.url("/api/client/delta"), headers: ["If-None-Match": "\"3\""])
        #expect(try ServedFixtures.json(Array(unknown.body))["events"].map { "\($0)".contains("hydration") } == true)
    }

    @Test("OFREP: the bulk answer names the event stream, which says refetchEvaluation with the new ETag")
    func ofrepEventStream() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry)
        defer { Task { await running.stop() } }
        let bulk = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
        let streams = try #require(try ServedFixtures.json(Array(bulk.body))["eventStreams"] as? [[String: Any]])
        #expect(streams.count == 1 && streams[0]["type"] as? String == "sse")
        #expect(streams[0]["url"] as? String == "http://127.0.0.1:\(running.port)/ofrep/v1/events")
        #expect(streams[0]["inactivityDelaySec"] as? Int == 120)
        let oldTag = try #require(bulk.header("ETag"))
        let port = running.port
        let oldRevision = running.server.feed.latest.id
        let server = running.server
        let (first, refetch, resumed) = try await offCooperativePool {
            let client = try SSETestClient(port: port, path: "/ofrep/v1/events")
            // Nothing to say at first: the provider has just fetched. The change comes once the stream is open.
            let first = client.next(1, timeout: .milliseconds(300)).first
            _ = blockingEventually { server.streams.clients.first?.revision != nil }
            try registry.setOverrideValues(["blueText": .set(.on)])
            let refetch = client.next().first
            let resumed = try SSETestClient(
                port: port, path: "/ofrep/v1/events", headers: ["Last-Event-ID": "\(oldRevision)"]
            ).next().first
            return (first, refetch, resumed)
        }
        #expect(first == nil)
        #expect(refetch?.event == "message" && refetch?.json?["type"] as? String == "refetchEvaluation")
        let newTag = try #require(refetch?.json?["etag"] as? String)
        #expect(newTag != oldTag)
        #expect(
            (refetch?.json?["lastModified"] as? Int).map { abs($0 - Int(Date().timeIntervalSince1970)) < 60 } == true)
        #expect(resumed?.json?["type"] as? String == "refetchEvaluation" && resumed?.id == refetch?.id)
        // The re-fetch an event causes: flagConfigEtag and flagConfigLastModified are accepted; the ETag is the one sent.
        let again = try await HTTPExchange.send(
            running.url(
                "/ofrep/v1/evaluate/flags?flagConfigEtag=\(newTag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&flagConfigLastModified=1771622898"
            ),
            method: "POST", body: Data("{}".utf8))
        // URLSession accepts gzip: the compressed body's tag is the event's with `-gzip`; both answer If-None-Match.
        #expect(again.status == 200 && again.header("ETag") == ServerReply.gzipTag(newTag))
        let notModified = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags?flagConfigEtag=x"), method: "POST",
            headers: ["If-None-Match": newTag], body: Data("{}".utf8))
        #expect(notModified.status == 304)
    }

    @Test("eventStreams: the url from a plain Host, the request URI alone for anything else")
    func eventStreamEntry() throws {
        let snapshot = ServedSnapshot(registry: try ServedFixtures.registry())
        func entry(_ host: String?) throws -> [String: Any] {
            let body = try ServedFixtures.json(
                OFREPBodies.bulk(snapshot, eventStream: OFREPBodies.EventStream(host: host)))
            return try #require((body["eventStreams"] as? [[String: Any]])?.first)
        }
        #expect(try entry("192.168.1.20:4242")["url"] as? String == "http://192.168.1.20:4242/ofrep/v1/events")
        #expect(try entry("[::1]:4242")["url"] as? String == "http://[::1]:4242/ofrep/v1/events")
        for host in [nil, "", "a\"b", "a/b", "évil", String(repeating: "a", count: 300)] {
            let entry = try entry(host)
            #expect(entry["url"] == nil, "\(host ?? "nil")")
            #expect((entry["endpoint"] as? [String: Any])?["requestUri"] as? String == "/ofrep/v1/events")
        }
        #expect(try ServedFixtures.json(OFREPBodies.bulk(snapshot))["eventStreams"] == nil, "none when not offered")
    }

    @Test("--max-streams: one more stream gets 503 with a JSON error, polling still works, a freed slot is reused")
    func streamLimit() async throws {
        let registry = try ServedFixtures.registry()
        // No keep-alive within the test: a freed slot can only come back from the server seeing the close.
        let running = try await Self.server(registry, maxStreams: 2, keepAlive: .seconds(3600))
        defer { Task { await running.stop() } }
        let port = running.port
        let server = running.server
        let (refusals, reopened) = try await offCooperativePool { () -> ([String], Int) in
            let first = try SSETestClient(port: port, path: "/api/client/streaming")
            _ = first.next()
            // The OFREP stream sends nothing at first: wait until the server counts it.
            let second = try SSETestClient(port: port, path: "/ofrep/v1/events")
            _ = blockingEventually { server.streams.count == 2 }
            var refusals: [String] = []
            for _ in 0..<300 {
                let extra = try LoopbackHTTPRawConnection(port: UInt16(port))
                try extra.send("GET /api/client/streaming HTTP/1.1\r\nHost: t\r\n\r\n")
                refusals.append(String(decoding: extra.receive(until: "\"}", timeout: .seconds(5)), as: UTF8.self))
                extra.close()
            }
            first.connection.close()
            // The slot comes back once the server sees the connection close (no write is ever made to notice it).
            var reopened = 0
            _ = try blockingEventually {
                let again = try SSETestClient(port: port, path: "/api/client/streaming")
                _ = again.next(1, timeout: .milliseconds(500))
                reopened = again.status
                return reopened == 200
            }
            withExtendedLifetime(second) {}
            return (refusals, reopened)
        }
        #expect(refusals.allSatisfy { $0.hasPrefix("HTTP/1.1 503") }, "\(refusals.first ?? "")")
        #expect(refusals.allSatisfy { $0.contains("{\"error\":\"this server has 2 event streams open") })
        // Closed after the answer: a refused client holds no descriptor.
        #expect(refusals.allSatisfy { $0.lowercased().contains("connection: close") })
        #expect(running.server.streams.refusedCount >= 300)
        let poll = try await HTTPExchange.send(running.url("/api/frontend"))
        #expect(poll.status == 200, "polling is not limited by the streams")
        #expect(reopened == 200)
    }

    @Test("--max-streams 0: a stream asked for anyway gets 503 saying streams are off, with no Retry-After")
    func streamsTurnedOff() async throws {
        let running = try await Self.server(try ServedFixtures.registry(), maxStreams: 0)
        defer { Task { await running.stop() } }
        for path in ["/api/client/streaming", "/ofrep/v1/events"] {
            let refused = try await HTTPExchange.send(running.url(path))
            #expect(refused.status == 503, "\(path)")
            #expect(refused.text.contains("this server has event streams turned off"), "\(refused.text)")
            #expect(!refused.text.contains("0 event streams open"))
            #expect(refused.header("Retry-After") == nil)
        }
        let bulk = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
        #expect(bulk.status == 200 && !bulk.text.contains("eventStreams"))
    }

    @Test("a stream needs a token like every endpoint: 401 with a JSON error")
    func streamToken() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry, tokens: ["qa-secret"])
        defer { Task { await running.stop() } }
        for path in ["/api/client/streaming", "/ofrep/v1/events", "/api/client/delta"] {
            let refused = try await HTTPExchange.send(running.url(path), headers: ["Authorization": "wrong"])
            #expect(refused.status == 401 && refused.text.contains("\"error\""), "\(path)")
        }
        let port = running.port
        let status = try await offCooperativePool {
            let client = try SSETestClient(
                port: port, path: "/api/client/streaming", headers: ["Authorization": "Bearer qa-secret"])
            _ = client.next()
            return client.status
        }
        #expect(status == 200)
        #expect(running.server.streams.count <= 1)
    }

    @Test("keep-alive comments come every interval; a client that leaves is noticed and logged off at once")
    func keepAliveAndDisconnect() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await Self.server(registry, keepAlive: .milliseconds(300))
        defer { Task { await running.stop() } }
        let port = running.port
        let comments = try await offCooperativePool {
            let client = try SSETestClient(port: port, path: "/ofrep/v1/events")
            // The count is the point, not the time: a starved machine may take longer than 3 × 300 ms.
            return client.next(3, timeout: .seconds(30)).filter(\.comment).count
        }
        #expect(comments == 3)
        // The client above closed its connection when it was freed.
        let gone = try await poll(timeout: .seconds(10)) { running.server.streams.count == 0 ? true : nil }
        #expect(gone == true)
    }

    @Test("a client that connects and never reads is dropped after the write timeout; others are served")
    func stalledClientIsDropped() async throws {
        // 30,000 members: the whole state (about 8 MB) is more than the connection's buffers hold.
        let count = 30_000
        let registry = try AnyFeatureRegistry(
            manifest: RegistryManifest(
                name: "Large", flags: (0..<count).map { RegistryManifest.Flag(key: "flag\($0)", default: $0 % 2 == 0) }),
            options: RegistryOptions(storeWatchInterval: nil))
        let running = try await Self.server(registry, writeTimeout: .seconds(1))
        defer { Task { await running.stop() } }
        let stalled = try LoopbackHTTPRawConnection(port: UInt16(running.port))
        defer { stalled.close() }
        try stalled.send("GET /api/client/streaming HTTP/1.1\r\nHost: t\r\n\r\n")
        let opened = try await poll(timeout: .seconds(90)) { running.server.streams.count == 1 ? true : nil }
        #expect(opened == true)
        // The server does not queue the frame for a client that does not read: it never finishes sending it. Queued,
        // 8 MB would take milliseconds; a pause is the only signal, checked once inside the write timeout (1 s),
        // before the drop (the stream's state around the drop is not what this checks).
        try await Task.sleep(for: .milliseconds(500))
        #expect(running.server.streams.clients.allSatisfy { $0.revision == nil }, "the whole frame was queued")
        let dropped = try await poll(timeout: .seconds(90)) { running.server.streams.count == 0 ? true : nil }
        #expect(dropped == true, "the stream of a client that does not read is still open")
        let poll = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["If-None-Match": "\"x\""])
        #expect(poll.status == 200)
    }

    @Test("a graceful stop ends the open streams at once")
    func stopEndsStreams() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(
            registry: registry, configuration: FlagServerConfiguration(shutdownGracePeriod: .seconds(120)))
        let port = running.port
        let client = try await offCooperativePool { () -> Int in
            let client = try SSETestClient(port: port, path: "/api/client/streaming")
            return client.next().count
        }
        #expect(client == 1)
        let holder = try LoopbackHTTPRawConnection(port: UInt16(port))
        defer { holder.close() }
        try holder.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try await poll(timeout: .seconds(5)) { running.server.streams.count >= 1 ? true : nil }
        let start = ContinuousClock.now
        await running.stop()
        // Waiting for the streams would take the whole grace period (120 s); a loaded machine took 12 s at once.
        #expect(start.duration(to: .now) < .seconds(60), "the stop waited for the open stream")
    }
}
