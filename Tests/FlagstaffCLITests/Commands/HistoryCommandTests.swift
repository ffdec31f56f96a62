import Flagstaff
import Foundation
import Testing

@Suite("flagstaff history")
struct HistoryCommandTests {
    @Test func listsChangesNewestFirstWithOriginAndValues() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        #expect(try await sandbox.run(["set", "list.infiniteScroll", "off"]).status == 0)
        let result = try await sandbox.run(["history"])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result)")
        // In process, the recorded command line is the test runner's; the pid is this process's.
        #expect(lines[0].contains("  cli  ") && lines[0].contains("pid \(getpid())"), "\(result)")
        #expect(lines[1] == "    list.infiniteScroll: default → off")
        #expect(lines[3] == "    blueText: default → on")
    }

    @Test func filtersByKeyGlobAndSinceAndPrintsJSON() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        #expect(try await sandbox.run(["set", "list.infiniteScroll", "on"]).status == 0)
        let result = try await sandbox.run(["history", "--key", "list.*", "--since", "1h", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes[0]["origin"] as? String == "cli")
        let entries = try #require(changes[0]["changes"] as? [[String: Any]])
        #expect(entries.first?["key"] as? String == "list.infiniteScroll")
        #expect(entries.first?["from"] is NSNull && entries.first?["to"] as? String == "on")
        #expect((object["problems"] as? [Any])?.isEmpty == true)
        let future = try await sandbox.run(["history", "--since", "2999-01-01", "--json"])
        #expect((try sandbox.jsonObject(future)["changes"] as? [Any])?.isEmpty == true)
    }

    @Test func expiryTimesAreShownBesideTheValues() async throws {
        let sandbox = try CLISandbox()
        let now = ["FLAGSTAFF_NOW": "2030-01-01T10:00:00Z"]
        #expect(try await sandbox.run(["set", "blueText", "on", "--for", "2h"], environment: now).status == 0)
        #expect(try await sandbox.run(["set", "blueText", "off"], environment: now).status == 0)
        let result = try await sandbox.run(["history"], environment: now)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("    blueText: on (until 2030-01-01 12:00:00) → off"), "\(result)")
        #expect(lines.contains("    blueText: default → on (until 2030-01-01 12:00:00)"), "\(result)")
        let json = try sandbox.jsonObject(try await sandbox.run(["history", "--json"], environment: now))
        let changes = try #require(json["changes"] as? [[String: Any]])
        let newest = try #require((changes.first?["changes"] as? [[String: Any]])?.first)
        #expect(newest["fromExpiresAt"] as? String == "2030-01-01T12:00:00.000Z")
        #expect(newest["toExpiresAt"] == nil)
        // Undo puts the expiring override back with its expiry.
        #expect(try await sandbox.run(["undo"], environment: now).status == 0)
        let list = try await sandbox.run(["get", "blueText", "--json"], environment: now)
        #expect(try sandbox.jsonObject(list)["expiresAt"] as? String == "2030-01-01T12:00:00Z", "\(list)")
    }

    @Test func sinceADurationCountsBackFromTheCommandsClock() async throws {
        let sandbox = try CLISandbox()
        let set = ["FLAGSTAFF_NOW": "2030-01-01T10:00:00Z"]
        #expect(try await sandbox.run(["set", "blueText", "on"], environment: set).status == 0)
        func count(at now: String) async throws -> Int? {
            let result = try await sandbox.run(
                ["history", "--since", "1h", "--json"], environment: ["FLAGSTAFF_NOW": now])
            return (try sandbox.jsonObject(result)["changes"] as? [Any])?.count
        }
        #expect(try await count(at: "2030-01-01T10:59:00Z") == 1)
        #expect(try await count(at: "2030-01-01T11:01:00Z") == 0)
    }

    @Test func aBadSinceIsAUsageError() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["history", "--since", "yesterday"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--since 'yesterday': expected a duration like 90s"), "\(result)")
        let impossible = try await sandbox.run(["history", "--since", "2030-02-30"])
        #expect(impossible.status == 2)
        #expect(
            impossible.standardError.contains(
                "--since '2030-02-30': there is no 2030-02-30 (February 2030 has 28 days); expected a duration"),
            "\(impossible)")
    }

    /// `--since` reads durations as `set --for` does (seconds and combinations too) and times with an offset.
    @Test(arguments: [("1d2h", 1), ("25h59m59s", 0), ("2030-01-02T10:00:00+02:00", 1), ("2030-01-02T08:00:01", 0)])
    func sinceReadsTheCommandLinesDurationsAndTimes(since: String, expected: Int) async throws {
        let sandbox = try CLISandbox()
        let set = ["FLAGSTAFF_NOW": "2030-01-02T08:00:00Z"]
        #expect(try await sandbox.run(["set", "blueText", "on"], environment: set).status == 0)
        let result = try await sandbox.run(
            ["history", "--since", since, "--json"], environment: ["FLAGSTAFF_NOW": "2030-01-03T10:00:00Z"])
        #expect(result.status == 0, "\(result)")
        #expect((try sandbox.jsonObject(result)["changes"] as? [Any])?.count == expected, "\(result)")
    }

    @Test func malformedJournalLinesAreReportedAndSkipped() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let journal = sandbox.storePath + ".history.jsonl"
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data("garbage\n".utf8))
        try handle.close()
        #expect(try await sandbox.run(["set", "blueText", "off"]).status == 0, "a bad journal never blocks a change")
        let result = try await sandbox.run(["history"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("history.jsonl:2: $: expected a JSON object"), "\(result)")
        #expect(result.standardOutput.contains("blueText: on → off"))
    }

    @Test func importIsJournaledAsImport() async throws {
        let sandbox = try CLISandbox()
        let file = try sandbox.write("in.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        #expect(try await sandbox.run(["import", file]).status == 0)
        let object = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        #expect((object["changes"] as? [[String: Any]])?.first?["origin"] as? String == "import")
    }
}

@Suite("flagstaff history (process)")
struct HistoryProcessTests {
    @Test func theJournalRecordsTheCommandLineOfTheWritingProcess() async throws {
        let sandbox = try CLISandbox()
        let set = try await sandbox.runProcess(["set", "blueText", "on", "--store", sandbox.storePath])
        #expect(set.status == 0, "\(set)")
        let result = try await sandbox.runProcess(["history", "--json", "--store", sandbox.storePath])
        #expect(result.status == 0, "\(result)")
        let changes = try #require(try sandbox.jsonObject(result)["changes"] as? [[String: Any]])
        #expect(changes.first?["command"] as? String == "flagstaff set blueText on --store \(sandbox.storePath)")
        #expect(changes.first?["origin"] as? String == "cli")
        #expect((changes.first?["pid"] as? Int).map { $0 > 0 && $0 != Int(getpid()) } == true)
    }
}
