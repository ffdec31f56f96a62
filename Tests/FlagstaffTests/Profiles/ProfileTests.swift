import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

struct ProfileTestFeatures: FeatureGroup {
    let checkoutV2 = Feature(key: "checkout.v2")
    let checkoutExpress = Feature(key: "checkout.express")
    let maxItems = Setting(default: 10, range: 1...100, key: "maxItems")
}

@Suite struct ProfileTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    var library: ProfileLibrary { ProfileLibrary(folder: ProfileLibrary.defaultFolder(forStore: file)) }

    func registry() throws -> FeatureRegistry<ProfileTestFeatures> {
        FeatureRegistry(
            ProfileTestFeatures(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: nil))
    }

    @Test func theDefaultFolderIsBesideTheStore() {
        #expect(ProfileLibrary.defaultFolder(forStore: file).path == directory.path + "/overrides.profiles")
    }

    @Test func namesThatCouldLeaveTheFolderAreRefused() {
        for name in [
            "", "..", ".hidden", "a/b", "../x", "a\\b", "tab\there", "semi;colon", String(repeating: "a", count: 101),
        ] {
            let error = #expect(throws: ProfileError.self, "\(name)") { try ProfileLibrary.validate(name: name) }
            #expect(error?.isInvalidName == true)
        }
        for name in ["checkout-v2", "qa_1.2", "Überprüfung"] {
            #expect(throws: Never.self) { try ProfileLibrary.validate(name: name) }
        }
        #expect(throws: ProfileError.self) { try library.load("../overrides") }
        // Each refusal names what is wrong: traversal as traversal, not as a leading dot.
        for (name, reason) in [
            ("../x", "path separator"), ("..", "outside the profiles folder"), ("..x", "outside the profiles folder"),
            (".hidden", "may not start with '.'"),
        ] {
            let error = #expect(throws: ProfileError.self) { try ProfileLibrary.validate(name: name) }
            #expect(error.map { "\($0)" }?.contains(reason) == true, "\(name): \(error.map { "\($0)" } ?? "")")
        }
    }

    @Test func saveListLoadAndDeleteRoundTripInTheExportFormat() throws {
        let profile = Profile(
            name: "checkout-v2", overrides: ["checkout.v2": .on, "maxItems": try OverrideValue(json: "50")],
            removals: ["checkout.express"])
        #expect(try library.save(profile) == false)
        #expect(try library.save(profile) == true, "a second save replaces")
        #expect(try library.names() == ["checkout-v2"])
        #expect(try library.load("checkout-v2") == profile)
        let text = try String(contentsOf: library.url(for: "checkout-v2"), encoding: .utf8)
        #expect(text.contains(#""version": 1"#) && text.contains(#""checkout.express": "default""#))
        try library.delete("checkout-v2")
        #expect(try library.names().isEmpty)
        #expect((#expect(throws: ProfileError.self) { try library.load("checkout-v2") })?.isNotFound == true)
        #expect((#expect(throws: ProfileError.self) { try library.delete("checkout-v2") })?.isNotFound == true)
    }

    @Test func aMalformedProfileIsReportedWithItsJSONPath() throws {
        try FileManager.default.createDirectory(at: library.folder, withIntermediateDirectories: true)
        try Data(#"{"version":1,"overrides":["on"]}"#.utf8).write(to: library.url(for: "broken"))
        let error = #expect(throws: ProfileError.self) { try library.load("broken") }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("broken.json: $.overrides: expected an object"), "\(message)")
    }

    @Test func changesMergeByDefaultAndReplaceClearsOnlyClearableKeys() {
        let profile = Profile(name: "p", overrides: ["a": .on, "b": .off], removals: ["c"])
        let current: [String: OverrideValue] = ["a": .on, "c": .on, "d": .on, "unknown.key": .off]
        #expect(profile.changes(from: current, replace: false) == ["b": .set(.off), "c": .remove])
        let replaced = profile.changes(from: current, replace: true) { $0 != "unknown.key" }
        #expect(replaced == ["b": .set(.off), "c": .remove, "d": .remove])
    }

    @Test func applyIsOneJournaledChangeThatUndoRevertsAtOnce() throws {
        let features = try registry()
        features.checkoutExpress.override = .enabled
        let profile = Profile(
            name: "checkout-v2", overrides: ["checkout.v2": .on, "maxItems": try OverrideValue(json: "50")])
        let changes = try profile.apply(to: features, replace: true).changes
        #expect(Set(changes.keys) == ["checkout.v2", "maxItems", "checkout.express"])
        #expect(features.checkoutV2.enabled && features.maxItems.value == 50 && !features.checkoutExpress.enabled)
        let last = try #require(try (features.store as? FileOverrideStore)?.journal()?.read().changes.last)
        #expect(last.origin == .profile && last.profile == "checkout-v2" && last.keys.count == 3)
        try ChangeHistory(features).undo()
        #expect(features.storedOverrides == ["checkout.express": .on])
    }

    @Test func unknownKeysAreStoredAndInvalidValuesRefuseTheWholeApply() throws {
        let features = try registry()
        try Profile(name: "p", overrides: ["not.declared": .on]).apply(to: features)
        #expect(features.storedOverrides["not.declared"] == .on)
        let bad = Profile(name: "bad", overrides: ["checkout.v2": .on, "maxItems": try OverrideValue(json: "500")])
        #expect(throws: InvalidOverrideValue.self) { try bad.apply(to: features) }
        #expect(!features.checkoutV2.enabled, "nothing was applied")
    }
}
