import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@Suite("Firebase installations: registered through the Installations REST API, persisted, refreshed")
struct FirebaseInstallationsTests {
    /// A config with automatic installations whose token expiry follows `clock`.
    static func config(_ server: FakeFirebaseServer, directory: URL?, clock: ManualClock) -> RemoteConfig {
        let options = FirebaseTestSupport.options(server.baseURL, installation: .automatic)
        return RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options, now: { clock.date }),
            storageDirectory: directory,
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 60),
            environment: FirebaseTestSupport.environment(clock))
    }

    @Test("the first fetch registers an installation and sends it as the SDK does; later fetches reuse it")
    func registersOnce() async throws {
        let server = try FakeFirebaseServer()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let config = Self.config(server, directory: directory, clock: clock)
        #expect(await config.fetch().status == .success)
        #expect(await config.fetch().status == .success)

        let paths = server.requests.map(\.path)
        #expect(paths.first == "/v1/projects/moments-test/installations/")
        #expect(paths.filter { $0.hasSuffix(":fetch") }.count == 2)
        #expect(server.installations { $0.registrations } == 1)
        let registration = try #require(server.requests.first)
        #expect(registration.headers["X-Goog-Api-Key"] == FakeFirebaseServer.apiKey)
        let sent = try #require(registration.jsonBody)
        let fid = try #require(sent["fid"] as? String)
        #expect(fid.count == 22)
        #expect("cdef".contains(try #require(fid.first)), "the FID starts with the 0111 prefix")
        #expect(fid.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })

        let fetch = try #require(server.requests.last)
        #expect(fetch.headers["x-goog-firebase-installations-auth"] == "auth-1")
        #expect(fetch.jsonBody?["app_instance_id"] as? String == fid)
        #expect(fetch.jsonBody?["app_instance_id_token"] as? String == "auth-1")

        // The installation is persisted beside the config: a new process reuses it without registering.
        let file = directory.appendingPathComponent("firebase-installation.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        let relaunched = Self.config(server, directory: directory, clock: clock)
        #expect(await relaunched.fetch().status == .success)
        #expect(server.installations { $0.registrations } == 1)
        #expect(server.requests.last?.jsonBody?["app_instance_id"] as? String == fid)
    }

    @Test("the token is cached until an hour before expiry, then refreshed with the refresh token")
    func refreshesBeforeExpiry() async throws {
        let server = try FakeFirebaseServer()
        server.installations { $0.expiresIn = "7200s" }
        let clock = ManualClock()
        let config = Self.config(server, directory: nil, clock: clock)
        await config.fetch()
        clock.advance(by: .seconds(3599))
        await config.fetch()
        #expect(server.installations { $0.refreshes } == 0, "2 h token, 1 h left: still cached")
        #expect(server.requests.last?.headers["x-goog-firebase-installations-auth"] == "auth-1")
        clock.advance(by: .seconds(2))
        #expect(await config.fetch().status == .success)
        #expect(server.installations { $0.refreshes } == 1)
        let refresh = try #require(server.requests.first { $0.path.hasSuffix("/authTokens:generate") })
        #expect(refresh.headers["Authorization"] == "FIS_v2 refresh-1")
        #expect((refresh.jsonBody?["installation"] as? [String: Any])?["sdkVersion"] as? String == "flagstaff-1")
        #expect(server.requests.last?.headers["x-goog-firebase-installations-auth"] == "auth-2")
    }

    @Test("an installation the server forgot (404 on refresh) is replaced by a new registration")
    func reRegistersWhenForgotten() async throws {
        let server = try FakeFirebaseServer()
        server.installations { $0.expiresIn = "60s" }
        let clock = ManualClock()
        let config = Self.config(server, directory: nil, clock: clock)
        await config.fetch()
        let firstFID = server.requests.last?.jsonBody?["app_instance_id"] as? String
        server.installations { $0.refreshTokens.removeAll() }
        #expect(await config.fetch().status == .success)
        #expect(server.installations { $0.registrations } == 2)
        #expect(server.requests.last?.jsonBody?["app_instance_id"] as? String != firstFID)
    }

    @Test("registration failures are fetch errors naming Installations; 503 backs off like a fetch")
    func registrationFailures() async throws {
        let server = try FakeFirebaseServer()
        server.installations { $0.registrationStatus = 403 }
        let clock = ManualClock()
        let config = Self.config(server, directory: nil, clock: clock)
        let refused = await config.fetch()
        #expect(refused.status == .failure)
        #expect(refused.error?.description.contains("Firebase Installations registration") == true)
        #expect(!server.requests.contains { $0.path.hasSuffix(":fetch") }, "no fetch without an installation")

        server.installations { $0.registrationStatus = 503 }
        #expect(await config.fetch().status == .throttled)
    }

    @Test("an answer without a token is an error saying so; no fetch is sent")
    func missingToken() async throws {
        let server = try FakeFirebaseServer()
        server.installations { $0.omitToken = true }
        let config = Self.config(server, directory: nil, clock: ManualClock())
        let result = await config.fetch()
        #expect(result.status == .failure)
        #expect(result.error?.description.contains("no authToken.token") == true, "\(String(describing: result.error))")
        #expect(!server.requests.contains { $0.path.hasSuffix(":fetch") })
    }

    @Test("a caller-supplied installation is used as is; an empty token is an error, never a silent request")
    func providedInstallation() async throws {
        let server = try FakeFirebaseServer()
        let clock = ManualClock()
        let provided = FirebaseTestSupport.config(server.baseURL, clock: clock)
        #expect(await provided.fetch().status == .success)
        #expect(server.installations { $0.registrations } == 0)
        #expect(server.requests.last?.headers["x-goog-firebase-installations-auth"] == "token-1")

        server.server.clearRequests()
        let empty = RemoteConfig(
            provider: FirebaseRemoteConfigProvider(
                options: FirebaseTestSupport.options(
                    server.baseURL, installation: .provided(id: "instance-1", token: ""))),
            settings: RemoteConfigSettings(minimumFetchInterval: 0), environment: FirebaseTestSupport.environment(clock)
        )
        let result = await empty.fetch()
        #expect(result.status == .failure)
        #expect(
            result.error
                == .fetchFailed(
                    .missingCredentials(
                        "the Firebase installation auth token is empty: pass the installation's token in "
                            + "FirebaseInstallationMode.provided(id:token:), or use .automatic to register one")))
        #expect(server.requests.isEmpty, "nothing was sent")
    }
}
