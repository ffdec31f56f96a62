import Flagstaff
import Foundation
import Testing

@testable import FlagstaffCLI

@Suite("flagstaff set with several pairs and --match, reset --match")
struct BulkSetCommandTests {
    /// The changes `history --json` lists, newest first: each one's keys.
    func historyKeys(_ sandbox: CLISandbox) async throws -> [[String]] {
        let history = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        let changes = try #require(history["changes"] as? [[String: Any]])
        return changes.map { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String } }
    }

    @Test func pairsAreWrittenTogetherAsOneUndoStep() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["set", "blueText", "on", "list.compactRows", "off", "maxItems", "50"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.standardOutput
                == "blueText: on (ON by override)\nlist.compactRows: off (OFF by override)\nmaxItems: 50 (50 by override)\n"
        )
        #expect(try sandbox.storedJSON() == ["blueText": #""on""#, "list.compactRows": #""off""#, "maxItems": "50"])
        #expect(try await historyKeys(sandbox) == [["blueText", "list.compactRows", "maxItems"]])
        #expect(try await sandbox.run(["undo"]).status == 0)
        #expect(try sandbox.storedJSON() == [:])
    }

    @Test(arguments: [
        (["blueText", "on", "maxItems", "500"], "invalid value '500' for 'maxItems' (VALUE)"),
        (["blueText", "on", "list.infinitScroll", "on"], "unknown flag key 'list.infinitScroll'"),
        (["blueText", "on", "maxItems"], "the last KEY 'maxItems' has no VALUE"),
        (["blueText", "on", "blueText", "off"], "'blueText' is given twice"),
        (["maxItems", "0", "theme", "sepia", "blueText", "on"], "invalid value 'sepia' for 'theme' (VALUE)"),
    ])
    func anyBadPairLeavesTheStoreByteIdentical(arguments: [String], message: String) async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "debugLogging", "off"]).status == 0)
        let before = sandbox.storeBytes()
        let result = try await sandbox.run(["set"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(message), "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(sandbox.storeBytes() == before)
    }

    @Test func standardInputIsReadForOneValueOnly() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write(
            "manifest.json",
            #"{"name": "Two", "settings": [{"key": "a", "type": "json", "default": {}}, {"key": "b", "type": "json", "default": {}}, {"key": "c", "type": "string", "default": ""}]}"#
        )
        let twice = try await sandbox.run(
            ["--manifest", manifest, "set", "a", "@-", "b", "@-"], stdin: Data("{}".utf8))
        #expect(twice.status == 2, "\(twice)")
        #expect(twice.standardError.contains("'@-' (standard input) is given as more than one VALUE"), "\(twice)")
        #expect(sandbox.storeBytes() == nil)
        // A text setting stores "@-" as it is: only one JSON value reads standard input.
        let once = try await sandbox.run(
            ["--manifest", manifest, "set", "a", "@-", "c", "@-"], stdin: Data(#"{"x":1}"#.utf8))
        #expect(once.status == 0, "\(once)")
        #expect(try sandbox.storedJSON() == ["a": #"{"x":1}"#, "c": #""@-""#])
    }

    @Test func everyBadPairIsNamedAtOnce() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["set", "maxItems", "0", "theme", "sepia", "blueText", "on"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("invalid value '0' for 'maxItems'"), "\(result)")
        #expect(result.standardError.contains("invalid value 'sepia' for 'theme'"), "\(result)")
        #expect(result.standardError.contains("nothing was written"))
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func matchSetsTheMatchingMembersValueFitsAndNamesTheOthers() async throws {
        let manifest = try sandboxManifest()
        let sandbox = try CLISandbox()
        let path = try sandbox.write("manifest.json", manifest)
        let result = try await sandbox.run(["--manifest", path, "set", "--match", "checkout.*", "off"])
        #expect(result.status == 0, "\(result)")
        // checkout.expressPay is off by default: no override that changes nothing is written for it.
        #expect(result.standardOutput == "checkout.savedCards: off (OFF by override)\n")
        #expect(
            result.standardError.contains(
                "skipped checkout.banner: a text setting does not take the flag word 'off' from --match"),
            "\(result)")
        #expect(result.standardError.contains("skipped checkout.retries: integer: "), "\(result)")
        #expect(
            result.standardError.contains(
                "changed 1 of the 4 flag(s) and setting(s) matching 'checkout.*' (1 already had that value)"))
        #expect(try sandbox.storedJSON() == ["checkout.savedCards": #""off""#])
        #expect(try await historyKeys(sandbox).count == 1)
        // The text setting takes text; with --json it takes the word off as a JSON string.
        let text = try await sandbox.run(["--manifest", path, "set", "--match", "checkout.b*", "closed"])
        #expect(text.status == 0, "\(text)")
        #expect(try sandbox.storedJSON()["checkout.banner"] == #""closed""#)
        let word = try await sandbox.run(["--manifest", path, "set", "--match", "checkout.b*", "--json", #""off""#])
        #expect(word.status == 0, "\(word)")
        #expect(try sandbox.storedJSON()["checkout.banner"] == #""off""#)
    }

    @Test func matchPrintsOnlyWhatChangedAndJSONOnRequest() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "list.compactRows", "on"]).status == 0)
        let result = try await sandbox.run(["set", "--match", "list.*", "on", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        let changes = try #require(object["changes"] as? [[String: Any]])
        // list.pullToRefresh and list.skeletonPlaceholders are on by default: left without an override.
        #expect(changes.compactMap { $0["key"] as? String } == ["list.infiniteScroll", "list.sectionIndex"])
        #expect(changes.first?["from"] is NSNull && changes.first?["to"] as? String == "on")
        #expect(object["matched"] as? Int == 5)
        #expect(object["unchanged"] as? Int == 3)
        #expect(try sandbox.storedJSON()["list.pullToRefresh"] == nil)
        #expect((object["skipped"] as? [Any])?.isEmpty == true)
    }

    @Test func aValueThatFitsNoMatchingMemberIsAUsageError() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["set", "--match", "max*", "on"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("VALUE 'on' fits none of the 1 flag(s) and setting(s) matching 'max*'"))
        #expect(sandbox.storeBytes() == nil)
    }

    @Test(arguments: [["set", "--match", "zzz.*", "on"], ["reset", "--match", "zzz.*"]])
    func noMatchSaysSoAndExitsOne(arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let before = sandbox.storeBytes()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("no flag or setting matches 'zzz.*' (--match)"), "\(result)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func resetMatchRemovesOnlyMatchingOverridesInOneChange() async throws {
        let sandbox = try CLISandbox()
        #expect(
            try await sandbox.run(["set", "list.compactRows", "on", "list.infiniteScroll", "on", "blueText", "on"])
                .status == 0)
        let result = try await sandbox.run(["reset", "--match", "list.*"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.standardOutput
                == "list.compactRows: default (OFF by default)\nlist.infiniteScroll: default (OFF by default)\n")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
        #expect(try await historyKeys(sandbox).first == ["list.compactRows", "list.infiniteScroll"])
        #expect(try await sandbox.run(["set", "list.pullToRefresh", "off"]).status == 0)
        let json = try await sandbox.run(["reset", "--match", "list.*", "--json"])
        let object = try sandbox.jsonObject(json)
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["key"] as? String == "list.pullToRefresh")
        #expect(changes[0]["from"] as? String == "off" && changes[0]["to"] is NSNull)
        #expect(object["matched"] as? Int == 5)
    }

    @Test(arguments: [
        ["reset", "--match", "list.*", "blueText"], ["reset", "--match", "list.*", "--all"],
        ["set", "--match", "list.*", "blueText", "on"], ["set", "--match", "list.*"],
    ])
    func matchDoesNotCombineWithKeys(arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func pairsThroughTheBinaryAreOneJournaledChange() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["set", "blueText", "on", "theme", "dark", "--store", sandbox.storePath])
        #expect(result.status == 0, "\(result)")
        let journal = try String(contentsOfFile: sandbox.storePath + ".history.jsonl", encoding: .utf8)
        let lines = journal.split(separator: "\n")
        #expect(lines.count == 2)
        let ids = Set(
            lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["change"] as? String
            })
        #expect(ids.count == 1)
    }

    @Test func jsonListsAChangeOfExpiryAlone() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let result = try await sandbox.run(["set", "blueText", "on", "--for", "1d", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let changes = try #require(try sandbox.jsonObject(result)["changes"] as? [[String: Any]])
        #expect(changes.count == 1, "\(result)")
        #expect(changes.first?["key"] as? String == "blueText")
        #expect(changes.first?["from"] as? String == "on" && changes.first?["to"] as? String == "on")
        #expect(changes.first?["fromExpiresAt"] == nil && changes.first?["toExpiresAt"] is String)
        // Made permanent again: the expiry it had is the change.
        let permanent = try await sandbox.run(["set", "blueText", "on", "--format", "json"])
        let back = try #require(try sandbox.jsonObject(permanent)["changes"] as? [[String: Any]])
        #expect(back.count == 1 && back.first?["fromExpiresAt"] is String && back.first?["toExpiresAt"] == nil)
    }

    @Test func matchOnEveryMemberLeavesNothingForTheDoctor() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["set", "--match", "*", "off"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.contains("already had that value"), "\(result)")
        // blueText is off by default: no override for it.
        #expect(try sandbox.storedJSON()["blueText"] == nil)
        let doctor = try await sandbox.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor)")
        #expect(!doctor.standardOutput.contains("no-op"), "\(doctor)")
    }

    @Test func completionOffersKeysAndTheValuesOfTheKeyBefore() throws {
        func complete(_ words: [String], _ prefix: String = "") -> [String] {
            SetCompletion.complete(words: ["flagstaff", "set"] + words + [prefix], prefix: prefix)
        }
        #expect(complete([], "list.c") == ["list.compactRows"])
        #expect(complete(["theme"]) == ["light", "dark", "system", "default"])
        #expect(complete(["theme", "dark"], "blue") == ["blueText"])
        #expect(complete(["theme", "dark", "blueText"], "o") == ["on", "off"])
        #expect(complete(["--for", "2h", "blueText"]) == ["on", "off", "default"])
        #expect(complete(["--match", "list.*"], "o") == ["on", "off"])
    }

    /// A manifest with two checkout flags, a checkout text setting and a checkout integer setting.
    func sandboxManifest() throws -> String {
        """
        {"name": "Shop",
         "flags": [{"key": "checkout.expressPay"}, {"key": "checkout.savedCards", "default": true},
                   {"key": "list.compactRows"}],
         "settings": [{"key": "checkout.banner", "type": "string", "default": "Welcome"},
                      {"key": "checkout.retries", "type": "integer", "default": 3}]}
        """
    }
}
