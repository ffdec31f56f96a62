import Flagstaff
import Foundation
import Testing

/// `flagstaff doctor` on stores the tests write by hand.
@Suite("flagstaff doctor")
struct DoctorCommandTests {
    /// A store with one of each problem for the demo registry: an expired override (expired in 2020, before any
    /// clock this runs on), a wrong type, an orphan, two no-ops, a pin of a remote-bound setting, and one fine entry.
    static let badStore = """
        {"version":1,"overrides":{"blueText":"on","cardColor":"#000000","maxItems":500,"old.flag":"on",\
        "theme":"system","useTabBarNav":"off","welcomeMessage":"Welcome to Moments"},\
        "expiry":{"cardColor":{"at":"2020-01-01T00:00:00Z","set":"2019-12-31T00:00:00Z"}}}
        """

    private func findings(_ object: [String: Any], _ name: String = "findings") -> [[String: Any]] {
        object[name] as? [[String: Any]] ?? []
    }

    private func kinds(_ list: [[String: Any]]) -> [String: String] {
        Dictionary(list.compactMap { entry in (entry["key"] as? String).map { ($0, entry["kind"] as? String ?? "") } })
        {
            a, _ in a
        }
    }

    @Test func aMissingOrCleanStoreIsCleanWithStatusZeroAndNothingWritten() async throws {
        let sandbox = try CLISandbox()
        let missing = try await sandbox.run(["doctor"])
        #expect(missing.status == 0, "\(missing)")
        #expect(missing.standardOutput == "the store \(sandbox.storePath) is clean\n")
        #expect(sandbox.storeBytes() == nil)
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on","maxItems":50}}"#)
        let clean = try await sandbox.run(["doctor", "--fix"])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.standardOutput.hasPrefix("nothing to fix\n"))
        #expect(sandbox.storeBytes() == Data(#"{"version":1,"overrides":{"blueText":"on","maxItems":50}}"#.utf8))
    }

    @Test func aBadStoreIsListedWithStatusOneAndLeftUntouched() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", Self.badStore)
        let result = try await sandbox.run(["doctor"])
        #expect(result.status == 1, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                ##"warning  expired            cardColor = "#000000": expired at 2020-01-01T00:00:00.000Z; no one applies it (fix: remove the override)"##,
                #"error    wrong-type         maxItems = 500: stored value 500 is ignored: must be 1…100 (set a valid value or reset it)"#,
                #"warning  orphan             old.flag = "on": Moments demo has no flag or setting with this key (fix: remove the override)"#,
                #"warning  no-op              theme = "system": equals its value without the override (system by default) (fix: remove the override)"#,
                #"warning  no-op              useTabBarNav = "off": equals its value without the override (off by default) (fix: remove the override)"#,
                #"info     pins-current-value welcomeMessage = "Welcome to Moments": equals its value without the override now (Welcome to Moments from remote), which can change: the override keeps this value (remove it to follow the remote value again)"#,
                "5 findings in \(sandbox.storePath): 4 fixable with `flagstaff doctor --fix`, 1 to fix by hand (1 note)",
            ])
        // The wrong type is a finding, not also a note on standard error as other commands print it.
        #expect(result.standardError.isEmpty, "\(result)")
        #expect(sandbox.storeBytes() == Data(Self.badStore.utf8))
    }

    @Test func jsonListsEveryFindingWithItsStoredValue() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", Self.badStore)
        let result = try await sandbox.run(["doctor", "--json"])
        #expect(result.status == 1, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["registry"] as? String == "Moments demo")
        #expect(object["store"] as? String == sandbox.storePath)
        #expect(object["manifest"] == nil && object["fixed"] == nil)
        #expect(object["clean"] as? Bool == false)
        let list = findings(object)
        #expect(
            kinds(list) == [
                "cardColor": "expired", "maxItems": "wrong-type", "old.flag": "orphan", "theme": "no-op",
                "useTabBarNav": "no-op", "welcomeMessage": "pins-current-value",
            ])
        let expired = try #require(list.first)
        #expect(expired["severity"] as? String == "warning" && expired["fix"] as? String == "remove the override")
        #expect(expired["value"] as? String == "#000000")
        #expect(expired["expiredAt"] as? String == "2020-01-01T00:00:00Z")
        let wrong = try #require(list.first { $0["key"] as? String == "maxItems" })
        #expect(wrong["value"] as? Int == 500 && wrong["fix"] == nil)
        #expect(
            wrong["severity"] as? String == "error" && wrong["advice"] as? String == "set a valid value or reset it")
        #expect(wrong["message"] as? String == "stored value 500 is ignored: must be 1…100")
        #expect(list.last?["severity"] as? String == "info")
    }

    @Test func fixRemovesWhatItCanInOneWriteReportsItAndIsIdempotent() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", Self.badStore)
        // The demo on the sandbox's store is not the store's own registry: orphans are removed only with --yes.
        let refused = try await sandbox.run(["doctor", "--fix"])
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.standardError.contains(
                "doctor --fix would remove 1 override(s) of keys that Moments demo does not declare, and it is not the registry the store's app announced"
            ), "\(refused)")
        #expect(try sandbox.storedJSON().count == 7, "nothing was changed")
        let result = try await sandbox.run(["doctor", "--fix", "--yes"])
        #expect(result.status == 1, "the wrong type remains: \(result)")
        #expect(
            result.standardError.contains(
                "removing 1 override(s) of keys Moments demo does not declare (flagstaff undo puts them back)"),
            "said before it removes them: \(result)")
        #expect(
            result.standardOutput.hasPrefix(
                """
                removed cardColor = "#000000" (expired)
                removed old.flag = "on" (orphan)
                removed theme = "system" (no-op)
                removed useTabBarNav = "off" (no-op)
                removed 4 overrides in one write; `flagstaff undo` puts back all but the expired ones
                error    wrong-type         maxItems = 500:
                """))
        #expect(result.standardOutput.hasSuffix("1 finding in \(sandbox.storePath) to fix by hand (1 note)\n"))
        let fixedStore = try sandbox.storedJSON()
        #expect(fixedStore == ["blueText": #""on""#, "maxItems": "500", "welcomeMessage": #""Welcome to Moments""#])
        let bytes = sandbox.storeBytes()
        let history = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        let changes = history["changes"] as? [[String: Any]] ?? []
        #expect(changes.compactMap { $0["origin"] as? String } == ["doctor", "expiry"])

        let again = try await sandbox.run(["doctor", "--fix", "--json"])
        #expect(again.status == 1)
        let object = try sandbox.jsonObject(again)
        #expect(findings(object, "fixed").isEmpty && object["fixed"] != nil)
        #expect(kinds(findings(object)) == ["maxItems": "wrong-type", "welcomeMessage": "pins-current-value"])
        #expect(sandbox.storeBytes() == bytes)
        let historyAgain = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        #expect((historyAgain["changes"] as? [[String: Any]])?.count == 2)
    }

    @Test func fixWithOnlyFixableFindingsEndsCleanWithStatusZero() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"off","gone":"on","maxItems":50}}"#)
        let result = try await sandbox.run(["doctor", "--fix", "--json", "--yes"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["clean"] as? Bool == true && findings(object).isEmpty)
        #expect(kinds(findings(object, "fixed")) == ["blueText": "no-op", "gone": "orphan"])
        #expect(try sandbox.storedJSON() == ["maxItems": "50"])
    }

    @Test func undoPutsBackWhatTheFixRemovedInOneStep() async throws {
        let sandbox = try CLISandbox()
        let original = #"{"version":1,"overrides":{"blueText":"off","gone":"on","maxItems":50,"theme":"system"}}"#
        try sandbox.write("overrides.json", original)
        #expect(try await sandbox.run(["doctor", "--fix", "--yes"]).status == 0)
        #expect(try sandbox.storedJSON() == ["maxItems": "50"])
        let undo = try await sandbox.run(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.standardOutput.contains("undid the doctor change"))
        #expect(
            try sandbox.storedJSON() == [
                "blueText": #""off""#, "gone": #""on""#, "maxItems": "50", "theme": #""system""#,
            ])
    }

    @Test(arguments: [["doctor"], ["doctor", "--fix"], ["doctor", "--fix", "--json"]])
    func aCorruptStoreIsAnErrorNamingTheFileAndNothingIsWritten(arguments: [String]) async throws {
        for corrupt in BadInputTests.corruptStores {
            let sandbox = try CLISandbox()
            try sandbox.write("overrides.json", corrupt.text)
            let result = try await sandbox.run(arguments)
            #expect(result.status == 1, "\(corrupt.text): \(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.hasPrefix("flagstaff: error: "), "\(result)")
            #expect(result.standardError.contains(sandbox.storePath), "\(result)")
            #expect(result.standardError.contains(corrupt.message), "\(result)")
            #expect(sandbox.storeBytes() == Data(corrupt.text.utf8))
            #expect(!FileManager.default.fileExists(atPath: sandbox.storePath + ".history.jsonl"))
        }
    }

    /// A manifest declaring a key twice never becomes a registry: the doctor, like every command, reports it
    /// naming the file and the JSON path.
    @Test func aBadManifestIsAnErrorNamingTheFileAndTheStoreIsUntouched() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"gone":"on"}}"#)
        let before = sandbox.storeBytes()
        for manifest in BadInputTests.badManifests {
            let path =
                try manifest.text.map { try sandbox.write(manifest.name, $0) }
                ?? sandbox.directory.appendingPathComponent(manifest.name).path
            let result = try await sandbox.run(["doctor", "--fix", "--manifest", path])
            #expect(result.status == 1, "\(manifest.name): \(result)")
            #expect(result.standardError.contains(path), "\(manifest.name): \(result)")
            #expect(result.standardError.contains(manifest.message), "\(manifest.name): \(result)")
            #expect(sandbox.storeBytes() == before)
        }
    }

    @Test func expiryIsJudgedByTheCommandsClock() async throws {
        let sandbox = try CLISandbox()
        let store = """
            {"version":1,"overrides":{"blueText":"on"},\
            "expiry":{"blueText":{"at":"2030-01-01T10:00:00Z","set":"2030-01-01T09:00:00Z"}}}
            """
        try sandbox.write("overrides.json", store)
        let before = try await sandbox.run(["doctor"], environment: ["FLAGSTAFF_NOW": "2030-01-01T09:59:59Z"])
        #expect(before.status == 0, "\(before)")
        #expect(sandbox.storeBytes() == Data(store.utf8))
        let after = try await sandbox.run(
            ["doctor", "--fix", "--json"], environment: ["FLAGSTAFF_NOW": "2030-01-01T10:00:00Z"])
        #expect(after.status == 0, "\(after)")
        let object = try sandbox.jsonObject(after)
        let fixed = findings(object, "fixed")
        #expect(kinds(fixed) == ["blueText": "expired"])
        #expect(fixed.first?["expiredAt"] as? String == "2030-01-01T10:00:00Z")
        #expect(try sandbox.storedJSON().isEmpty)
    }

    @Test func aManifestRegistryJudgesTheStoreByItsOwnKeys() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        try sandbox.write(
            "overrides.json", #"{"version":1,"overrides":{"blueText":"on","darkMode":"on","newHome":"on"}}"#)
        let result = try await sandbox.run(["doctor", "--manifest", manifest, "--json"])
        #expect(result.status == 1, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["registry"] as? String == "Shop" && object["manifest"] as? String == manifest)
        #expect(kinds(findings(object)) == ["blueText": "orphan", "newHome": "no-op"])
        #expect(findings(object).first?["message"] as? String == "Shop has no flag or setting with this key")
    }

    @Test func aPinOnlyIsANoteAndTheStoreIsClean() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"welcomeMessage":"Welcome to Moments"}}"#)
        let result = try await sandbox.run(["doctor", "--fix"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasSuffix("the store \(sandbox.storePath) is clean (1 note)\n"))
        #expect(try sandbox.storedJSON() == ["welcomeMessage": #""Welcome to Moments""#])
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["doctor", "--repair"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("--repair"))
    }

    @Test func theBinaryExitsWithOneWhenFindingsRemain() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"gone":"on"}}"#)
        let found = try await sandbox.runProcess(["doctor", "--store", sandbox.storePath])
        #expect(found.status == 1, "\(found)")
        let fixed = try await sandbox.runProcess(["doctor", "--fix", "--yes", "--store", sandbox.storePath])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.standardOutput.contains("removed gone = \"on\" (orphan)"))
    }
}
