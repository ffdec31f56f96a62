import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: toggles through RemoteConfig and RemoteFeature")
struct ClientRemoteConfigProviderTests {
    @Test("toggles become remote-config entries; RemoteFeatures follow them; 304 is unchanged; errors map")
    func provider() async throws {
        let status = Locked(200)
        let server = try LoopbackHTTPServer.started { request in
            if status.current != 200 { return .status(status.current) }
            if request.headers["If-None-Match"] == "\"t1\"" { return .status(304) }
            return FrontendBody.response(
                [FrontendBody.toggle("round-avatars"), FrontendBody.toggle("dark", enabled: false)],
                eTag: "\"t1\"")
        }
        defer { server.stop() }
        let provider = UnleashRemoteConfigProvider(
            url: server.url("/api/frontend"), clientKey: "key-1", appName: "moments",
            environment: "production", context: UnleashContext(userId: "5"))
        let first = try await provider.fetch(RemoteConfigFetchRequest(customSignals: ["plan": "pro"], timeout: 5))
        #expect(first.content == .entries(["round-avatars": "true", "dark": "false"]))
        #expect(first.eTag == "\"t1\"")
        let request = try #require(server.requests.first)
        let session = try #require(provider.context.sessionId)
        #expect(
            request.rawQuery
                == "userId=5&sessionId=\(session)&appName=moments&environment=production&properties%5Bplan%5D=pro")
        #expect(request.headers["Authorization"] == "key-1")
        #expect(request.headers["unleash-sdk"] == UnleashRequestHeaders.sdkIdentifier)

        let second = try await provider.fetch(RemoteConfigFetchRequest(eTag: "\"t1\"", timeout: 5))
        #expect(second.content == .unchanged)
        // The same session id with every fetch: session-sticky rollouts do not flip.
        #expect(server.requests.map { $0.query["sessionId"] } == [session, session])

        status.withLock { $0 = 503 }
        await #expect(throws: RemoteConfigProviderError.httpStatus(503, message: nil)) {
            try await provider.fetch(RemoteConfigFetchRequest(timeout: 5))
        }
        status.withLock { $0 = 200 }

        let config = RemoteConfig(provider: provider)
        let flag = RemoteFeature(key: "avatars", remoteKey: "round-avatars", default: false, config: config)
        let fetched = await config.fetchAndActivate()
        #expect(fetched.activated, "\(config.statusSummary)")
        #expect(flag.enabled)
        #expect(flag.resolution.source == .remote(provider: "unleash", fetchedAt: config.lastFetchTime))
    }

    @Test("a bad body names the JSON path")
    func badBody() async throws {
        let server = try LoopbackHTTPServer.started { _ in .json(#"{"toggles":[{"name":1,"enabled":true}]}"#) }
        defer { server.stop() }
        let provider = UnleashRemoteConfigProvider(url: server.url("/proxy"), clientKey: "k", appName: "a")
        do {
            _ = try await provider.fetch(RemoteConfigFetchRequest(timeout: 5))
            Issue.record("a bad body was accepted")
        } catch {
            #expect(error.description.contains("$.toggles[0].name"), "\(error)")
            #expect(!error.description.contains("invalid response: invalid response"), "said once: \(error)")
        }
    }
}
