import FlagstaffTestSupport
import Foundation
import Testing

/// Manifests with a `"remote"` provider, fetched from a real Firebase-protocol server on 127.0.0.1.
@Suite("remote provider and fetch")
struct RemoteFetchTests {
    static func manifest(baseURL: String, extra: String = "") -> String {
        """
        {"name": "Remote shop",
         "remote": {"provider": "firebase", "projectID": "shop-test", "apiKey": "key-123", "appID": "1:1:ios:1",
                    "baseURL": "\(baseURL)", "minimumFetchInterval": 0, "defaults": {"roundedAvatar": false}\(extra)},
         "flags": [
           {"key": "roundedAvatar", "kind": "remote", "default": false, "description": "Round avatars"},
           {"key": "darkMode", "default": false}
         ]}
        """
    }

    @Test func fetchTalksToTheProviderAndReportsSuccess() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            .json(#"{"state":"UPDATE","entries":{"roundedAvatar":"true"},"templateVersion":"7"}"#)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("remote.json", Self.manifest(baseURL: server.baseURL.absoluteString))
        let result = try await sandbox.runWithStore(["fetch", "--manifest", manifest])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("firebase: fetched, last fetch "), "\(result)")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/projects/shop-test/namespaces/firebase:fetch")
        #expect(request.query["key"] == "key-123")
        #expect(FileManager.default.fileExists(atPath: sandbox.storePath + ".remote"))
        #expect(sandbox.storeBytes() == nil, "fetching writes no override")
    }

    @Test func remoteFlagsResolveFromFetchedValuesAcrossInvocations() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            .json(#"{"state":"UPDATE","entries":{"roundedAvatar":"true"},"templateVersion":"7"}"#)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("remote.json", Self.manifest(baseURL: server.baseURL.absoluteString))
        let before = try await sandbox.runWithStore(["get", "roundedAvatar", "--explain", "--manifest", manifest])
        #expect(before.standardOutput.contains("* default"), "\(before)")
        #expect(before.standardOutput.contains("never fetched"), "\(before)")

        let fetch = try await sandbox.runWithStore(["fetch", "--manifest", manifest])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.standardOutput.contains("roundedAvatar  ON by remote (firebase)"), "\(fetch)")
        server.stop()

        // A later invocation, with the server gone, serves the cached values.
        let explain = try await sandbox.runWithStore(["get", "roundedAvatar", "--explain", "--manifest", manifest])
        #expect(explain.status == 0, "\(explain)")
        #expect(explain.standardOutput.contains("  value     ON by remote (firebase)"), "\(explain)")
        let decided = explain.standardOutput.split(separator: "\n").first { $0.hasPrefix("* remote (firebase)") }
        #expect(decided?.contains("ON") == true, "\(explain)")
        #expect(decided?.contains("fetched 20") == true, "\(explain)")

        let json = try sandbox.jsonObject(
            try await sandbox.runWithStore(["get", "roundedAvatar", "--json", "--manifest", manifest]))
        #expect(json["source"] as? String == "remote")
        #expect(json["kind"] as? String == "remote")
        let chain = try #require(json["chain"] as? [[String: Any]])
        let remote = try #require(chain.first { $0["source"] as? String == "remote" })
        #expect(remote["provider"] as? String == "firebase")
        #expect(remote["value"] as? Bool == true)
        #expect(remote["decided"] as? Bool == true)
        #expect((remote["fetchedAt"] as? String)?.hasPrefix("20") == true)

        // A QA override still wins, and the remote step stays in the chain.
        #expect(try await sandbox.runWithStore(["set", "roundedAvatar", "off", "--manifest", manifest]).status == 0)
        let overridden = try await sandbox.runWithStore(["get", "roundedAvatar", "--explain", "--manifest", manifest])
        #expect(overridden.standardOutput.contains("  value     OFF by override"), "\(overridden)")
        #expect(overridden.standardOutput.contains("  remote (firebase)  ON"), "\(overridden)")
    }

    @Test func theDemosRemoteFlagHasADefaultWithoutNetwork() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["get", "moments.isRoundedAvatar", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["kind"] as? String == "remote")
        #expect(object["enabled"] as? Bool == false)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.compactMap { $0["source"] as? String } == ["override", "remote", "static"])
        #expect(chain[1]["provider"] as? String == "firebase")
        #expect(chain[1]["value"] is NSNull)
    }

    @Test func fetchFailureExitsOneWithTheProvidersMessage() async throws {
        let server = try LoopbackHTTPServer.started { _ in .status(500) }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("remote.json", Self.manifest(baseURL: server.baseURL.absoluteString))
        let result = try await sandbox.runWithStore(["fetch", "--manifest", manifest, "--json"])
        #expect(result.status == 1, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["provider"] as? String == "firebase")
        #expect(object["status"] as? String != "success")
        #expect((object["error"] as? String)?.contains("500") == true, "\(result)")
    }

    @Test func serverTextInErrorsAndLogsIsSanitised() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            .json(
                #"{"error":{"code":400,"message":"bad \u001b[2J\u001b]0;pwned\u0007 request","status":"INVALID_ARGUMENT"}}"#,
                status: 400)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("remote.json", Self.manifest(baseURL: server.baseURL.absoluteString))
        // Processes: the log handler is installed at start-up and reads FLAGSTAFF_LOG_LEVEL.
        let quiet = try await sandbox.runProcess(["fetch", "--manifest", manifest, "--store", sandbox.storePath])
        #expect(quiet.status == 1, "\(quiet)")
        #expect(quiet.standardError.contains("flagstaff: error: "), "\(quiet)")
        #expect(!quiet.standardError.contains("flagstaff: warning:"), "library warnings are off by default: \(quiet)")

        let verbose = try await sandbox.runProcess(
            ["fetch", "--manifest", manifest, "--store", sandbox.storePath],
            environment: ["FLAGSTAFF_LOG_LEVEL": "warning"])
        #expect(verbose.standardError.contains("flagstaff: warning: "), "\(verbose)")
        for result in [quiet, verbose] {
            #expect(!result.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result)")
            #expect(result.standardError.contains(#"\u{1B}[2J"#), "\(result)")
        }
    }

    @Test func fetchNeedsAProvider() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        let result = try await sandbox.runWithStore(["fetch", "--manifest", manifest])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("has no remote-config provider"))
    }

    @Test(arguments: [
        (
            #""provider": "firebase""#, #""provider": "parse""#,
            #"$.remote.provider: unknown provider "parse" (this flagstaff knows: firebase, unleash)"#
        ),
        (#""projectID": "shop-test", "#, "", #"$.remote.projectID: the firebase provider needs "projectID""#),
        (
            #""baseURL": "http://127.0.0.1:1""#, #""baseURL": "ftp://x""#,
            #"$.remote.baseURL: expected an http or https URL"#
        ),
        (
            #""minimumFetchInterval": 0"#, #""minimumFetchInterval": -5"#,
            "$.remote.minimumFetchInterval: expected a number of seconds"
        ),
        (
            #""defaults": {"roundedAvatar": false}"#, #""defaults": {"roundedAvatar": [1]}"#,
            "$.remote.defaults.roundedAvatar: expected a boolean, a number or a string"
        ),
        (
            #""minimumFetchInterval": 0"#, #""minimumFetchInterval": 0, "region": "eu""#,
            #"$.remote.region: unknown field "region""#
        ),
    ])
    func badRemoteSectionsNameTheField(original: String, replacement: String, message: String) async throws {
        let sandbox = try CLISandbox()
        let text = Self.manifest(baseURL: "http://127.0.0.1:1").replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.manifest(baseURL: "http://127.0.0.1:1"), "the replacement must apply")
        let manifest = try sandbox.write("remote.json", text)
        for command in [["list"], ["fetch"], ["get", "darkMode"]] {
            let result = try await sandbox.runWithStore(command + ["--manifest", manifest])
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.standardError.contains(manifest), "\(result)")
            #expect(result.standardError.contains(message), "\(command): \(result.standardError)")
        }
    }

    @Test func manifestKeepsTheRemoteSection() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("remote.json", Self.manifest(baseURL: "http://127.0.0.1:1"))
        let result = try await sandbox.runWithStore(["manifest", "--manifest", manifest])
        #expect(result.status == 0, "\(result)")
        let remote = try #require(try sandbox.jsonObject(result)["remote"] as? [String: Any])
        #expect(remote["provider"] as? String == "firebase")
        #expect(remote["projectID"] as? String == "shop-test")
        #expect((remote["defaults"] as? [String: Any])?["roundedAvatar"] as? Bool == false)
    }
}
