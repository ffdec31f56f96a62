import FlagstaffTestSupport
import Foundation
import Testing

/// Manifests with `"remote": {"provider": "unleash", …}`, fetched from a frontend-API server on 127.0.0.1.
@Suite("unleash remote provider")
struct UnleashManifestFetchTests {
    static func manifest(baseURL: String) -> String {
        """
        {"name": "Unleash shop",
         "remote": {"provider": "unleash", "apiKey": "client-key", "appID": "shop", "namespace": "production",
                    "baseURL": "\(baseURL)/api/frontend", "minimumFetchInterval": 0},
         "flags": [
           {"key": "checkout.newFlow", "kind": "remote", "remoteKey": "new-checkout", "default": false},
           {"key": "darkMode", "default": false}
         ]}
        """
    }

    @Test func fetchReadsTogglesAndLaterInvocationsServeThem() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            .json(#"{"toggles":[{"name":"new-checkout","enabled":true,"impressionData":false}]}"#)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("unleash.json", Self.manifest(baseURL: server.baseURL.absoluteString))
        let fetch = try await sandbox.runWithStore(["fetch", "--manifest", manifest])
        #expect(fetch.status == 0, "\(fetch)")
        let request = try #require(server.requests.first)
        #expect(request.path == "/api/frontend")
        #expect(request.headers["Authorization"] == "client-key")
        #expect(request.query["appName"] == "shop")
        #expect(request.query["environment"] == "production")
        server.stop()

        let get = try await sandbox.runWithStore(["get", "checkout.newFlow", "--explain", "--manifest", manifest])
        #expect(get.status == 0, "\(get)")
        #expect(get.standardOutput.contains("ON by remote (unleash)"), "\(get)")
    }

    /// A redirect to another origin (another port here) is followed without the client key; one within the origin
    /// keeps it.
    @Test func fetchRedirectedToAnotherOriginSendsNoClientKey() async throws {
        let target = try LoopbackHTTPServer.started { _ in
            .json(#"{"toggles":[{"name":"new-checkout","enabled":true,"impressionData":false}]}"#)
        }
        defer { target.stop() }
        let away = try LoopbackHTTPServer.started { request in
            guard request.path == "/api/frontend" else {
                return .status(307, headers: ["Location": target.url("/api/frontend?moved=1").absoluteString])
            }
            return .status(307, headers: ["Location": "/elsewhere/api/frontend"])
        }
        defer { away.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("unleash.json", Self.manifest(baseURL: away.baseURL.absoluteString))
        let fetch = try await sandbox.runWithStore(["fetch", "--manifest", manifest])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(away.requests.map(\.path) == ["/api/frontend", "/elsewhere/api/frontend"])
        #expect(away.requests.allSatisfy { $0.headers["Authorization"] == "client-key" })
        let landed = try #require(target.requests.first)
        #expect(landed.query["moved"] == "1")
        #expect(landed.headers["Authorization"] == nil)
    }

    @Test func missingBaseURLIsAClearError() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write(
            "bad.json",
            """
            {"name": "Bad", "remote": {"provider": "unleash", "apiKey": "k"}, "flags": [{"key": "a", "default": false}]}
            """)
        let result = try await sandbox.runWithStore(["list", "--manifest", manifest])
        #expect(result.status != 0)
        #expect(result.standardError.contains("$.remote.baseURL"), "\(result)")
    }
}
