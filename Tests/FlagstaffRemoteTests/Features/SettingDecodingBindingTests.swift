import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// Settings bound to a `RemoteConfig` decode its values as the Firebase SDK does, not by the setting's own rules
/// for typed text.
@Suite struct SettingDecodingBindingTests {
    @Test func boundSettingsDecodeLikeTheFirebaseSDK() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: [
            "max_items": "12abc", "ratio": "1e-1", "on": "yes", "theme": "dark", "bad": "2.5", "range": "500",
        ])
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 3600),
            environment: .manual(clock))
        let maxItems = Setting(default: 20, range: 1...100, key: "maxItems", remote: config.binding("max_items"))
        let ratio = Setting(default: 0.5, key: "ratio", remote: config.binding("ratio"))
        let flagLike = Setting(default: false, key: "on", remote: config.binding("on"))
        let theme = Setting(default: Theme.system, key: "theme", remote: config.binding("theme"))
        let bad = Setting(default: 1, key: "bad", remote: config.binding("bad"))
        let outOfRange = Setting(default: 1, range: 1...100, key: "range", remote: config.binding("range"))
        let registry = AnyFeatureRegistry()
        try registry.register([maxItems, ratio, flagLike, theme, bad, outOfRange])
        config.attach(to: registry)
        await config.fetch()
        config.activate()
        #expect(maxItems.value == 12, "numberValue reads the leading number, as the SDK does")
        #expect(ratio.value == 0.1)
        #expect(flagLike.value, "boolValue: yes is true")
        #expect(theme.value == .dark)
        #expect(bad.value == 1, "2.5 does not fit an Int: ignored")
        #expect(bad.explanation.chain.first { $0.source.displayName == "remote" }?.detail?.contains("ignored") == true)
        #expect(outOfRange.value == 1)
        #expect(maxItems.source == .remote(provider: "scripted", fetchedAt: clock.date))
    }
}
