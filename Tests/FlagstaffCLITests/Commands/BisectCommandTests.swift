import Flagstaff
import Foundation
import Testing

@Suite("flagstaff bisect")
struct BisectCommandTests {
    /// Writes a store with `count` overrides `cand.k00`… (undeclared keys: bisect works on the store's entries)
    /// and the declared flag `blueText`.
    func writeStore(_ sandbox: CLISandbox, candidates count: Int) throws {
        var entries = (0..<count).map { String(format: #""cand.k%02d": "on""#, $0) }
        entries.append(#""blueText": "on""#)
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"# + entries.joined(separator: ",") + "}}")
    }

    /// `bisect status --json` as an object, checking it has exactly the documented members.
    func status(_ sandbox: CLISandbox, process: Bool = false) async throws -> [String: Any] {
        let result =
            process
            ? try await sandbox.runProcess(["bisect", "status", "--json", "--store", sandbox.storePath])
            : try await sandbox.run(["bisect", "status", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(Set(object.keys) == ["done", "culprit", "testing", "remaining"])
        return object
    }

    @Test(arguments: [1, 2, 7, 64])
    func aScriptedOracleFindsTheCulpritWithinLogTwoAnswers(count: Int) async throws {
        let limit = [1: 0, 2: 1, 7: 3, 64: 6][count] ?? 0
        for index in Set([0, count / 2, count - 1]).sorted() {
            let sandbox = try CLISandbox()
            try writeStore(sandbox, candidates: count)
            let culprit = String(format: "cand.k%02d", index)
            let start = try await sandbox.run(["bisect", "start", "--match", "cand.*"])
            #expect(start.status == 0, "\(start)")
            var answers = 0
            while try await status(sandbox)["done"] as? Bool == false, answers <= limit {
                // The oracle is the app after a restart: is the culprit in the store?
                let answer = try sandbox.storedOverrides()[culprit] != nil ? "bad" : "good"
                let result = try await sandbox.run(["bisect", answer])
                #expect(result.status == 0, "\(result)")
                answers += 1
            }
            let final = try await status(sandbox)
            #expect(final["culprit"] as? String == culprit)
            #expect(final["remaining"] as? Int == 1 && (final["testing"] as? [String])?.isEmpty == true)
            #expect(answers <= limit, "\(answers) answers for \(count) candidates")
            #expect(try sandbox.storedOverrides()["blueText"] == "on", "a non-candidate was touched")
        }
    }

    @Test func statusJSONDuringAStep() async throws {
        let sandbox = try CLISandbox()
        try writeStore(sandbox, candidates: 3)
        #expect(try await sandbox.run(["bisect", "start", "--match", "cand.*"]).status == 0)
        let object = try await status(sandbox)
        #expect(object["done"] as? Bool == false)
        #expect(object["culprit"] is NSNull)
        #expect(object["testing"] as? [String] == ["cand.k00", "cand.k01"])
        #expect(object["remaining"] as? Int == 3)
        #expect(try sandbox.storedOverrides() == ["cand.k00": "on", "cand.k01": "on", "blueText": "on"])
    }

    @Test func theBisectSurvivesNewProcessesAndResetRestoresTheStoreByteForByte() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on", "maxItems", "30", "theme", "dark"]).status == 0)
        #expect(try await sandbox.run(["set", "list.compactRows", "on"]).status == 0)
        let before = try #require(sandbox.storeBytes())
        let store = ["--store", sandbox.storePath]
        let start = try await sandbox.runProcess(["bisect", "start"] + store)
        #expect(start.status == 0, "\(start)")
        #expect(start.standardOutput.contains("bisect started: 4 candidate override(s); at most 2 answer(s) needed"))
        #expect(start.standardOutput.contains("    blueText: on\n    list.compactRows: on\n"))
        // Another process (and a registry made afresh) sees the same step.
        #expect(try await status(sandbox, process: true)["testing"] as? [String] == ["blueText", "list.compactRows"])
        let registry = AnyFeatureRegistry(
            store: try FileOverrideStore(url: sandbox.storeURL), options: RegistryOptions(storeWatchInterval: nil))
        #expect(try Bisection(registry).session()?.step == 1)
        let bad = try await sandbox.runProcess(["bisect", "bad"] + store)
        #expect(bad.status == 0, "\(bad)")
        #expect(try await status(sandbox)["testing"] as? [String] == ["blueText"])
        let reset = try await sandbox.runProcess(["bisect", "reset"] + store)
        #expect(reset.status == 0, "\(reset)")
        #expect(
            reset.standardOutput
                == "list.compactRows: default → on\nmaxItems: default → 30\ntheme: default → \"dark\"\n")
        #expect(sandbox.storeBytes() == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath + ".bisect.json"))
        let history = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        let origins = (history["changes"] as? [[String: Any]])?.compactMap { $0["origin"] as? String }
        #expect(origins == ["bisect", "bisect", "bisect", "cli", "cli"])
    }

    @Test func noOverridesIsAClearError() async throws {
        let sandbox = try CLISandbox()
        let none = try await sandbox.run(["bisect", "start"])
        #expect(none.status == 1)
        #expect(none.standardError.contains("there are no overrides: nothing to bisect"), "\(none)")
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let noMatch = try await sandbox.run(["bisect", "start", "--match", "checkout.*"])
        #expect(noMatch.status == 1)
        #expect(noMatch.standardError.contains(#"no override matches "checkout.*""#), "\(noMatch)")
        for command in [["good"], ["bad"], ["status", "--json"], ["reset"]] {
            let result = try await sandbox.run(["bisect"] + command)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.contains("no bisect in progress; start one with 'flagstaff bisect start'"))
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func aStoreChangedMeanwhileIsReportedAndTheAnswerRefused() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on", "list.compactRows", "on"]).status == 0)
        #expect(try await sandbox.run(["bisect", "start"]).status == 0)
        #expect(try await sandbox.run(["set", "list.compactRows", "off"]).status == 0)
        let before = sandbox.storeBytes()
        let answer = try await sandbox.run(["bisect", "good"])
        #expect(answer.status == 1, "\(answer)")
        #expect(
            answer.standardError.contains(
                #"the store changed since bisect applied step 1: list.compactRows is now "off" (bisect left not overridden)"#
            ), "\(answer)")
        #expect(answer.standardError.contains("nothing was changed"))
        #expect(sandbox.storeBytes() == before)
        let status = try await sandbox.run(["bisect", "status"])
        #expect(status.standardError.contains("the store changed since this step: list.compactRows is now"))
        let reset = try await sandbox.run(["bisect", "reset"])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardError.contains("changed during the bisect, now restored: list.compactRows"))
        #expect(try sandbox.storedOverrides() == ["blueText": "on", "list.compactRows": "on"])
    }

    @Test func aCorruptStateFileIsReportedNotACrash() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let statePath = try sandbox.write("overrides.json.bisect.json", #"{"version":1,"started":"soon"}"#)
        let before = sandbox.storeBytes()
        for command in [["status"], ["good"], ["reset"], ["start"]] {
            let result = try await sandbox.runProcess(["bisect"] + command + ["--store", sandbox.storePath])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.standardError.contains(
                    "the bisect state \(statePath) is not valid: $.started: expected a UTC time"), "\(result)")
            #expect(result.standardError.contains("Remove the file to abandon the bisect"))
        }
        #expect(sandbox.storeBytes() == before)
    }

    @Test func aSecondStartIsRefused() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on", "list.compactRows", "on"]).status == 0)
        #expect(try await sandbox.run(["bisect", "start"]).status == 0)
        let again = try await sandbox.run(["bisect", "start"])
        #expect(again.status == 1)
        #expect(again.standardError.contains("a bisect is already in progress"), "\(again)")
    }
}
