import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// Settings bound to a `RemoteConfig` whose provider fetches from a real HTTP server on loopback.
@Suite("Settings bound to a RemoteConfig")
struct RemoteConfigSettingTests {
    struct AppFeatureConfig: Codable, Equatable, Sendable, SettingValue {
        var isNewFeatureEnabled: Bool
        var maxUploadSize: Int
    }

    struct MomentsSettings: FeatureGroup {
        let blueText = Feature()
        let cardColor: Setting<String>
        let maxItems: Setting<Int>
        let appFeatureConfig: Setting<AppFeatureConfig>
        let local = Setting(default: "x")

        init(config: RemoteConfig) {
            cardColor = Setting(default: "#f05138", remote: config.binding("cardColor"))
            maxItems = Setting(default: 20, range: 1...100, remote: config.binding("max_items"))
            appFeatureConfig = Setting(
                default: AppFeatureConfig(isNewFeatureEnabled: false, maxUploadSize: 10),
                remote: config.binding("app_feature_config"))
        }
    }

    /// Fetches `{"entries": {…}}` from the loopback server with `RemoteHTTPTransport`.
    struct LoopbackProvider: RemoteConfigProvider {
        let name = "loopback"
        let url: URL
        let transport = RemoteHTTPTransport(label: "test.loopback", maximumResponseBytes: 1 << 20)

        func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
            -> RemoteConfigFetchResponse
        {
            let answer = await transport.send(RemoteHTTPRequest(method: "GET", url: url), timeout: .seconds(10))
            guard case .success(let response) = answer, response.status == 200,
                let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                let entries = object["entries"] as? [String: String]
            else { throw .invalidResponse("unexpected answer from \(url)") }
            return RemoteConfigFetchResponse(content: .entries(entries))
        }
    }

    /// A loopback server serving `entries`, changeable by the test.
    final class EntriesServer: Sendable {
        private final class Entries: Sendable {
            let value: AnnotatedMutex<[String: String]>
            init(_ value: [String: String]) { self.value = AnnotatedMutex(value) }
        }

        private let entries: Entries
        let server: LoopbackHTTPServer

        init(_ entries: [String: String]) throws {
            let current = Entries(entries)
            self.entries = current
            server = try LoopbackHTTPServer.started { _ in .jsonObject(["entries": current.value.withLock { $0 }]) }
        }

        func set(_ entries: [String: String]) { self.entries.value.withLock { $0 = entries } }
    }

    private func makeConfig(_ url: URL, clock: ManualClock) -> RemoteConfig {
        RemoteConfig(
            provider: LoopbackProvider(url: url), settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: .manual(clock))
    }

    @Test(
        "settings take the active value; each activation notifies the settings whose keys changed, new values visible")
    func activationNotifiesBoundSettings() async throws {
        let http = try EntriesServer([
            "cardColor": "#000000", "max_items": "50",
            "app_feature_config": #"{"isNewFeatureEnabled":true,"maxUploadSize":99}"#, "unrelated": "1",
        ])
        defer { http.server.stop() }
        let clock = ManualClock()
        let config = makeConfig(http.server.url("/config"), clock: clock)
        let settings = FeatureRegistry(MomentsSettings(config: config))
        config.attach(to: settings)
        // What subscribers see when notified: the keys and the value of maxItems at that moment.
        let seen = AnnotatedMutex<[(keys: Set<String>, maxItems: Int)]>([])
        let subscription = settings.onChange { change in
            guard change.origin == .remote else { return }
            let maxItems = settings.maxItems.value
            seen.withLock { $0.append((change.keys, maxItems)) }
        }
        defer { subscription.cancel() }

        #expect(settings.maxItems.value == 20 && settings.maxItems.source == .static)
        await config.fetch()
        #expect(settings.maxItems.value == 20, "fetched but not activated values do not count")
        config.activate()
        #expect(settings.cardColor.value == "#000000")
        #expect(settings.maxItems.value == 50)
        #expect(settings.maxItems.source == .remote(provider: "loopback", fetchedAt: clock.date))
        #expect(settings.appFeatureConfig.value == AppFeatureConfig(isNewFeatureEnabled: true, maxUploadSize: 99))
        #expect(seen.withLock { $0.map(\.keys) } == [["cardColor", "maxItems", "appFeatureConfig"]])
        #expect(seen.withLock { $0.map(\.maxItems) } == [50])

        // Only max_items changes (to a value out of range: ignored, the default applies and is explained).
        seen.withLock { $0.removeAll() }
        http.set([
            "cardColor": "#000000", "max_items": "500",
            "app_feature_config": #"{"isNewFeatureEnabled":true,"maxUploadSize":99}"#,
        ])
        await config.fetch(expirationDuration: 0)
        config.activate()
        #expect(seen.withLock { $0.map(\.keys) } == [["maxItems"]])
        #expect(settings.maxItems.value == 20 && settings.maxItems.source == .static)
        #expect(
            settings.maxItems.explanation.chain.contains {
                $0.detail == #"remote value "500" ignored: must be 1…100"#
            })
        // A local override still wins over the remote value.
        settings.cardColor.overriddenValue = "#ffffff"
        #expect(settings.cardColor.value == "#ffffff" && settings.cardColor.source == .override)
        #expect(http.server.requestCount == 2)
    }

    @Test("settings bound to another config are not notified by this one")
    func otherConfigsSettingsAreNotNotified() async throws {
        let http = try EntriesServer(["max_items": "30"])
        defer { http.server.stop() }
        let clock = ManualClock()
        let config = makeConfig(http.server.url("/config"), clock: clock)
        let other = makeConfig(http.server.url("/config"), clock: clock)
        let registry = AnyFeatureRegistry()
        let mine = Setting(default: 1, key: "mine", remote: config.binding("max_items"))
        let theirs = Setting(default: 1, key: "theirs", remote: other.binding("max_items"))
        try registry.register([mine, theirs])
        config.attach(to: registry)
        let keys = AnnotatedMutex<Set<String>>([])
        let subscription = registry.onChange { change in keys.withLock { $0.formUnion(change.keys) } }
        defer { subscription.cancel() }
        await config.fetchAndActivate()
        #expect(keys.withLock { $0 } == ["mine"])
        #expect(mine.value == 30 && theirs.value == 1)
    }

    @Test("a manifest's settings with a remoteKey follow the config given as their source")
    func manifestSettingsBindByRemoteKey() async throws {
        let http = try EntriesServer(["max_items": "40", "welcome_message": "Hello", "isRoundedAvatar": "true"])
        defer { http.server.stop() }
        let clock = ManualClock()
        let config = makeConfig(http.server.url("/config"), clock: clock)
        let manifest = try RegistryManifest.decode(
            Data(
                """
                {"name": "Moments", "remote": {"provider": "loopback"},
                 "flags": [{"key": "moments.isRoundedAvatar", "kind": "remote", "remoteKey": "isRoundedAvatar"}],
                 "settings": [
                   {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100], "remoteKey": "max_items"},
                   {"key": "welcomeMessage", "type": "string", "default": "Welcome", "remoteKey": "welcome_message"}]}
                """.utf8))
        let registry = try AnyFeatureRegistry(
            manifest: manifest, settingSource: config, makeFeature: config.makeFeature(for:))
        config.attach(to: registry)
        var changes = registry.changes.makeAsyncIterator()
        await config.fetchAndActivate()
        let change = await changes.next()
        #expect(
            change == FeatureChange(keys: ["maxItems", "welcomeMessage", "moments.isRoundedAvatar"], origin: .remote))
        #expect(registry.feature(forKey: "maxItems")?.currentValue.json == "40")
        #expect(registry.feature(forKey: "welcomeMessage")?.currentValue == OverrideValue(string: "Hello"))
        #expect(registry.flag(forKey: "moments.isRoundedAvatar")?.enabled == true)
        #expect(registry.manifest().settings.map(\.remoteKey) == ["max_items", "welcome_message"])
    }
}
