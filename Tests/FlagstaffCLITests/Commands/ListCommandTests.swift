import Foundation
import Testing

@Suite("flagstaff list")
struct ListCommandTests {
    @Test func demoListsEveryFlagWithValueAndSource() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["list"])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let listed = try sandbox.jsonObject(try await sandbox.runWithStore(["list", "--json"]))
        #expect(lines.count == (listed["flags"] as? [Any])?.count)
        #expect(lines.count == 30)
        let scroll = try #require(lines.first { $0.hasPrefix("list.infiniteScroll ") })
        #expect(
            scroll.split(separator: " ").filter { !$0.isEmpty }.map(String.init) == [
                "list.infiniteScroll", "OFF", "default",
            ])
        let tabBar = try #require(lines.first { $0.hasPrefix("useTabBarNav ") })
        #expect(tabBar.hasSuffix("restart"))
        #expect(lines.contains { $0.hasPrefix("tuesdayExperiment ") && $0.contains("dynamic") })
        #expect(lines.contains { $0.hasPrefix("moments.isLikeButtonForMomentEnabled ") && $0.hasSuffix("restart") })
        #expect(sandbox.storeBytes() == nil, "list must not create the store")
    }

    @Test func columnsLineUpWithWideCharacters() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write(
            "wide.json",
            #"""
            {"name": "Wide", "flags": [
              {"key": "checkout", "default": true},
              {"key": "功能.新しい決済", "default": false},
              {"key": "café.crème"}
            ]}
            """#)
        #expect(try await sandbox.runWithStore(["set", "café.crème", "on", "--manifest", manifest]).status == 0)
        let result = try await sandbox.runWithStore(["list", "--manifest", manifest])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // The value column starts at the same terminal column on every line (CJK characters take two).
        func valueColumn(_ line: String) -> Int? {
            guard let range = line.range(of: "  ON ") ?? line.range(of: "  OFF") else { return nil }
            return line[..<range.lowerBound].reduce(0) { width, character in
                width + (character.unicodeScalars.first.map { (0x3000...0x9FFF).contains($0.value) } == true ? 2 : 1)
            }
        }
        let columns = lines.compactMap(valueColumn)
        #expect(columns.count == 3 && Set(columns).count == 1, "\(lines)")
    }

    @Test func jsonFromManifestHasEveryFieldInDeclarationOrder() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        #expect(try await sandbox.runWithStore(["set", "cart.saveForLater", "on", "--manifest", manifest]).status == 0)
        let result = try await sandbox.runWithStore(["list", "--json", "--manifest", manifest])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["registry"] as? String == "Shop")
        #expect(object["store"] as? String == sandbox.storePath)
        #expect(object["manifest"] as? String == manifest)
        let flags = try #require(object["flags"] as? [[String: Any]])
        #expect(
            flags.compactMap { $0["key"] as? String }
                == ["darkMode", "newHome", "cart.saveForLater", "cart.expressCheckout", "cart.coupons.autoApply"])
        let save = flags[2]
        #expect(save["label"] as? String == "Save for Later")
        #expect(save["group"] as? [String] == ["Cart"])
        #expect(save["enabled"] as? Bool == true)
        #expect(save["override"] as? String == "on")
        #expect(save["source"] as? String == "override")
        #expect(save["kind"] as? String == "static")
        #expect(save["requiresRestart"] as? Bool == false)
        let coupons = flags[4]
        #expect(coupons["group"] as? [String] == ["Cart", "Coupons"])
        #expect(coupons["description"] as? String == "Apply the best coupon")
        #expect(coupons["override"] as? String == "default")
        #expect(coupons["source"] as? String == "static")
        #expect(flags[1]["requiresRestart"] as? Bool == true)
        #expect(flags[1]["enabled"] as? Bool == true)
    }

    @Test func overriddenShowsOnlyOverriddenFlags() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "blueText", "on"]).status == 0)
        #expect(try await sandbox.runWithStore(["set", "list.pullToRefresh", "off"]).status == 0)
        let result = try await sandbox.runWithStore(["list", "--overridden", "--json"])
        let flags = try #require(try sandbox.jsonObject(result)["flags"] as? [[String: Any]])
        #expect(flags.compactMap { $0["key"] as? String } == ["blueText", "list.pullToRefresh"])
        #expect(flags.compactMap { $0["enabled"] as? Bool } == [true, false])

        let text = try await sandbox.runWithStore(["list", "--overridden"])
        let lines = text.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("override") && $0.contains("*") })
    }

    @Test func searchRanksBestMatchFirst() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["list", "--search", "avatar", "--json"])
        #expect(result.status == 0, "\(result)")
        let flags = try #require(try sandbox.jsonObject(result)["flags"] as? [[String: Any]])
        #expect(flags.first?["key"] as? String == "moments.isRoundedAvatar")
        let none = try await sandbox.runWithStore(["list", "--search", "zzzzqqq"])
        #expect(none.status == 0)
        #expect(none.standardOutput.isEmpty)
        #expect(none.standardError.contains("no flag matches"))
    }

    /// As a process the variables come from the real environment; in process, from the command context.
    @Test(arguments: [true, false])
    func environmentVariablesChooseManifestAndStore(asProcess: Bool) async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        let store = sandbox.directory.appendingPathComponent("env-store.json").path
        let env = ["FLAGSTAFF_MANIFEST": manifest, "FLAGSTAFF_STORE": store]
        func run(_ arguments: [String]) async throws -> CLIResult {
            asProcess
                ? try await sandbox.runProcess(arguments, environment: env)
                : try await sandbox.run(arguments, environment: env)
        }
        #expect(try await run(["set", "darkMode", "on"]).status == 0)
        let stored =
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: store))) as? [String: Any]
        #expect(stored?["overrides"] as? [String: String] == ["darkMode": "on"])
        let listed = try sandbox.jsonObject(try await run(["list", "--json"]))
        #expect(listed["registry"] as? String == "Shop")
        #expect(listed["store"] as? String == store)
        // An explicit option wins over the environment.
        #expect(try await run(["get", "darkMode", "--store", sandbox.storePath]).standardOutput == "off\n")
    }

    @Test func defaultStoreIsNamedAfterTheRegistry() async throws {
        let sandbox = try CLISandbox()
        // A process: the default location comes from its HOME and XDG_CONFIG_HOME.
        #expect(try await sandbox.runProcess(["set", "blueText", "on"]).status == 0)
        let demoStore = sandbox.directory.appendingPathComponent("config/flagstaff/demo.json")
        #expect(FileManager.default.fileExists(atPath: demoStore.path))
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        #expect(try await sandbox.runProcess(["set", "darkMode", "on", "--manifest", manifest]).status == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: sandbox.directory.appendingPathComponent("config/flagstaff/Shop.json").path))
    }
}
