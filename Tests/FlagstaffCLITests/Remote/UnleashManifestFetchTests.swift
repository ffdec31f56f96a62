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
