import Foundation
import Testing

@Suite("flagstaff pending-restart")
struct PendingRestartCommandTests {
    @Test func nothingPendingExitsZero() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "blueText", "on"]).status == 0)
        let result = try await sandbox.runWithStore(["pending-restart"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "no restart needed\n")
    }

    @Test func aChangedRestartFlagExitsThreeAndIsListed() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        #expect(try await sandbox.runWithStore(["set", "newHome", "off", "--manifest", manifest]).status == 0)
        // Forcing a restart flag to the value it has anyway changes nothing.
        #expect(
            try await sandbox.runWithStore(["set", "cart.expressCheckout", "on", "--manifest", manifest]).status == 0)
        let result = try await sandbox.runWithStore(["pending-restart", "--manifest", manifest])
        #expect(result.status == 3, "\(result)")
        #expect(result.standardOutput == "newHome  ON → OFF  (New Home)\n")

        let json = try await sandbox.runWithStore(["pending-restart", "--json", "--manifest", manifest])
        #expect(json.status == 3)
        let flags = try #require(try sandbox.jsonObject(json)["flags"] as? [[String: Any]])
        #expect(flags.count == 1)
        #expect(flags.first?["key"] as? String == "newHome")
        #expect(flags.first?["launchValue"] as? Bool == true)
        #expect(flags.first?["currentValue"] as? Bool == false)
        #expect(flags.first?["launchValueFrom"] as? String == "withoutOverride")
    }

    @Test func recordMakesTheCurrentValuesTheLaunchValues() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "useTabBarNav", "on"]).status == 0)
        #expect(try await sandbox.runWithStore(["pending-restart"]).status == 3)

        let record = try await sandbox.runWithStore(["pending-restart", "--record"])
        #expect(record.status == 0, "\(record)")
        let snapshot = sandbox.directory.appendingPathComponent("overrides.json.launch.json")
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: snapshot)) as? [String: Any]
        #expect((object?["values"] as? [String: Any])?["useTabBarNav"] as? Bool == true)
        #expect(try await sandbox.runWithStore(["pending-restart"]).status == 0)

        // Resetting now changes the value the app launched with.
        #expect(try await sandbox.runWithStore(["reset", "useTabBarNav"]).status == 0)
        let after = try await sandbox.runWithStore(["pending-restart", "--json"])
        #expect(after.status == 3)
        let flags = try #require(try sandbox.jsonObject(after)["flags"] as? [[String: Any]])
        #expect(flags.first?["launchValueFrom"] as? String == "snapshot")
        #expect(flags.first?["launchValue"] as? Bool == true)
        #expect(flags.first?["currentValue"] as? Bool == false)
    }

    @Test func aSnapshotOfAnUnsupportedVersionIsReportedByName() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json.launch.json", #"{"version":2,"values":{}}"#)
        let result = try await sandbox.runWithStore(["pending-restart"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("overrides.json.launch.json"))
        #expect(result.standardError.contains(#"launch snapshot"#))
        #expect(result.standardError.contains(#"unsupported "version" 2"#))
    }
}
