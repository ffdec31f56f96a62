import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Synchronization
import Testing

/// An app linked to the real `flagstaff serve` takes from it only what QA decided (issue 35): untouched members keep
/// the app's own values (a static default, a build-target rule, a dynamic closure and a remote value that have moved on
/// since the app announced them, a typed setting), forced ones follow QA, and reset ones return to the app's.
@Suite("an app linked to serve")
struct AppLinkServeTests {
    /// What the app's dynamic flag computes, changed by the test after the app announced its manifest.
    final class Rollout: Sendable {
        let on = Atomic<Bool>(true)
    }

    /// The app's remote-config provider: one value it fetched, which changes after the app announced it.
    final class AppRemote: SettingRemoteSource {
        let settingValueGeneration = SettingSourceGeneration()
        let color = Mutex("#00ff00")

        func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
            key == "cardColor"
                ? RemoteSettingValue(text: color.withLock { $0 }, provider: "Firebase", fetchedAt: nil) : nil
        }

        func set(_ text: String) {
            color.withLock { $0 = text }
            settingValueGeneration.advance()
        }
    }

    struct LinkApp: FeatureGroup {
        let plain = Feature()
        let internalMenu = Feature(enabledIn: [.debug, .internal])
        let rollout: DynamicFeature
        let pageSize = Setting(default: 20, range: 5...100)
        let cardColor: Setting<String>

        init(rollout state: Rollout, remote: AppRemote) {
            rollout = DynamicFeature { _ in state.on.load(ordering: .relaxed) }
            cardColor = Setting(default: "#ffffff", remote: SettingRemoteBinding(source: remote, key: "cardColor"))
        }
    }

    @Test func onlyWhatQADecidedReachesTheApp() async throws {
        try await offCooperativePool(timing: {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "flagstaff-applink-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            // The app: its own store, which it announces its registry beside.
            let state = Rollout()
            let remote = AppRemote()
            let appStore = directory.appendingPathComponent("app.json")
            let app = FeatureRegistry(
                LinkApp(rollout: state, remote: remote), store: try FileOverrideStore(url: appStore),
                options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
            app.waitForAnnouncement()  // written in the background
            state.on.store(false, ordering: .relaxed)  // the app's own value moves on after it reported `true`
            remote.set("#0000ff")  // and so does its remote value
            let ownInternalMenu = app.internalMenu.enabled

            // QA's server on the app's announced registry, with a store of its own.
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
            environment["HOME"] = directory.path
            let manifest = appStore.path + ".manifest.json"
            let serverStore = directory.appendingPathComponent("serve.json").path
            let serve = try await ServeProcess(
                arguments: ["--manifest", manifest, "--store", serverStore], environment: environment)
            defer { _ = serve.terminate() }

            let link = OFREPProvider(options: OFREPOptions(baseURL: URL(string: serve.baseURL)!)).link(to: app)
            defer { link.provider.stop() }
            #expect(await eventually { link.provider.flags.count == 5 })
            // Untouched: the app's own values, never the server's evaluation.
            #expect(!app.rollout.enabled && app.rollout.resolution.source == .dynamic, "the server had `true`")
            #expect(app.internalMenu.enabled == ownInternalMenu && app.internalMenu.linkedValue == nil)
            #expect(app.plain.linkedValue == nil && app.pageSize.linkedValue == nil && app.pageSize.value == 20)
            #expect(app.cardColor.value == "#0000ff" && app.cardColor.linkedValue == nil, "the server had #00ff00")

            // Forced by QA: followed.
            for arguments in [
                ["set", "plain", "on"], ["set", "rollout", "on"], ["set", "pageSize", "50"],
                ["set", "cardColor", "#123456"],
            ] {
                let result = try serve.flagstaff(arguments + ["--manifest", manifest, "--store", serverStore])
                #expect(result.status == 0, "\(result)")
            }
            #expect(
                await eventually {
                    app.plain.enabled && app.rollout.enabled && app.pageSize.value == 50
                        && app.cardColor.value == "#123456"
                })
            #expect(app.plain.resolution.source == .link(server: serve.baseURL))

            // Reset by QA: the app's own values again.
            for key in ["plain", "rollout", "pageSize", "cardColor"] {
                let result = try serve.flagstaff(["reset", key, "--manifest", manifest, "--store", serverStore])
                #expect(result.status == 0, "\(result)")
            }
            #expect(
                await eventually {
                    !app.plain.enabled && !app.rollout.enabled && app.pageSize.value == 20
                        && app.cardColor.value == "#0000ff"
                })
            #expect(app.rollout.resolution.source == .dynamic && app.pageSize.linkedValue == nil)
            #expect(app.storedOverrides.isEmpty, "the link never writes the app's store")
        })
    }
}
