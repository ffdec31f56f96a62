import Flagstaff
import FlagstaffServer
import FlagstaffServerBodies
import FlagstaffTestSupport
import FlagstaffUnleash
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real server on 127.0.0.1, over real HTTP.
@Suite struct ServerHTTPTests {
    /// A directory with a store file for one test.
    private static func storeFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("overrides.json")
    }

    @Test("a registry above the cache limit gets its bodies rendered while sent, whole and with ETags")
    func largeRegistriesStreamTheirBodies() async throws {
        let count = ServedSnapshot.defaultCachedBodyLimit + 500
        let registry = try AnyFeatureRegistry(
            manifest: RegistryManifest(
                name: "Large", flags: (0..<count).map { RegistryManifest.Flag(key: "f\($0)", default: $0 % 3 == 0) }),
            options: RegistryOptions(storeWatchInterval: nil))
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let snapshot = ServedSnapshot(registry: registry)
        let features = try await HTTPExchange.send(running.url("/api/client/features"))
        #expect(features.status == 200 && features.header("ETag") == snapshot.etag)
        #expect(Array(features.body) == UnleashBodies.clientFeatures(snapshot))
        let frontend = try await HTTPExchange.send(running.url("/api/frontend"))
        #expect(Array(frontend.body) == UnleashBodies.frontend(snapshot))
        let bulk = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
        #expect(
            Array(bulk.body)
                == OFREPBodies.bulk(snapshot, eventStream: OFREPBodies.EventStream(host: "127.0.0.1:\(running.port)")))
        let again = try await HTTPExchange.send(
            running.url("/api/client/features"), headers: ["If-None-Match": snapshot.etag])
        #expect(again.status == 304)
    }

    @Test("GET /api/frontend: 200 with an ETag, 304 for If-None-Match, the new body after a change")
    func frontendETag() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let first = try await HTTPExchange.send(
            running.url("/api/frontend?appName=web-shop&userId=1"), headers: ["User-Agent": "Mozilla/5.0"])
        #expect(first.status == 200)
        // The JavaScript SDK names its app in the query: the client is listed by it, not by the browser.
        #expect(running.server.clients.clients.contains { $0.name == "web-shop" && $0.sdk == "Mozilla/5.0" })
        let etag = try #require(first.header("ETag"))
        #expect(first.header("Content-Type")?.hasPrefix("application/json") == true)
        let again = try await HTTPExchange.send(running.url("/api/proxy"), headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        try registry.setOverrideValues(["blueText": .set(.on)])
        let changed = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.header("ETag") != etag && changed.text.contains("\"blueText\""))
        let features = try await HTTPExchange.send(running.url("/api/client/features"))
        #expect(features.status == 200 && features.text.hasPrefix("{\"version\":2,"))
        let notModified = try await HTTPExchange.send(
            running.url("/api/client/features"), headers: ["If-None-Match": try #require(features.header("ETag"))])
        #expect(notModified.status == 304)
    }

    @Test(
        "POST /api/frontend (the JavaScript SDK's usePOSTrequests): the GET answer, the body's appName, 400 for a bad body"
    )
    func frontendPost() async throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues(["blueText": .set(.on)])
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let get = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["User-Agent": "curl/8"])
        let context = Data(#"{"context":{"appName":"web-shop","userId":"7","properties":{"plan":"pro"}}}"#.utf8)
        let json = ["Content-Type": "application/json", "User-Agent": "browser/1"]
        let post = try await HTTPExchange.send(
            running.url("/api/frontend"), method: "POST", headers: json, body: context)
        #expect(post.status == 200 && post.body == get.body && post.header("ETag") == get.header("ETag"))
        #expect(post.text.contains("\"blueText\""))
        let etag = try #require(post.header("ETag"))
        var headers = json
        headers["If-None-Match"] = etag
        let unchanged = try await HTTPExchange.send(
            running.url("/api/proxy"), method: "POST", headers: headers, body: context)
        #expect(unchanged.status == 304)
        let empty = try await HTTPExchange.send(running.url("/api/frontend"), method: "POST", body: Data())
        #expect(empty.status == 200 && empty.body == get.body)
        #expect(running.server.clients.clients.contains { $0.name == "web-shop" && $0.requests == 2 })
        for (bad, message) in [
            ("{\"context\":", "not valid JSON"), ("[1]", "must be a JSON object"),
            (#"{"context":"x"}"#, "\\\"context\\\" must be a JSON object"),
        ] {
            let refused = try await HTTPExchange.send(
                running.url("/api/frontend"), method: "POST", headers: json, body: Data(bad.utf8))
            #expect(refused.status == 400 && refused.text.contains(message), "\(bad): \(refused.text)")
        }
    }

    @Test("errors: unknown path 404, malformed JSON 400, body over the limit 413, each with a message")
    func errors() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(bodyLimit: 64))
        defer { Task { await running.stop() } }
        let missing = try await HTTPExchange.send(running.url("/api/nothing"))
        #expect(missing.status == 404 && missing.text.contains("no endpoint at GET /api/nothing"))
        let malformed = try await HTTPExchange.send(
            running.url("/api/client/metrics"), method: "POST", body: Data("{\"appName\":".utf8))
        #expect(malformed.status == 400 && malformed.text.contains("not valid JSON"))
        let large = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST",
            body: Data(("{\"context\":{\"x\":\"" + String(repeating: "a", count: 200) + "\"}}").utf8))
        #expect(large.status == 413 && large.text.contains("larger than"))
        let notFound = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags/nothing"), method: "POST", body: Data("{}".utf8))
        #expect(notFound.status == 404 && notFound.text.contains("FLAG_NOT_FOUND"))
        let single = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags/maxItems"), method: "POST",
            body: Data(#"{"context":{"targetingKey":"u"}}"#.utf8))
        #expect(single.status == 200 && single.text.contains(#""value":20"#))
    }

    @Test("with tokens: 401 without or with a wrong Authorization header, 200 with a token or Bearer token")
    func tokens() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(),
            configuration: FlagServerConfiguration(tokens: ["s3cret", "other"]))
        defer { Task { await running.stop() } }
        let none = try await HTTPExchange.send(running.url("/api/frontend"))
        #expect(none.status == 401 && none.text.contains("Authorization"))
        #expect(
            try await HTTPExchange.send(running.url("/api/frontend"), headers: ["Authorization": "nope"]).status == 401)
        #expect(
            try await HTTPExchange.send(running.url("/api/frontend"), headers: ["Authorization": "s3cret"]).status
                == 200)
        let bearer = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", headers: ["Authorization": "Bearer other"])
        #expect(bearer.status == 200)
    }

    @Test("the Bearer scheme in any case and with more than one space is accepted (RFC 7235); other schemes are not")
    func bearerSchemeCase() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(tokens: ["s3cret"]))
        defer { Task { await running.stop() } }
        for header in ["bearer s3cret", "BEARER s3cret", "bEaReR  s3cret"] {
            let routed = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["Authorization": header])
            #expect(routed.status == 200, "\(header)")
            // The conditional-GET fast path checks the token the same way.
            let early = try await HTTPExchange.send(
                running.url("/api/frontend"),
                headers: ["Authorization": header, "If-None-Match": routed.header("ETag") ?? ""])
            #expect(early.status == 304, "\(header)")
        }
        #expect(running.server.earlyNotModified.value == 3)
        for header in ["Basic s3cret", "bearers3cret", "Bearer", "bearer ", "Bearer s3cret2", "Token s3cret"] {
            let refused = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["Authorization": header])
            #expect(refused.status == 401, "\(header)")
        }
    }

    @Test("a request without Host gets 400 (RFC 9112), also a poll the early path would answer 304")
    func hostRequired() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let port = running.port
        let replies = try await offCooperativePool { () -> [String] in
            try [
                "GET /api/frontend HTTP/1.1\r\n\r\n",
                "GET /api/frontend HTTP/1.1\r\nIf-None-Match: \(etag)\r\n\r\n",
                "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
                "GET /api/frontend HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(etag)\r\n\r\n",
            ].map { request in
                let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
                defer { connection.close() }
                try connection.send(request)
                let reply = String(
                    decoding: connection.receive(until: "\r\n\r\n", timeout: .seconds(10)), as: UTF8.self)
                let body =
                    reply.hasPrefix("HTTP/1.1 400")
                    ? String(decoding: connection.receive(until: "}", timeout: .seconds(10)), as: UTF8.self) : ""
                return String(reply.prefix(12)) + (reply + body).contains("needs a Host header").description
            }
        }
        #expect(replies == ["HTTP/1.1 400true", "HTTP/1.1 400true", "HTTP/1.1 400true", "HTTP/1.1 304false"])
    }

    @Test("CORS: a preflight is answered without a token, and responses allow the origin and expose the ETag")
    func cors() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(tokens: ["t"]))
        defer { Task { await running.stop() } }
        let preflight = try await HTTPExchange.send(
            running.url("/api/frontend"), method: "OPTIONS",
            headers: [
                "Origin": "http://app.test", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization,unleash-appname",
            ])
        #expect(preflight.status / 100 == 2)
        #expect(preflight.header("Access-Control-Allow-Origin") == "*")
        #expect(preflight.header("Access-Control-Allow-Headers")?.lowercased().contains("unleash-appname") == true)
        let get = try await HTTPExchange.send(
            running.url("/api/frontend"), headers: ["Origin": "http://app.test", "Authorization": "t"])
        #expect(get.status == 200 && get.header("Access-Control-Allow-Origin") == "*")
        #expect(get.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
    }

    @Test("register and metrics calls are counted per client, with the flags' evaluation counts")
    func clientsCounted() async throws {
        let running = try await RunningServer(registry: try ServedFixtures.registry())
        defer { Task { await running.stop() } }
        let register = try await HTTPExchange.send(
            running.url("/api/client/register"), method: "POST",
            body: Data(
                #"{"appName":"checkout","instanceId":"1","sdkVersion":"unleash-python:6.9.1","strategies":[]}"#.utf8))
        #expect(register.status == 202)
        let metrics = try await HTTPExchange.send(
            running.url("/api/frontend/client/metrics"), method: "POST",
            headers: ["User-Agent": "ios-app/1.0"],
            body: Data(
                #"{"appName":"ios","bucket":{"start":"a","stop":"b","toggles":{"blueText":{"yes":2,"no":5}}}}"#.utf8))
        #expect(metrics.status == 202)
        _ = try await HTTPExchange.send(running.url("/api/frontend"), headers: ["User-Agent": "browser/2"])
        let clients = running.server.clients.clients
        #expect(Set(clients.map(\.name)) == ["checkout", "ios", "browser/2"])
        #expect(clients.first { $0.name == "checkout" }?.sdk == "unleash-python:6.9.1")
        #expect(running.server.clients.evaluations(forKey: "blueText") == EvaluationCount(yes: 2, no: 5))
        // Flags the server does not serve are not counted (their names come from the client).
        let unknown = try await HTTPExchange.send(
            running.url("/api/client/metrics"), method: "POST",
            body: Data(#"{"appName":"ios","bucket":{"toggles":{"noSuchFlag":{"yes":1},"blueText":{"no":1}}}}"#.utf8))
        #expect(unknown.status == 202)
        #expect(running.server.clients.allEvaluations.keys.sorted() == ["blueText"])
        #expect(running.server.clients.evaluations(forKey: "blueText") == EvaluationCount(yes: 2, no: 6))
    }

    @Test("metrics whose counts add up beyond Int.max are kept at Int.max; the server goes on answering")
    func hugeMetricsDoNotStopTheServer() async throws {
        let running = try await RunningServer(registry: try ServedFixtures.registry())
        defer { Task { await running.stop() } }
        let body = Data(
            #"{"appName":"x","bucket":{"start":"a","stop":"b","toggles":{"blueText":{"yes":4611686018427387904}}}}"#
                .utf8)
        for _ in 0..<3 {
            let posted = try await HTTPExchange.send(
                running.url("/api/client/metrics"), method: "POST", body: body)
            #expect(posted.status == 202)
        }
        #expect(running.server.clients.evaluations(forKey: "blueText") == EvaluationCount(yes: .max, no: 0))
        let after = try await HTTPExchange.send(running.url("/api/frontend"))
        #expect(after.status == 200)
    }

    @Test(
        "another process's write to the store is served on the next request; a corrupt store keeps the last good values"
    )
    func liveStore() async throws {
        let url = try Self.storeFile()
        let registry = try ServedFixtures.registry(store: try FileOverrideStore(url: url))
        let problems = AnnotatedMutex<[String?]>([])
        let live = LiveSnapshot(registry: registry) { problem in problems.withLock { $0.append(problem) } }
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        #expect(live.current().flag(forKey: "maxItems")?.value.json == "20")

        // "Another process": a store of its own on the same file.
        let other = try FileOverrideStore(url: url)
        _ = try other.write(["maxItems": .set(OverrideValue(json: "55")), "blueText": .set(.on)])
        #expect(live.current().flag(forKey: "maxItems")?.value.json == "55")
        let served = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags/maxItems"), method: "POST", body: Data("{}".utf8))
        #expect(served.text.contains(#""value":55"#))
        let good = try await HTTPExchange.send(running.url("/api/frontend"))

        // In one step (a new file renamed over the store): written in place, the file is empty for a moment, and a
        // watch that reads it then reports "the file is empty" before "not valid JSON".
        try Data("{ not json".utf8).write(to: url, options: .atomic)
        let snapshot = live.current()
        #expect(snapshot.flag(forKey: "maxItems")?.value.json == "55")
        #expect(live.storeProblem != nil)
        // The snapshot's own watch may have read the file first: it records the problem under the lock and reports
        // it after, so the report can come a moment after `current()` has returned.
        #expect(await eventually { problems.withLock { $0.count } >= 1 })
        #expect(problems.withLock { $0.count } == 1, "reported once")
        // Names the file and what is wrong, and does not repeat the apps' "flags read their defaults": the server
        // keeps its last values.
        let reported = try #require(live.storeProblem)
        #expect(reported.hasPrefix("the override store \(url.path) is corrupt: not valid JSON"))
        #expect(!reported.contains("defaults"))
        let stale = try await HTTPExchange.send(running.url("/api/frontend"))
        #expect(stale.status == 200 && stale.body == good.body && stale.header("ETag") == good.header("ETag"))
        #expect(running.server.live.storeProblem != nil)
        #expect(try String(contentsOf: url, encoding: .utf8) == "{ not json")  // never written

        try FileManager.default.removeItem(at: url)
        _ = try other.write(["maxItems": .set(OverrideValue(json: "9"))])
        #expect(live.current().flag(forKey: "maxItems")?.value.json == "9")
        #expect(live.storeProblem == nil)
        // As above: the watch may have seen the store readable again first and report it a moment later.
        #expect(await eventually { problems.withLock { $0.last } == .some(nil) })
    }

    @Test("this package's Unleash frontend client reads the served toggles and variants")
    func frontendClient() async throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues(["blueText": .set(.on), "cardColor": .set(OverrideValue(string: "#123456"))])
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let client = UnleashClient(
            url: running.url("/api/frontend"), clientKey: "any", appName: "swift-frontend", disableMetrics: true)
        await client.start()
        defer { client.stop() }
        #expect(client.isEnabled("blueText") && client.isEnabled("debugLogging") && !client.isEnabled("nothing"))
        let variant = client.variant("cardColor")
        #expect(variant.enabled && variant.payload?.value == "#123456" && variant.payload?.type == "string")
        #expect(running.server.clients.clients.map(\.name) == ["swift-frontend"])
    }
}
