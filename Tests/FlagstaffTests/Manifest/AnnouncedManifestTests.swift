import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// An app's registry with a file store writes its manifest beside the store, with what only the app can evaluate,
/// so that tools given the store open the app's own registry (issue 35).
@Suite struct AnnouncedManifestTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    var announced: URL { directory.appendingPathComponent("overrides.json.manifest.json") }

    struct Announcing: FeatureGroup {
        let plain = Feature()
        let internalMenu = Feature(enabledIn: [.debug, .internal])
        let coinFlip = DynamicFeature { _ in true }
        let pageSize = Setting(default: 20, range: 5...100)
    }

    func registry(clock: ManualClock) throws -> FeatureRegistry<Announcing> {
        let registry = FeatureRegistry(
            Announcing(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: nil, wallClock: clock))
        registry.waitForAnnouncement()
        return registry
    }

    @Test func theManifestIsWrittenBesideTheStoreWithTheAppsOwnValues() throws {
        let clock = ManualClock()
        let features = try registry(clock: clock)
        features.internalMenu.override = .disabled  // QA's override is not the app's own value
        let manifest = try RegistryManifest.decode(try Data(contentsOf: announced), source: announced.path)
        #expect(manifest == features.announcedManifest(at: clock.date).withoutReport(of: manifest))
        let app = try #require(manifest.app)
        #expect(app.buildTarget == .current && app.reportedAt == clock.date)
        #expect(
            app.values == [
                "internalMenu": .init(value: .bool(BuildTarget.current != .production), source: .buildTarget),
                "coinFlip": .init(value: .bool(true), source: .dynamic),
            ], "only what the app alone evaluates; static members are described by the manifest itself")
        #expect(manifest.flags.map(\.key) == ["plain", "internalMenu", "coinFlip"])
        #expect(manifest.settings.map(\.key) == ["pageSize"])
    }

    @Test func anUnchangedRegistryLeavesTheFileAndARegistrationRewritesIt() throws {
        let clock = ManualClock()
        do { _ = try registry(clock: clock) }
        let first = try Data(contentsOf: announced)
        clock.advance(by: .seconds(60))
        let features = try registry(clock: clock)
        #expect(try Data(contentsOf: announced) == first, "same declarations and values: the file is left alone")
        try features.register(Feature(key: "remote.added"), in: "remote")
        features.waitForAnnouncement()
        let after = try RegistryManifest.decode(try Data(contentsOf: announced), source: announced.path)
        #expect(after.groups.map(\.key) == ["remote"])
        #expect(after.app?.reportedAt == clock.date)
    }

    @Test func toolsAndInMemoryStoresAnnounceNothing() throws {
        FeatureRegistry(
            Announcing(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: nil, announcesManifest: false)
        ).waitForAnnouncement()
        FeatureRegistry(Announcing()).waitForAnnouncement()
        #expect(!FileManager.default.fileExists(atPath: announced.path))
    }

    @Test func aReportReadsBackAndBadReportsNameTheirPath() throws {
        let text = #"""
            {"name": "App", "flags": [], "groups": [],
             "app": {"buildTarget": "debug", "reportedAt": "2026-11-28T18:00:00.000Z",
                     "values": {"a": {"value": true, "source": "buildTarget"}, "b": {"value": 5, "source": "remote"}}}}
            """#
        let manifest = try RegistryManifest.decode(Data(text.utf8))
        #expect(manifest.app?.values["b"] == .init(value: .number(5), source: .remote))
        #expect(manifest.app?.summary == "debug build, reported 2026-11-28 18:00:00 UTC")
        let encoded = try JSONEncoder().encode(manifest)
        #expect(try RegistryManifest.decode(encoded) == manifest)
        for (bad, expected) in [
            (
                #""app": {"buildTarget": "beta", "reportedAt": "2026-11-28T18:00:00Z", "values": {}}"#,
                "$.app.buildTarget"
            ),
            (#""app": {"buildTarget": "debug", "reportedAt": "yesterday", "values": {}}"#, "$.app.reportedAt"),
            (
                #""app": {"buildTarget": "debug", "reportedAt": "2026-11-28T18:00:00Z", "values": {"a": {"value": 1}}}"#,
                "source"
            ),
        ] {
            let error = #expect(throws: ManifestError.self) {
                try RegistryManifest.decode(Data(#"{"name": "App", \#(bad)}"#.utf8))
            }
            #expect(error.map { "\($0)" }?.contains(expected) == true, "\(String(describing: error))")
        }
    }
}

extension RegistryManifest {
    /// This manifest with `other`'s report time (to compare two announcements of the same registry).
    fileprivate func withoutReport(of other: RegistryManifest) -> RegistryManifest {
        var copy = self
        copy.app?.reportedAt = other.app?.reportedAt ?? Date(timeIntervalSince1970: 0)
        return copy
    }
}
