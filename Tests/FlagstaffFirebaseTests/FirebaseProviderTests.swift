import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// Helpers shared by the Firebase end-to-end tests.
enum FirebaseTestSupport {
    static func options(
        _ baseURL: URL, language: String = "zh",
        installation: FirebaseInstallationMode = .provided(id: "instance-1", token: "token-1")
    ) -> FirebaseRemoteConfigOptions {
        FirebaseRemoteConfigOptions(
            projectID: FakeFirebaseServer.projectID, apiKey: FakeFirebaseServer.apiKey, appID: "1:42:ios:moments",
            baseURL: baseURL, installation: installation, bundleIdentifier: "", languageCode: language,
            countryCode: "", platformVersion: "6.8", timeZone: "Asia/Shanghai", appVersion: "2.1", appBuild: "210",
            realtimeEnabled: false
        )
    }

    /// A config on the Firebase provider whose waits and dates follow `clock`. The fetch timeout is on the clock,
    /// so it never fires unless a test advances the clock (the provider's own real-time deadline, the same 60 s,
    /// is never reached on loopback).
    static func config(
        _ baseURL: URL, language: String = "zh", directory: URL? = nil, clock: ManualClock = ManualClock(),
        minimumFetchInterval: TimeInterval = 0
    ) -> RemoteConfig {
        RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options(baseURL, language: language)),
            storageDirectory: directory,
            settings: RemoteConfigSettings(minimumFetchInterval: minimumFetchInterval, fetchTimeout: 60),
            environment: environment(clock)
        )
    }

    /// Waits and dates on one `ManualClock`; jitter fixed at factor 1.0 (random 0.5).
    static func environment(_ clock: ManualClock) -> RemoteConfigEnvironment {
        RemoteConfigEnvironment(clock: clock, now: { clock.date }, random: { 0.5 })
    }

    static func temporaryDirectory(_ name: String = #function) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-firebase-\(name.filter { $0.isLetter })-\(UUID().uuidString)", isDirectory: true)
    }
}

@Suite("Firebase provider against a loopback Firebase server")
struct FirebaseProviderTests {
    @Test("fetch sends the REST request; values follow the language condition; statuses are right")
    func fetchAndConditions() async throws {
        let server = try FakeFirebaseServer()
        let chinese = FirebaseTestSupport.config(server.baseURL, language: "zh")
        let english = FirebaseTestSupport.config(server.baseURL, language: "en")
        try chinese.setDefaults(["isRoundedAvatar": false, "maxPhotos": 4])
        try chinese.setCustomSignals(["tier": "gold", "age": 30])

        #expect(chinese["isRoundedAvatar"].source == .default)
        let result = await chinese.fetchAndActivate()
        #expect(result.status == .successFetchedFromRemote)
        #expect(result.activated)
        #expect(chinese["isRoundedAvatar"].boolValue == true)
        #expect(chinese["isRoundedAvatar"].source == .remote)
        #expect(chinese["welcomeText"].stringValue == "欢迎")
        #expect(chinese["maxPhotos"].numberValue == 9)
        #expect(chinese["tier"].stringValue == "gold", "custom signals reach the server")
        #expect(chinese.lastFetchStatus == .success)
        #expect(chinese.metadata.fetchedTemplateVersion == "1")

        await english.fetchAndActivate()
        #expect(english["isRoundedAvatar"].boolValue == false)
        #expect(english["welcomeText"].stringValue == "Welcome")

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/projects/moments-test/namespaces/firebase:fetch")
        #expect(request.query["key"] == "test-api-key")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["x-goog-firebase-installations-auth"] == "token-1")
        #expect(request.headers["if-none-match"] == nil)
        let body = try #require(request.jsonBody)
        #expect(body["app_instance_id"] as? String == "instance-1")
        #expect(body["app_instance_id_token"] as? String == "token-1")
        #expect(body["app_id"] as? String == "1:42:ios:moments")
        #expect(body["language_code"] as? String == "zh")
        #expect(body["platform_version"] as? String == "6.8")
        #expect(body["time_zone"] as? String == "Asia/Shanghai")
        #expect(body["app_version"] as? String == "2.1")
        #expect(body["app_build"] as? String == "210")
        #expect(body["sdk_version"] as? String == "flagstaff-1")
        #expect(body["custom_signals"] as? [String: String] == ["tier": "gold", "age": "30"])
    }

    @Test("ETag: the second fetch sends if-none-match and gets NO_CHANGE; a publish brings UPDATE")
    func eTag() async throws {
        let server = try FakeFirebaseServer()
        let config = FirebaseTestSupport.config(server.baseURL)
        await config.fetchAndActivate()
        let firstETag = try #require(config.metadata.eTag)
        let second = await config.fetchAndActivate()
        #expect(second.status == .successFetchedFromRemote)
        #expect(second.activated == false)
        #expect(server.requests.last?.headers["If-None-Match"] == firstETag)
        #expect(config["isRoundedAvatar"].boolValue)

        server.publish(["isRoundedAvatar": FakeFirebaseServer.Parameter(defaultValue: "false")])
        let third = await config.fetchAndActivate()
        #expect(third.activated)
        #expect(config["isRoundedAvatar"].boolValue == false)
        #expect(config.metadata.eTag != firstETag)
        #expect(config.metadata.activeTemplateVersion == "2")
    }

    @Test("minimum fetch interval: no request inside the interval")
    func minimumInterval() async throws {
        let server = try FakeFirebaseServer()
        let clock = ManualClock()
        let config = FirebaseTestSupport.config(server.baseURL, clock: clock, minimumFetchInterval: 600)
        await config.fetchAndActivate()
        clock.advance(by: .seconds(599))
        #expect(await config.fetchAndActivate().status == .successUsingPreFetchedData)
        #expect(server.requests.count == 1)
        clock.advance(by: .seconds(1))
        #expect(await config.fetchAndActivate().status == .successFetchedFromRemote)
        #expect(server.requests.count == 2)
    }

    @Test("persistence: a new instance serves last-known-good values with no network, and keeps the ETag")
    func persistenceAcrossInstances() async throws {
        let server = try FakeFirebaseServer()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = FirebaseTestSupport.config(server.baseURL, directory: directory)
        await first.fetchAndActivate()
        let eTag = first.metadata.eTag
        let fetchTime = first.lastFetchTime

        let refused = try LoopbackRefusedPort()
        let offline = FirebaseTestSupport.config(refused.baseURL, directory: directory)
        #expect(offline["isRoundedAvatar"] == RemoteConfigValue(string: "true", source: .remote))
        #expect(offline.lastFetchStatus == .success)
        #expect(offline.lastFetchTime == fetchTime)
        #expect(offline.metadata.eTag == eTag)
        #expect(offline.persistenceProblems.isEmpty)

        let second = FirebaseTestSupport.config(server.baseURL, directory: directory)
        let result = await second.fetchAndActivate()
        #expect(result.activated == false)
        #expect(server.requests.last?.headers["if-none-match"] == eTag)
        for name in ["fetched.json", "active.json", "metadata.json"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test("a corrupt persisted file is reported and ignored, never fatal")
    func corruptPersistence() throws {
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("active.json"))
        try Data(#"{"lastFetchStatus": 12}"#.utf8).write(to: directory.appendingPathComponent("metadata.json"))
        let refused = try LoopbackRefusedPort()
        let config = FirebaseTestSupport.config(refused.baseURL, directory: directory)
        #expect(config["isRoundedAvatar"].source == .static)
        #expect(config.lastFetchStatus == .noFetchYet)
        let problems = config.persistenceProblems.map(\.description)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("active.json") })
        #expect(problems.contains { $0.contains("metadata.json") && $0.contains("lastFetchStatus") })
    }
}
