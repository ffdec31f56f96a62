import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Settings bound to Unleash variant payloads, against loopback stand-ins of the frontend and client APIs.
@Suite("Unleash: settings bound to variant payloads")
struct PayloadSettingTests {
    struct UploadLimits: Codable, Equatable, Sendable, SettingValue { var maxBytes: Int }

    struct ShopSettings: FeatureGroup {
        let buttonColor: Setting<String>
        let pageSize: Setting<Int>
        let limits: Setting<UploadLimits>
        let banner: Setting<String>

        init(client: UnleashClient) {
            buttonColor = Setting(default: "#f05138", remote: client.binding("checkout.button"))
            pageSize = Setting(default: 20, range: 1...100, remote: client.binding("search.page-size"))
            limits = Setting(default: UploadLimits(maxBytes: 10), remote: client.binding("upload.limits"))
            banner = Setting(default: "none", remote: client.binding("home.banner"))
        }
    }

    static func variant(_ name: String, type: String, value: String, enabled: Bool = true) -> [String: Any] {
        ["name": name, "enabled": enabled, "feature_enabled": true, "payload": ["type": type, "value": value]]
    }

    @Test("frontend client: payloads of enabled variants are the settings' remote values; changes notify them")
    func frontendPayloads() async throws {
        let toggles = Locked(
            FrontendBody.json([
                FrontendBody.toggle("checkout.button", variant: Self.variant("blue", type: "string", value: "#0000ff")),
                FrontendBody.toggle("search.page-size", variant: Self.variant("big", type: "number", value: "50")),
                FrontendBody.toggle(
                    "upload.limits", variant: Self.variant("json", type: "json", value: #"{"maxBytes":99}"#)),
                // Off: no remote value, whatever its variant says.
                FrontendBody.toggle(
                    "home.banner", enabled: false, variant: Self.variant("x", type: "string", value: "sale")),
            ]))
        let server = try LoopbackHTTPServer.started { _ in .json(toggles.current) }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        let settings = FeatureRegistry(ShopSettings(client: client))
        #expect(settings.buttonColor.value == "#f05138" && settings.buttonColor.source == .static)

        client.attach(to: settings)
        let changes = Locked<[FeatureChange]>([])
        let subscription = settings.onChange { change in changes.withLock { $0.append(change) } }
        defer { subscription.cancel() }
        await client.start()
        client.stop()

        #expect(settings.buttonColor.value == "#0000ff")
        #expect(settings.buttonColor.source == .remote(provider: "Unleash", fetchedAt: client.lastFetchTime))
        #expect(settings.pageSize.value == 50)
        #expect(settings.limits.value == UploadLimits(maxBytes: 99))
        #expect(settings.banner.value == "none" && settings.banner.source == .static)
        #expect(settings.banner.explanation.chain.contains { $0.detail == #"no remote value for "home.banner""# })
        #expect(
            settings.allFeatures.allSatisfy { !($0 is UnleashFeature) },
            "toggles bound to settings are not registered again as flags")
        let notified = changes.current.filter { $0.origin == .remote }.reduce(into: Set<String>()) {
            $0.formUnion($1.keys)
        }
        #expect(notified == ["buttonColor", "pageSize", "limits", "banner"])

        // A new answer: one payload changes, one becomes invalid, the banner's toggle turns on.
        changes.withLock { $0.removeAll() }
        toggles.withLock {
            $0 = FrontendBody.json([
                FrontendBody.toggle("checkout.button", variant: Self.variant("blue", type: "string", value: "#0000ff")),
                FrontendBody.toggle("search.page-size", variant: Self.variant("huge", type: "number", value: "500")),
                FrontendBody.toggle(
                    "upload.limits", variant: Self.variant("json", type: "json", value: #"{"maxBytes":99}"#)),
                FrontendBody.toggle("home.banner", variant: Self.variant("x", type: "string", value: "sale")),
            ])
        }
        await client.refresh()
        #expect(settings.pageSize.value == 20, "a payload out of range is ignored")
        #expect(
            settings.pageSize.explanation.chain.contains { $0.detail == #"remote value "500" ignored: must be 1…100"# })
        #expect(settings.banner.value == "sale")
        #expect(settings.buttonColor.value == "#0000ff")
        let second = changes.current.filter { $0.origin == .remote }.reduce(into: Set<String>()) {
            $0.formUnion($1.keys)
        }
        #expect(second == ["pageSize", "banner"])
        // A QA override wins over the payload.
        settings.banner.overriddenValue = "qa"
        #expect(settings.banner.value == "qa" && settings.banner.source == .override)
    }

    @Test("frontend client: a disabled variant or one without a payload gives no remote value; a new context does")
    func frontendVariantsAndContext() async throws {
        let server = try LoopbackHTTPServer.started { request in
            let variant: [String: Any] =
                switch request.query["userId"] {
                case "1": Self.variant("blue", type: "string", value: "#0000ff", enabled: false)
                case "2": ["name": "plain", "enabled": true, "feature_enabled": true]
                default: Self.variant("red", type: "string", value: "#ff0000")
                }
            return .json(FrontendBody.json([FrontendBody.toggle("checkout.button", variant: variant)]))
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), context: UnleashContext(userId: "1"))
        let color = Setting(default: "#f05138", key: "color", remote: client.binding("checkout.button"))
        let registry = AnyFeatureRegistry()
        try registry.register(color)
        await client.start()
        #expect(color.value == "#f05138", "a disabled variant has no payload to use")
        await client.updateContext(UnleashContext(userId: "2"))
        #expect(color.value == "#f05138", "an enabled variant without a payload")
        await client.updateContext(UnleashContext(userId: "3"))
        #expect(color.value == "#ff0000")
        client.stop()
    }

    @Test("server client: the payload of the variant evaluated for the default context; a new state is seen")
    func serverPayloads() async throws {
        func body(_ value: String) -> String {
            """
            {"version":2,"features":[
              {"name":"search.page-size","enabled":true,"strategies":[{"name":"default"}],
               "variants":[{"name":"v","weight":1000,"stickiness":"default","payload":{"type":"number","value":"\(value)"}}]},
              {"name":"off","enabled":false,"strategies":[{"name":"default"}],
               "variants":[{"name":"v","weight":1000,"stickiness":"default","payload":{"type":"number","value":"7"}}]}
            ],"segments":[]}
            """
        }
        let state = Locked(body("30"))
        let server = try ClientServerModeTests.server(state)
        defer { server.stop() }
        let client = try ClientServerModeTests.client(server.url("/api"), disableMetrics: true)
        let registry = AnyFeatureRegistry()
        let pageSize = Setting(default: 20, range: 1...100, key: "pageSize", remote: client.binding("search.page-size"))
        let off = Setting(default: 1, key: "off", remote: client.binding("off"))
        try registry.register([pageSize, off])
        client.attach(to: registry)
        let changes = Locked<Set<String>>([])
        let subscription = registry.onChange { change in changes.withLock { $0.formUnion(change.keys) } }
        defer { subscription.cancel() }
        await client.start()
        #expect(pageSize.value == 30)
        #expect(pageSize.source == .remote(provider: "Unleash", fetchedAt: client.lastFetchTime))
        #expect(off.value == 1, "a disabled flag's variants do not count")
        #expect(changes.current.contains("pageSize"))

        changes.withLock { $0.removeAll() }
        state.withLock { $0 = body("40") }
        await client.fetchFeatures()
        client.stop()
        #expect(pageSize.value == 40)
        #expect(changes.current == ["pageSize"])
    }

    @Test("the generation changes with every new model, even when a new model takes a freed model's address")
    func generationChangesWithEveryModel() {
        let client = UnleashClient.testing(url: URL(fileURLWithPath: "/"))
        let source = UnleashPayloadSource(client)
        var last = source.settingValueGeneration.current
        #expect(source.settingValueGeneration.current == last, "no change, same generation")
        for _ in 0..<500 {
            // Two new models between reads: the first one's memory is free for the second's successor.
            _ = client.poller.invalidate { _ in }
            _ = client.poller.invalidate { _ in }
            let next = source.settingValueGeneration.current
            #expect(next != last)
            last = next
        }
    }
}
