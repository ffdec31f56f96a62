import Flagstaff
import Foundation
import Testing

/// `flagstaff` given a store opens the registry its app announced beside it, shows what only the app can evaluate
/// as the app reported it, and never opens the wrong registry on a real store (issue 35).
@Suite("the registry an app announced")
struct AnnouncedRegistryCommandTests {
    struct ShopFeatures: FeatureGroup {
        let checkoutV2 = Feature()
        let internalMenu = Feature(enabledIn: [.debug, .internal])
        let coinFlip = DynamicFeature { _ in true }
        let pageSize = Setting(default: 20, range: 5...100)
    }

    /// What an app does when it starts: a registry with a file store, which announces itself.
    func launchApp(_ sandbox: CLISandbox) throws -> FeatureRegistry<ShopFeatures> {
        let app = FeatureRegistry(
            ShopFeatures(), store: try FileOverrideStore(url: sandbox.storeURL),
            options: RegistryOptions(name: "Shop", storeWatchInterval: nil, launchOverrides: .none))
        app.waitForAnnouncement()  // written in the background
        return app
    }

    let noDemo = ["FLAGSTAFF_DEMO": "0"]

    @Test func aStoreAloneOpensTheAppsRegistryWithTheAppsOwnValues() async throws {
        let sandbox = try CLISandbox()
        let app = try launchApp(sandbox)
        app.checkoutV2.override = .enabled
        let list = try await sandbox.run(["list", "--store", sandbox.storePath], environment: noDemo)
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput.contains("checkoutV2") && !list.standardOutput.contains("blueText"), "\(list)")
        let target = BuildTarget.current
        let explained = try await sandbox.run(
            ["get", "internalMenu", "--explain", "--store", sandbox.storePath], environment: noDemo)
        #expect(explained.status == 0, "\(explained)")
        #expect(
            explained.standardOutput.contains(
                "\(target == .production ? "OFF" : "ON") by build target (\(target.rawValue))"),
            "the app's build target, not this tool's: \(explained)")
        #expect(
            explained.standardOutput.contains("the app's own value (\(target.rawValue) build, reported "),
            "\(explained)")
        let dynamic = try await sandbox.run(
            ["get", "coinFlip", "--explain", "--store", sandbox.storePath], environment: noDemo)
        #expect(
            dynamic.standardOutput.contains("ON by dynamic") && dynamic.standardOutput.contains("the app's own value"),
            "\(dynamic)")
        // QA's change goes to the app's store and the app sees it.
        let set = try await sandbox.run(["set", "pageSize", "50", "--store", sandbox.storePath], environment: noDemo)
        #expect(set.status == 0, "\(set)")
        app.refreshFromStore()
        #expect(app.pageSize.value == 50)
    }

    @Test func aStoreWithNoAnnouncedRegistryIsAnErrorNamingBothWaysOut() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"checkoutV2":"on"}}"#)
        for command in [["list"], ["doctor", "--fix"], ["set", "checkoutV2", "off"]] {
            let result = try await sandbox.run(command + ["--store", sandbox.storePath], environment: noDemo)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(
                result.standardError.contains(
                    "no app has announced its registry beside the store \(sandbox.storePath) (\(sandbox.storePath).manifest.json does not exist)"
                ) && result.standardError.contains("--manifest FILE") && result.standardError.contains("--demo"),
                "\(result)")
        }
        #expect(try sandbox.storedJSON() == ["checkoutV2": #""on""#], "nothing was changed")
        let demo = try await sandbox.run(
            ["get", "blueText", "--demo", "--store", sandbox.storePath], environment: noDemo)
        #expect(demo.status == 0 && demo.standardOutput.hasPrefix("off"), "\(demo)")
        let both = try await sandbox.run(["list", "--demo", "--manifest", "m.json"], environment: noDemo)
        #expect(both.status == 2 && both.standardError.contains("either --demo or --manifest"), "\(both)")
    }

    @Test func theDoctorRemovesOrphansFromTheAppsOwnRegistryAndSaysHowManyFirst() async throws {
        let sandbox = try CLISandbox()
        _ = try launchApp(sandbox)
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"checkoutV2":"on","retired":"on"}}"#)
        let fixed = try await sandbox.run(["doctor", "--fix", "--store", sandbox.storePath], environment: noDemo)
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.standardError.contains("removing 1 override(s) of keys Shop does not declare"), "\(fixed)")
        #expect(try sandbox.storedJSON() == ["checkoutV2": #""on""#])
    }

    @Test func theAnnouncedManifestIsNeverReadThroughALink() async throws {
        let sandbox = try CLISandbox()
        let elsewhere = try sandbox.write("elsewhere.json", #"{"name": "Elsewhere", "flags": [], "groups": []}"#)
        #expect(symlink(elsewhere, sandbox.storePath + ".manifest.json") == 0)
        let result = try await sandbox.run(["list", "--store", sandbox.storePath], environment: noDemo)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("symbolic link"), "\(result)")
    }
}
