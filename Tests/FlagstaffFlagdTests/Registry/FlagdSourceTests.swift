import Flagstaff
import FlagstaffTestSupport
import Foundation
import Observation
import Synchronization
import Testing

@testable import FlagstaffFlagd

/// flagd definitions as a registry source: members for every flag, evaluated for the app's context, QA overrides
/// above them, and change notifications for exactly the members whose evaluation changed.
@Suite("flagd: definitions as a registry source")
struct FlagdSourceTests {
    static let json = #"""
        {"flags": {
          "new-checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
            "targeting": {"if": [{"ends_with": [{"var": "email"}, "@example.com"]}, "on", null]}},
          "button-color": {"state": "ENABLED", "variants": {"blue": "#0000ff", "red": "#ff0000"},
            "defaultVariant": "red", "targeting": {"if": [{"==": [{"var": "plan"}, "pro"]}, "blue", null]}},
          "page-size": {"state": "ENABLED", "variants": {"small": 10, "big": 50}, "defaultVariant": "small"},
          "beta": {"state": "DISABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"}
        }}
        """#

    static func registry(context: [String: JSONSettingValue] = [:]) throws -> (AnyFeatureRegistry, FlagdSource) {
        let definitions = try FlagdDefinitions(json: Data(json.utf8), source: "flags.json")
        let source = FlagdSource(definitions: definitions, context: context)
        let registry = AnyFeatureRegistry(
            options: RegistryOptions(storeWatchInterval: nil, assertOnProblems: false, launchOverrides: .none))
        source.attach(to: registry)
        return (registry, source)
    }

    @Test("every flag becomes a member of the type its variants have, under flagd")
    func members() throws {
        let (registry, _) = try Self.registry()
        #expect(registry.feature(forKey: "new-checkout") is FlagdFeature)
        #expect(registry.feature(forKey: "beta") is FlagdFeature)
        #expect(registry.feature(forKey: "button-color") is Setting<String>)
        #expect(registry.feature(forKey: "page-size") is Setting<Int>)
        #expect((registry.feature(forKey: "button-color") as? Setting<String>)?.value == "#ff0000")
        #expect((registry.feature(forKey: "page-size") as? Setting<Int>)?.value == 10)
        // DISABLED: flagd answers with the caller's default, here the member's default (the default variant's).
        #expect((registry.feature(forKey: "beta") as? FlagdFeature)?.enabled == true)
        #expect(registry.feature(forKey: "beta")?.explanation.source == .static)
    }

    @Test("a new context re-evaluates; onChange and Observation hear of exactly the members that changed")
    func contextChange() throws {
        let (registry, source) = try Self.registry(context: ["targetingKey": .string("u1")])
        let checkout = try #require(registry.feature(forKey: "new-checkout") as? FlagdFeature)
        let color = try #require(registry.feature(forKey: "button-color") as? Setting<String>)
        let pageSize = try #require(registry.feature(forKey: "page-size") as? Setting<Int>)
        #expect(!checkout.enabled)

        let changes = Mutex<[Set<String>]>([])
        let subscription = registry.onChange { change in changes.withLock { $0.append(change.keys) } }
        defer { subscription.cancel() }
        let checkoutObserved = ObservedCalls { _ = checkout.enabled }
        let colorObserved = ObservedCalls { _ = color.value }
        let pageSizeObserved = ObservedCalls { _ = pageSize.value }

        source.setContext(["targetingKey": .string("u1"), "email": .string("ann@example.com")])
        #expect(checkout.enabled)
        #expect(color.value == "#ff0000")
        #expect(changes.withLock { $0 } == [["new-checkout"]])
        #expect(checkoutObserved.fired)
        #expect(!colorObserved.fired && !pageSizeObserved.fired)

        source.setContext(["targetingKey": .string("u1"), "email": .string("ann@example.com"), "plan": .string("pro")])
        #expect(color.value == "#0000ff")
        #expect(changes.withLock { $0 } == [["new-checkout"], ["button-color"]])
        #expect(colorObserved.fired && !pageSizeObserved.fired)

        // The same context again: nothing changed, nobody is told.
        source.setContext(["targetingKey": .string("u1"), "email": .string("ann@example.com"), "plan": .string("pro")])
        #expect(changes.withLock { $0.count } == 2)
    }

    @Test("a QA override beats the flagd value; the explanation names flagd, the variant and the reason")
    func overrideAndExplanation() throws {
        let (registry, _) = try Self.registry(context: ["email": .string("ann@example.com")])
        let checkout = try #require(registry.feature(forKey: "new-checkout") as? FlagdFeature)
        let color = try #require(registry.feature(forKey: "button-color") as? Setting<String>)
        #expect(checkout.enabled)

        let explained = checkout.explanation
        let remote = try #require(explained.chain.first { $0.source.displayName == "remote" })
        guard case .remote(let provider, _) = explained.source else {
            Issue.record("decided by \(explained.source), not flagd")
            return
        }
        #expect(provider == "flagd")
        #expect(remote.detail == #"variant "on", TARGETING_MATCH"#)
        let colorStep = try #require(color.explanation.chain.first { $0.source.displayName == "remote" })
        #expect(colorStep.detail == #"variant "red", DEFAULT"#)

        checkout.override = .disabled
        color.overriddenValue = "#0000ff"
        #expect(!checkout.enabled && checkout.explanation.source == .override)
        #expect(color.value == "#0000ff" && color.explanation.source == .override)
        checkout.override = .featureDefault
        #expect(checkout.enabled)
    }

    @Test("new definitions register new flags and announce the members whose evaluation changed")
    func reload() throws {
        let (registry, source) = try Self.registry()
        let changes = Mutex<[Set<String>]>([])
        let subscription = registry.onChange { change in changes.withLock { $0.append(change.keys) } }
        defer { subscription.cancel() }
        let next = Self.json.replacingOccurrences(of: #""defaultVariant": "small""#, with: #""defaultVariant": "big""#)
            .replacingOccurrences(
                of: #""beta": {"#,
                with: #""dark-mode": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}, "beta": {"#
            )
        source.reload(from: try FlagdDefinitions(json: Data(next.utf8)))
        #expect((registry.feature(forKey: "page-size") as? Setting<Int>)?.value == 50)
        #expect((registry.feature(forKey: "dark-mode") as? FlagdFeature)?.enabled == true)
        #expect(changes.withLock { $0 } == [["page-size", "dark-mode"]])
    }

    @Test("a watched file is read again when it changes; a broken one keeps the definitions before")
    func watchedFile() async throws {
        let directory = TestDirectory.make("flagd")
        let file = directory.appendingPathComponent("flags.json")
        try Data(Self.json.utf8).write(to: file)
        let source = try FlagdSource(contentsOf: file)
        let registry = AnyFeatureRegistry(
            options: RegistryOptions(storeWatchInterval: nil, assertOnProblems: false, launchOverrides: .none))
        source.attach(to: registry)
        source.startWatching(every: .milliseconds(20))
        defer { source.stopWatching() }
        let pageSize = try #require(registry.feature(forKey: "page-size") as? Setting<Int>)
        #expect(pageSize.value == 10)

        try Data("{\"flags\": {\"page-size\": ".utf8).write(to: file)
        #expect(
            await eventually { if case .failed = source.status.state { true } else { false } })
        #expect(pageSize.value == 10)

        let next = Self.json.replacingOccurrences(
            of: #""defaultVariant": "small""#, with: #""defaultVariant": "big""#)
        try Data(next.utf8).write(to: file)
        #expect(await eventually { pageSize.value == 50 })
        #expect(source.status.state == .ok)
    }
}
