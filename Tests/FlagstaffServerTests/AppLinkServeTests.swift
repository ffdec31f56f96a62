import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Synchronization
import Testing

/// An app linked to the real `flagstaff serve` takes from it only what QA decided (issue 35): untouched members keep
/// the app's own values (a static default, a build-target rule, a dynamic closure whose value has moved on since the
/// app announced it, a typed setting), forced ones follow QA, and reset ones return to the app's.
@Suite("an app linked to serve")
struct AppLinkServeTests {
    /// What the app's dynamic flag computes, changed by the test after the app announced its manifest.
    final class Rollout: Sendable {
        let on = Atomic<Bool>(true)
    }

    struct LinkApp: FeatureGroup {
        let plain = Feature()
        let internalMenu = Feature(enabledIn: [.debug, .internal])
        let rollout: DynamicFeature
        let pageSize = Setting(default: 20, range: 5...100)

        init(rollout state: Rollout) {
            rollout = DynamicFeature { _ in state.on.load(ordering: .relaxed) }
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
            let appStore = directory.appendingPathComponent("app.json")
            let app = FeatureRegistry(
                LinkApp(rollout: state), store: try FileOverrideStore(url: appStore),
                options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
            app.waitForAnnouncement()  // written in the background
            state.on.store(false, ordering: .relaxed)  // the app's own value moves on after it reported `true`
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
            #expect(await eventually { link.provider.flags.count == 4 })
            // Untouched: the app's own values, never the server's evaluation.
            #expect(!app.rollout.enabled && app.rollout.resolution.source == .dynamic, "the server had `true`")
            #expect(app.internalMenu.enabled == ownInternalMenu && app.internalMenu.linkedValue == nil)
            #expect(app.plain.linkedValue == nil && app.pageSize.linkedValue == nil && app.pageSize.value == 20)

            // Forced by QA: followed.
            for arguments in [["set", "plain", "on"], ["set", "rollout", "on"], ["set", "pageSize", "50"]] {
                let result = try serve.flagstaff(arguments + ["--manifest", manifest, "--store", serverStore])
                #expect(result.status == 0, "\(result)")
            }
            #expect(await eventually { app.plain.enabled && app.rollout.enabled && app.pageSize.value == 50 })
            #expect(app.plain.resolution.source == .link(server: serve.baseURL))

            // Reset by QA: the app's own values again.
            for key in ["plain", "rollout", "pageSize"] {
                let result = try serve.flagstaff(["reset", key, "--manifest", manifest, "--store", serverStore])
                #expect(result.status == 0, "\(result)")
            }
            #expect(await eventually { !app.plain.enabled && !app.rollout.enabled && app.pageSize.value == 20 })
            #expect(app.rollout.resolution.source == .dynamic && app.pageSize.linkedValue == nil)
            #expect(app.storedOverrides.isEmpty, "the link never writes the app's store")
        })
    }
}
