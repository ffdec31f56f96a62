import Foundation
import Testing

@testable import Flagstaff

@Suite struct ManifestTests {
    @Test func registryExportsAManifestThatRebuildsAnEquivalentRegistry() throws {
        let app = FeatureRegistry(AppFeatures())
        let manifest = app.manifest()
        #expect(manifest.name == "App Features")
        #expect(manifest.flags.map(\.key).prefix(4) == ["inheritedFlag", "blueText", "debugLogging", "useTabBarNav"])
        #expect(manifest.groups.map(\.key) == ["list", "deep"])
        #expect(manifest.groups[1].groups[0].flags[0].key == "deep.inner.deepFlag")
        let data = try JSONEncoder().encode(manifest)
        let decoded = try RegistryManifest.decode(data)
        #expect(decoded == manifest)

        let rebuilt = try AnyFeatureRegistry(manifest: decoded, store: InMemoryOverrideStore())
        // A manifest lists top-level flags before groups, so compare per key and per group.
        func describe(_ registry: AnyFeatureRegistry) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: registry.allFeatures.map {
                    ($0.key, "\($0.label)|\($0.groupPath)|\($0.requiresRestart)|\($0.description ?? "")")
                })
        }
        #expect(describe(rebuilt) == describe(app))
        #expect(rebuilt.rootFeatures.map(\.key) == app.rootFeatures.map(\.key))
        #expect(
            rebuilt.groups.map(\.allFeatures).map { $0.map(\.key) }
                == app.groups.map(\.allFeatures).map { $0.map(\.key) })
        #expect(rebuilt.flag(forKey: "debugLogging")?.enabled == true)
        #expect(rebuilt.feature(forKey: "internalTools")?.kind == .buildTarget)
        #expect(rebuilt.feature(forKey: "tuesdayExperiment")?.kind == .dynamic)
        #expect(rebuilt.manifest() == manifest.withDynamicDefaultsFrom(rebuilt))
    }

    @Test func minimalManifestUsesDefaults() throws {
        let manifest = try RegistryManifest.decode(Data(#"{"name":"Tiny","flags":[{"key":"a.b.newURLFormat"}]}"#.utf8))
        let registry = try AnyFeatureRegistry(manifest: manifest)
        let flag = try #require(registry.flag(forKey: "a.b.newURLFormat"))
        #expect(flag.label == "New URL Format")
        #expect(!flag.enabled && !flag.requiresRestart && flag.kind == .static)
        #expect(registry.name == "Tiny")
    }

    @Test(
        arguments: [
            (#"{"flags":[]}"#, "$.name", "missing required field \"name\""),
            (#"{"name":"x","flags":[{"key":"a","default":"yes"}]}"#, "$.flags[0].default", "expected a boolean"),
            (#"{"name":"x","flags":[{"key":"a","defualt":true}]}"#, "$.flags[0].defualt", "unknown field \"defualt\""),
            (
                #"{"name":"x","groups":[{"key":"g","flags":[{"key":"a","kind":"magic"}]}]}"#,
                "$.groups[0].flags[0].kind", "kind"
            ),
            (
                #"{"name":"x","flags":[{"key":"a"}],"groups":[{"key":"g","flags":[{"key":"a"}]}]}"#,
                "$.groups[0].flags[0].key", "duplicate key 'a' (first at $.flags[0])"
            ),
            (#"{"name":"x","flags":[{"key":""}]}"#, "$.flags[0].key", "must not be empty"),
            (#"{"name":"x","groups":[{"key":"a.b"}]}"#, "$.groups[0].key", "without dots"),
            (
                #"{"name":"x","flags":[{"key":"a","kind":"buildTarget"}]}"#, "$.flags[0].enabledIn",
                "needs \"enabledIn\""
            ),
            (#"{"name":"x","flags":"#, "$.flags", "not valid JSON at line 1, column 21"),
            (#"{"name":"x","flags":{}}"#, "$.flags", "expected an array"),
        ] as [(String, String?, String)])
    func badManifestsNameThePathAndWhatWasExpected(json: String, path: String?, message: String) {
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(json.utf8), source: "features.json")
        }
        #expect(error?.source == "features.json")
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "message: \(error?.message ?? "")")
        #expect(error?.description.hasPrefix("features.json: ") == true)
    }

    @Test func missingFileIsNamed() {
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.load(from: URL(fileURLWithPath: "/nonexistent/features.json"))
        }
        #expect(error?.description.contains("/nonexistent/features.json") == true)
    }

    @Test func controlCharactersInKeysAreRejected() {
        let json = #"{"name":"x","flags":[{"key":"evil\u001b[2J"}]}"#
        let error = #expect(throws: ManifestError.self) { try RegistryManifest.decode(Data(json.utf8)) }
        #expect(error?.path == "$.flags[0].key")
    }
}

extension RegistryManifest {
    /// Dynamic flags export the value their closure gives now; align a manifest with another registry's.
    func withDynamicDefaultsFrom(_ registry: AnyFeatureRegistry) -> RegistryManifest {
        var copy = self
        func fix(_ flags: inout [Flag]) {
            for index in flags.indices where flags[index].kind == .dynamic {
                flags[index].default =
                    registry.flag(forKey: flags[index].key)?.computedDefault ?? flags[index].default
            }
        }
        func fixGroups(_ groups: inout [Group]) {
            for index in groups.indices {
                fix(&groups[index].flags)
                fixGroups(&groups[index].groups)
            }
        }
        fix(&copy.flags)
        fixGroups(&copy.groups)
        return copy
    }
}
