import Foundation
import Testing

@Suite("flagstaff manifest")
struct ManifestCommandTests {
    @Test func demoManifestDescribesTheDemoRegistry() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["manifest"])
        #expect(result.status == 0, "\(result)")
        let manifest = try sandbox.jsonObject(result)
        #expect(manifest["name"] as? String == "Moments demo")
        let roots = try #require(manifest["flags"] as? [[String: Any]])
        let tabBar = try #require(roots.first { $0["key"] as? String == "useTabBarNav" })
        #expect(tabBar["requiresRestart"] as? Bool == true)
        #expect(roots.first { $0["key"] as? String == "tuesdayExperiment" }?["kind"] as? String == "dynamic")
        let groups = try #require(manifest["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["key"] as? String } == ["list", "moments", "checkout", "diagnostics"])
    }

    @Test func savedManifestReopensAsTheSameRegistry() async throws {
        let sandbox = try CLISandbox()
        let saved = try sandbox.write("demo.json", try await sandbox.runWithStore(["manifest"]).standardOutput)
        let fromDemo = try sandbox.jsonObject(try await sandbox.runWithStore(["list", "--json"]))
        let fromFile = try sandbox.jsonObject(try await sandbox.runWithStore(["list", "--json", "--manifest", saved]))
        // Flags only: manifests do not describe typed settings yet (the manifest work adds them; then compare
        // every member).
        let demoFlags = try #require(fromDemo["flags"] as? [[String: Any]]).filter {
            $0["type"] as? String == "boolean"
        }
        let fileFlags = try #require(fromFile["flags"] as? [[String: Any]]).filter {
            $0["type"] as? String == "boolean"
        }
        #expect(demoFlags.count == 25)
        #expect(demoFlags.compactMap { $0["key"] as? String } == fileFlags.compactMap { $0["key"] as? String })
        #expect(demoFlags.compactMap { $0["label"] as? String } == fileFlags.compactMap { $0["label"] as? String })
        #expect(demoFlags.compactMap { $0["enabled"] as? Bool } == fileFlags.compactMap { $0["enabled"] as? Bool })
        #expect(fromFile["registry"] as? String == "Moments demo")
    }

    @Test func manifestDoesNotNeedAReadableStore() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", "corrupt")
        let result = try await sandbox.runWithStore(["manifest"])
        #expect(result.status == 0, "\(result)")
        #expect(sandbox.storeBytes() == Data("corrupt".utf8))
    }
}
