import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Observation
import Testing

@testable import FlagstaffRemote

private enum Theme: String, CaseIterable, Codable, Sendable, SettingValue { case light, dark, system }

private struct LinkedFeatures: FeatureGroup {
    let newFeed = Feature()
    let pageSize = Setting(default: 20, range: 5...100)
    let theme = Setting(default: Theme.system)
    let welcome = Setting(default: "Welcome")
}

/// A registry following an OFREP server (the QA link): linked values win over the app's own, say where they came
/// from, lose to a task-local test override, and unlinking restores the app's values.
@Suite("OFREP link")
struct OFREPLinkTests {
    private func registry() -> FeatureRegistry<LinkedFeatures> {
        FeatureRegistry(
            LinkedFeatures(),
            options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
    }

    private func provider(_ server: FakeOFREPServer) -> OFREPProvider {
        // The real clock: no test here waits on it, and a first request that fails under load is retried.
        OFREPProvider(options: OFREPOptions(baseURL: server.baseURL, random: { 0.5 }))
    }

    @Test("linked values win over the local override, with the source link(server:) in the resolution")
    func linkedValues() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true", "pageSize": "50", "theme": #""dark""#])
            let features = registry()
            features.newFeed.override = .disabled
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await eventually { features.pageSize.value == 50 && features.theme.value == .dark })
            #expect(features.newFeed.enabled)
            #expect(features.theme.value == .dark)
            #expect(features.welcome.value == "Welcome")

            let origin = "http://127.0.0.1:\(server.server.port)"
            #expect(features.newFeed.resolution.source == .link(server: origin))
            #expect(features.newFeed.resolution.chain.map(\.source.displayName) == ["link", "override", "default"])
            #expect(features.pageSize.source == .link(server: origin))
            #expect(features.pageSize.explanation.chain.first?.value?.json == "50")
            #expect(features.welcome.source == .static)
            // The local override is still there, under the link.
            #expect(features.newFeed.override == .disabled)
            #expect(features.newFeed.linkedValue == .on)
            #expect(features.remoteSources.contains { $0 === link.provider })
        })
    }

    @Test("a change on the server reaches the registry through the event stream; subscribers are told")
    func followsTheServer() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "false"])
            let features = registry()
            let changes = AnnotatedMutex<[Set<String>]>([])
            let subscription = features.onChange { change in changes.withLock { $0.append(change.keys) } }
            defer { subscription.cancel() }
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await server.events.waitForConnections(1))
            #expect(await eventually { features.newFeed.linkedValue == .off })
            server.publish("newFeed", "true", id: "1")
            #expect(await eventually { features.newFeed.enabled })
            #expect(changes.withLock { $0 }.contains(["newFeed"]))
        })
    }

    @Test("a value of the wrong type or out of range is not linked and is reported; the member keeps its own")
    func refusedValues() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "3", "pageSize": "1000", "theme": #""neon""#])
            let features = registry()
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await eventually { link.problems.count == 3 })
            #expect(link.problems["pageSize"] == "must be 5…100")
            #expect(features.pageSize.value == 20)
            #expect(!features.newFeed.enabled)
            #expect(features.theme.value == .system)
            #expect(features.newFeed.resolution.source == .static)
        })
    }

    @Test("a task-local test override still wins over a linked value")
    func testScopeWins() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true", "pageSize": "50"])
            let features = registry()
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await eventually { features.pageSize.value == 50 })
            withFeature(features.newFeed).disabled {
                #expect(!features.newFeed.enabled)
                #expect(features.newFeed.resolution.source == .testOverride)
            }
            withSetting(features.pageSize, value: 7) {
                #expect(features.pageSize.value == 7)
            }
            #expect(features.newFeed.enabled)
        })
    }

    @Test("unlinking restores the app's own values (override, default) and tells observers")
    func unlink() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true", "pageSize": "50"])
            let features = registry()
            features.pageSize.overriddenValue = 30
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await eventually { features.pageSize.value == 50 })
            let told = AnnotatedMutex(false)
            withObservationTracking {
                _ = features.newFeed.enabled
            } onChange: {
                told.withLock { $0 = true }
            }
            link.unlink()
            #expect(!link.isLinked)
            #expect(features.pageSize.value == 30)
            #expect(features.pageSize.source == .override)
            #expect(!features.newFeed.enabled)
            #expect(features.newFeed.linkedValue == nil)
            #expect(told.withLock { $0 })
            // A later answer does not link again.
            #expect(await server.events.waitForConnections(1))
            server.publish("pageSize", "60", id: "2")
            #expect(await eventually { link.provider.value(forKey: "pageSize", as: Int.self) == 60 })
            #expect(features.pageSize.value == 30)
        })
    }

    @Test("an answer that changes one key updates that member only; a key gone or refused restores the app's value")
    func incrementalApply() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true", "pageSize": "50", "theme": #""dark""#])
            let features = registry()
            features.pageSize.overriddenValue = 30
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await server.events.waitForConnections(1))
            #expect(await eventually { features.pageSize.value == 50 && features.theme.value == .dark })
            let appliedBefore = link.appliedKeyCount
            // One key changed: one member is looked at, the others keep their linked values.
            server.publish("theme", #""light""#, id: "1")
            #expect(await eventually { features.theme.value == .light })
            #expect(link.appliedKeyCount == appliedBefore + 1)
            #expect(features.newFeed.enabled && features.pageSize.value == 50)
            #expect(features.newFeed.resolution.source == .link(server: "http://127.0.0.1:\(server.server.port)"))
            // Refused, then gone from the answer: the app's own value (the override) each time.
            server.publish("pageSize", "1000", id: "2")
            #expect(await eventually { link.problems["pageSize"] == "must be 5…100" })
            #expect(features.pageSize.value == 30 && features.pageSize.source == .override)
            // A member's value, its linked value and the link's problems change one after the other within one
            // apply: each wait is for all of them.
            server.publish("pageSize", "60", id: "3")
            #expect(await eventually { features.pageSize.value == 60 && link.problems.isEmpty })
            server.publish("pageSize", nil, id: "4")
            #expect(await eventually { features.pageSize.linkedValue == nil && features.pageSize.value == 30 })
            #expect(features.pageSize.source == .override)
            #expect(features.theme.value == .light && features.newFeed.enabled)
            // Unlinking still restores every member.
            link.unlink()
            #expect(features.linkedFeatures.isEmpty)
            #expect(!features.newFeed.enabled && features.theme.value == .system)
        })
    }

    @Test("launch overrides stay above the link")
    func launchOverridesWin() async throws {
        // The test's own waits on a private executor; the provider's unstructured tasks still run on the busy
        // global pool, so every wait is for a condition, with a long timeout, never for a time.
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["newFeed": "true"])
            let features = FeatureRegistry(
                LinkedFeatures(),
                options: RegistryOptions(
                    storeWatchInterval: nil, launchOverrides: LaunchOverrides(values: ["newFeed": .text("off")])))
            let link = provider(server).link(to: features)
            defer { link.provider.stop() }
            #expect(await eventually { features.newFeed.linkedValue == .on })
            #expect(!features.newFeed.enabled)
            #expect(features.newFeed.resolution.source == .launch)
        })
    }
}
