import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: registry integration")
struct ClientRegistryTests {
    struct ShopFeatures: FeatureGroup {
        let newCheckout: UnleashFeature
        let legacy = Feature(key: "legacy-banner")

        init(client: any UnleashToggleSource) {
            newCheckout = UnleashFeature(toggleName: "checkout.new-flow", default: true, source: client)
        }
    }

    @Test("toggles back registry flags; unknown ones are registered under Unleash; QA can override them")
    func backing() async throws {
        let toggles = Locked(
            FrontendBody.json([
                FrontendBody.toggle("checkout.new-flow", enabled: false),
                FrontendBody.toggle("legacy-banner"), FrontendBody.toggle("search.fuzzy"),
            ]))
        let server = try LoopbackHTTPServer.started { _ in .json(toggles.current) }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        let registry = FeatureRegistry(ShopFeatures(client: client))
        #expect(registry.newCheckout.enabled, "the default applies while the client has no toggles")
        #expect(registry.newCheckout.resolution.source == .static)

        client.attach(to: registry)
        #expect(registry.remoteSources.contains { $0 === client })
        let changes = Locked<[FeatureChange]>([])
        let subscription = registry.onChange { change in changes.withLock { $0.append(change) } }
        defer { subscription.cancel() }
        await client.start()
        client.stop()

        #expect(!registry.newCheckout.enabled)
        let resolution = registry.newCheckout.resolution
        #expect(resolution.source == .remote(provider: "Unleash", fetchedAt: client.lastFetchTime))
        #expect(resolution.chain.map(\.value) == [nil, false, true])
        let fuzzy = try #require(registry.feature(forKey: "search.fuzzy") as? UnleashFeature)
        #expect(fuzzy.enabled)
        #expect(fuzzy.groupPath == ["Unleash"])
        #expect(registry.groups.map(\.key) == ["unleash"])
        #expect(registry.groups.first?.features.map(\.key) == ["search.fuzzy"])
        #expect(registry.feature(forKey: "checkout.new-flow") == nil, "a declared UnleashFeature stands for its toggle")
        #expect(
            !(registry.feature(forKey: "legacy-banner") is UnleashFeature), "a declared key is not registered again")
        #expect(changes.current.contains { $0.origin == .remote && $0.keys.contains("search.fuzzy") })
        #expect(changes.current.contains { $0.origin == .remote && $0.keys.contains("newCheckout") })

        fuzzy.override = .disabled
        #expect(!fuzzy.enabled)
        #expect(fuzzy.resolution.source == .override)
        fuzzy.override = .featureDefault

        changes.withLock { $0.removeAll() }
        toggles.withLock {
            $0 = FrontendBody.json([
                FrontendBody.toggle("legacy-banner"), FrontendBody.toggle("checkout.new-flow"),
                FrontendBody.toggle("payments.apple-pay"),
            ])
        }
        await registry.remoteSources.first?.refresh()
        #expect(registry.newCheckout.enabled)
        #expect(!fuzzy.enabled, "a toggle the frontend API leaves out is off")
        #expect(fuzzy.resolveDefault().chain.first?.detail?.contains("not in the answer") == true)
        #expect(registry.flag(forKey: "payments.apple-pay")?.enabled == true)
        let keys = changes.current.filter { $0.origin == .remote }.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        #expect(keys == ["newCheckout", "search.fuzzy", "payments.apple-pay"])
    }

    @Test("reading a flag counts for metrics; explaining it does not")
    func metricsFromFlags() async throws {
        let server = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? .status(200) : FrontendBody.response([FrontendBody.toggle("a")])
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        let registry = AnyFeatureRegistry()
        client.attach(to: registry)
        await client.start()
        // Registering reads the flag once (the registry's launch value); stopping sends that count.
        await client.stop(flushingMetrics: true)
        let flag = try #require(registry.flag(forKey: "a"))
        _ = flag.resolution
        _ = flag.enabled
        _ = flag.enabled
        let recorder = EventRecorder(client)
        await client.flushMetrics()
        #expect(recorder.sent.first?.toggles["a"]?.yes == 2)
    }

    @Test("a registry attached to a client with persisted or bootstrap toggles gets them at once")
    func attachWithBootstrap() throws {
        let client = UnleashClient.testing(
            url: URL(fileURLWithPath: "/"),
            bootstrap: .toggles([UnleashToggle(name: "boot", enabled: true)]))
        let registry = AnyFeatureRegistry()
        client.attach(to: registry)
        #expect(registry.flag(forKey: "boot")?.enabled == true)
        #expect(registry.feature(forKey: "boot")?.kind == .remote)
    }
}
