import Flagstaff
import FlagstaffRemote
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

/// `POST /flagstaff/v1/manifest` (issue 35 item 2): a linked app's registry is added to the one served, once, with
/// the app's own values; what is wrong with a manifest is answered, never adopted in part.
@Suite("apps announcing their registries to serve")
struct AppAnnouncementTests {
    static let manifest = """
        {"name": "Moments", "flags": [{"key": "internalMenu", "kind": "buildTarget", "enabledIn": ["debug"]}],
         "groups": [{"key": "feed", "label": "Feed", "flags": [{"key": "feed.autoplay", "default": true}],
                     "settings": [{"key": "feed.pageSize", "type": "integer", "default": 20, "range": [5, 100]}]}],
         "app": {"buildTarget": "debug", "reportedAt": "2026-11-28T18:00:00.000Z",
                 "values": {"internalMenu": {"value": true, "source": "buildTarget"}}}}
        """

    static func post(_ running: RunningServer, _ body: String, headers: [String: String] = [:]) async throws
        -> HTTPExchange
    {
        try await HTTPExchange.send(
            running.url("/flagstaff/v1/manifest"), method: "POST",
            headers: ["Content-Type": "application/json", "User-Agent": "moments-ios"].merging(headers) { $1 },
            body: Data(body.utf8))
    }

    @Test("an announced registry is added to the one served, in its groups, with the app's values; once")
    func adopted() async throws {
        let registry = AnyFeatureRegistry(options: RegistryOptions(storeWatchInterval: nil))
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let answer = try await Self.post(running, Self.manifest)
        #expect(answer.status == 200, "\(answer.text)")
        let json = try ServedFixtures.json(Array(answer.body))
        #expect(json["registry"] as? String == "Moments" && json["members"] as? Int == 3 && json["added"] as? Int == 3)
        #expect(registry.allFeatures.map(\.key).sorted() == ["feed.autoplay", "feed.pageSize", "internalMenu"])
        #expect(registry.groups.map(\.label) == ["Feed"])
        // The app's value, marked as the app's: never the server's own evaluation of the rule.
        let menu = try #require(registry.flag(forKey: "internalMenu"))
        #expect(menu.enabled && menu.resolution.source == .buildTarget(.debug))
        // Served at once.
        let served = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
        #expect(served.text.contains("\"feed.pageSize\""), "\(served.text)")
        // Announced again (a reconnection): nothing new, the count stays.
        let again = try await Self.post(running, Self.manifest)
        #expect(try ServedFixtures.json(Array(again.body))["added"] as? Int == 3)
        #expect(registry.allFeatures.count == 3)
        let announcement = try #require(running.server.announcements.announcement(ofClient: "moments-ios"))
        #expect(announcement.summary == "Moments \u{b7} 3 members (debug build, reported 2026-11-28 18:00:00 UTC)")
        // The app reports again, its values moved on: shown and served as it reported them last.
        let later = Self.manifest.replacingOccurrences(of: "18:00:00", with: "19:00:00")
            .replacingOccurrences(
                of: #"{"value": true, "source": "buildTarget"}"#, with: #"{"value": false, "source": "dynamic"}"#)
        let moved = try await Self.post(running, later)
        #expect(try ServedFixtures.json(Array(moved.body))["updated"] as? Int == 1, "\(moved.text)")
        #expect(!menu.enabled && menu.resolution.source == .dynamic)
        #expect(
            menu.resolution.chain.contains { $0.detail?.contains("reported 2026-11-28 19:00:00") == true },
            "\(menu.resolution)")
    }

    @Test("a key the registry declares keeps its declaration")
    func declaredKeysKept() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let before = try #require(registry.feature(forKey: "blueText"))
        let answer = try await Self.post(
            running, #"{"name": "Other", "flags": [{"key": "blueText", "default": true}, {"key": "fresh"}]}"#)
        #expect(try ServedFixtures.json(Array(answer.body))["added"] as? Int == 1)
        #expect(registry.feature(forKey: "blueText") === before && registry.feature(forKey: "fresh") != nil)
    }

    @Test(
        "what is wrong is answered 400 and nothing is adopted",
        arguments: [
            ("{", "manifest"), (#"{"name": "X", "flags": [{"key": "a"}, {"key": "a"}]}"#, "a"),
            (#"{"name": "X", "flags": [{"key": "ok"}, {"key": "bad\u0001key"}]}"#, "control characters"),
            (#"{"name": "X", "settings": [{"key": "n", "type": "integer", "default": 500, "range": [1, 10]}]}"#, "n"),
        ])
    func refused(body: String, named: String) async throws {
        let registry = AnyFeatureRegistry(options: RegistryOptions(storeWatchInterval: nil))
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let answer = try await Self.post(running, body)
        #expect(answer.status == 400, "\(answer.text)")
        let message = try #require(try ServedFixtures.json(Array(answer.body))["error"] as? String)
        #expect(message.contains(named), "\(message)")
        #expect(registry.allFeatures.isEmpty)
        #expect(running.server.announcements.all.isEmpty)
    }

    @Test("a body over the limit is 413 from its Content-Length; the token is needed as for every endpoint")
    func limits() async throws {
        let registry = AnyFeatureRegistry(options: RegistryOptions(storeWatchInterval: nil))
        let running = try await RunningServer(
            registry: registry, configuration: FlagServerConfiguration(tokens: ["qa-secret-token-1234"]))
        defer { Task { await running.stop() } }
        let unauthorized = try await Self.post(running, Self.manifest)
        #expect(unauthorized.status == 401)
        let large = String(repeating: " ", count: AppAnnouncements.bodyLimit + 1)
        let tooLarge = try await Self.post(running, large, headers: ["Authorization": "Bearer qa-secret-token-1234"])
        #expect(tooLarge.status == 413)
        // Larger than the other endpoints' limit (1 MiB), under the manifest's.
        let padded = Self.manifest.replacingOccurrences(
            of: #""default": true}"#,
            with: #""default": true, "description": "\#(String(repeating: "x", count: 2 << 20))"}"#)
        let accepted = try await Self.post(running, padded, headers: ["Authorization": "Bearer qa-secret-token-1234"])
        #expect(accepted.status == 200, "\(accepted.text.prefix(300))")
        #expect(registry.allFeatures.count == 3)
    }

    @Test("a linked provider announces after its first answer; a server without the endpoint is asked once")
    func providerAnnounces() async throws {
        // A plain OFREP server (not Flagstaff): 404 for the manifest.
        let plain = try LoopbackHTTPServer.started { request in
            request.path.hasPrefix("/ofrep/") ? .json(#"{"flags": []}"#) : .status(404)
        }
        defer { plain.stop() }
        let app = FeatureRegistry(
            EmptyApp(), store: InMemoryOverrideStore(), options: RegistryOptions(storeWatchInterval: nil))
        let link = OFREPProvider(options: OFREPOptions(baseURL: plain.baseURL)).link(to: app)
        defer { link.provider.stop() }
        #expect(await eventually { link.provider.announcementState == .unsupported })
        await link.provider.refresh()
        #expect(plain.requests.filter { $0.path == "/flagstaff/v1/manifest" }.count == 1)
    }

    struct EmptyApp: FeatureGroup {
        let one = Feature()
    }
}
