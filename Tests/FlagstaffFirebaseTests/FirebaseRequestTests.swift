import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@Suite("Firebase fetch request fields, as the Apple SDK sends them")
struct FirebaseRequestTests {
    @Test("bundle identifier, country, first-open time, user properties, fetch type and device context")
    func requestFields() async throws {
        let server = try FakeFirebaseServer()
        let clock = ManualClock()
        var options = FirebaseTestSupport.options(server.baseURL)
        options.bundleIdentifier = "com.example.moments"
        options.countryCode = "cn"
        options.firstOpenTime = Date(timeIntervalSince1970: 1_700_000_000.75)
        let provider = FirebaseRemoteConfigProvider(options: options)
        provider.setAnalyticsUserProperties(["plan": "gold", "segment": "beta"])
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: FirebaseTestSupport.environment(clock))
        #expect(await config.fetch().status == .success)

        let request = try #require(server.requests.last)
        #expect(request.headers["X-Ios-Bundle-Identifier"] == "com.example.moments")
        #expect(request.headers["X-Firebase-RC-Fetch-Type"] == "BASE/1")
        let body = try #require(request.jsonBody)
        #expect(body["package_name"] as? String == "com.example.moments")
        #expect(body["country_code"] as? String == "cn")
        #expect(body["first_open_time"] as? String == "2023-11-14T22:13:20Z")
        #expect(body["analytics_user_properties"] as? [String: String] == ["plan": "gold", "segment": "beta"])

        // Analytics' `_fot` (milliseconds) becomes first_open_time and leaves the user properties.
        provider.setAnalyticsUserProperties(["_fot": "1800000000000", "plan": "gold"])
        await config.fetch()
        let second = try #require(server.requests.last?.jsonBody)
        #expect(second["first_open_time"] as? String == "2027-01-15T08:00:00Z")
        #expect(second["analytics_user_properties"] as? [String: String] == ["plan": "gold"])

        #expect(
            provider.deviceContext == [
                "app_version": "2.1", "app_build": "210", "os_version": "6.8", "device_locale": "zh",
                "GMP_project_Identifier": "1:42:ios:moments",
            ])
    }

    @Test("without a bundle identifier, country or user properties, those fields and the header are left out")
    func optionalFieldsOmitted() async throws {
        let server = try FakeFirebaseServer()
        let config = FirebaseTestSupport.config(server.baseURL)
        await config.fetch()
        let request = try #require(server.requests.last)
        #expect(request.headers["X-Ios-Bundle-Identifier"] == nil)
        let body = try #require(request.jsonBody)
        for field in ["package_name", "country_code", "first_open_time", "analytics_user_properties"] {
            #expect(body[field] == nil, "\(field)")
        }
    }

    @Test("installation .none sends no installation fields and no auth header, but the given first-open time")
    func noInstallation() async throws {
        let server = try FakeFirebaseServer()
        var options = FirebaseTestSupport.options(server.baseURL, installation: .none)
        options.firstOpenTime = Date(timeIntervalSince1970: 1_800_000_000)
        let config = RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options),
            settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: FirebaseTestSupport.environment(ManualClock()))
        let result = await config.fetch()
        #expect(result.error?.description.contains("HTTP 401") == true, "the stand-in checks the installation")
        let request = try #require(server.requests.last)
        #expect(request.headers["x-goog-firebase-installations-auth"] == nil)
        let body = try #require(request.jsonBody)
        #expect(body["app_instance_id"] == nil)
        #expect(body["app_instance_id_token"] == nil)
        #expect(body["first_open_time"] as? String == "2027-01-15T08:00:00Z")
        #expect(server.installations { $0.registrations } == 0)
    }

    @Test("the first-open time is recorded at the first launch and persisted beside the config")
    func firstOpenTimePersisted() async throws {
        let server = try FakeFirebaseServer()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_800_000_000))
        func launch() -> RemoteConfig {
            RemoteConfig(
                provider: FirebaseRemoteConfigProvider(
                    options: FirebaseTestSupport.options(server.baseURL, installation: .automatic), now: { clock.date }),
                storageDirectory: directory, settings: RemoteConfigSettings(minimumFetchInterval: 0),
                environment: FirebaseTestSupport.environment(clock))
        }
        await launch().fetch()
        #expect(server.requests.last?.jsonBody?["first_open_time"] as? String == "2027-01-15T08:00:00Z")
        clock.advance(by: .seconds(86_400))
        await launch().fetch()
        #expect(server.requests.last?.jsonBody?["first_open_time"] as? String == "2027-01-15T08:00:00Z")
    }

    @Test(
        "language code: the SDK's mapping of preferred languages",
        arguments: [
            (["en-GB"], "en_GB"), (["en-US", "fr"], "en_US"), (["fr-SN"], "fr"), (["zh-Hans-CN"], "zh_CN"),
            (["zh-Hant-HK"], "zh-Hant"), (["pt-BR"], "pt_BR"), (["sw", "de-AT"], "de_AT"), (["sw"], "en"),
            ([], "en"), (["ja_JP"], "ja_JP"), (["nb-NO"], "nb_NO"),
        ])
    func languageCode(preferred: [String], expected: String) {
        #expect(FirebaseLanguageCode.code(forPreferredLanguages: preferred) == expected)
    }

    @Test("options derive the Installations and realtime endpoints and the project number")
    func endpoints() throws {
        let production = FirebaseRemoteConfigOptions(projectID: "p", apiKey: "k", appID: "1:987654:ios:abc")
        #expect(production.resolvedInstallationsBaseURL == FirebaseRemoteConfigOptions.defaultInstallationsBaseURL)
        #expect(
            production.realtimeURL?.absoluteString
                == "https://firebaseremoteconfigrealtime.googleapis.com/v1/projects/987654/namespaces/firebase:streamFetchInvalidations?key=k"
        )
        let local = URL(string: "http://127.0.0.1:9")!
        let standIn = FirebaseRemoteConfigOptions(projectID: "p", apiKey: "k", appID: "no-number", baseURL: local)
        #expect(standIn.resolvedInstallationsBaseURL == local)
        #expect(standIn.realtimeURL == nil, "no project number: realtime cannot be addressed")
        #expect(FirebaseRemoteConfigProvider(options: standIn).isRealtimeEnabled == false)
    }
}
