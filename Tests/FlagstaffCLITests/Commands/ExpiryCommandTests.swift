import Flagstaff
import Foundation
import Testing

@Suite("flagstaff set --for/--until, list and get with expiring overrides")
struct ExpiryCommandTests {
    static let start = "2026-12-01T10:00:00Z"

    /// Runs the built binary at the time `now` (FLAGSTAFF_NOW).
    func runAt(_ now: String, _ sandbox: CLISandbox, _ arguments: [String]) async throws -> CLIResult {
        try await sandbox.runProcess(
            arguments + ["--store", sandbox.storePath], environment: ["FLAGSTAFF_NOW": now])
    }

    @Test func anOverrideSetForThirtyMinutesExpiresForOtherProcessesAndLeavesAtTheNextWrite() async throws {
        let sandbox = try CLISandbox()
        let set = try await runAt(Self.start, sandbox, ["set", "blueText", "on", "--for", "30m"])
        #expect(set.status == 0, "\(set)")
        #expect(set.standardOutput == "blueText: on (ON by override) until 2026-12-01T10:30:00Z, 30m left\n")
        // Before the time, another process sees it and says when it expires.
        #expect(try await runAt("2026-12-01T10:29:59Z", sandbox, ["get", "blueText"]).standardOutput == "on\n")
        let explain = try await runAt("2026-12-01T10:10:00Z", sandbox, ["get", "blueText", "--explain"])
        #expect(explain.standardOutput.contains("  expires   2026-12-01T10:30:00Z (20m left)\n"), "\(explain)")
        #expect(explain.standardOutput.contains("* override  ON   (until 2026-12-01T10:30:00Z)"), "\(explain)")
        // From the time on, no process applies it, though it is still in the file.
        let after = try await runAt("2026-12-01T10:30:00Z", sandbox, ["get", "blueText"])
        #expect(after.standardOutput == "off\n", "\(after)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
        // The next write by any process removes it, journaled as expiry.
        #expect(try await runAt("2026-12-01T11:00:00Z", sandbox, ["set", "debugLogging", "off"]).status == 0)
        #expect(try sandbox.storedOverrides() == ["debugLogging": "off"])
        let history = try sandbox.jsonObject(
            try await runAt("2026-12-01T11:00:00Z", sandbox, ["history", "--json"]))
        let changes = try #require(history["changes"] as? [[String: Any]])
        let expiry = try #require(changes.first { $0["origin"] as? String == "expiry" })
        let keys = (expiry["changes"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
        #expect(keys == ["blueText"])
    }

    /// `--for` reads the durations `history --since` reads: seconds too, combinable.
    @Test(arguments: [("90s", "2026-12-01T10:01:30Z"), ("1h30m15s", "2026-12-01T11:30:15Z")])
    func forTakesSecondsAndCombinations(duration: String, expiresAt: String) async throws {
        let sandbox = try CLISandbox()
        let now = ["FLAGSTAFF_NOW": Self.start]
        let set = try await sandbox.run(["set", "blueText", "on", "--for", duration], environment: now)
        #expect(set.status == 0, "\(set)")
        let json = try sandbox.jsonObject(try await sandbox.run(["get", "blueText", "--json"], environment: now))
        #expect(json["expiresAt"] as? String == expiresAt, "\(json)")
    }

    @Test func untilSetsTheGivenTimeAndGetJSONCarriesIt() async throws {
        let sandbox = try CLISandbox()
        let now = ["FLAGSTAFF_NOW": Self.start]
        let set = try await sandbox.run(["set", "maxItems", "30", "--until", "2026-12-03T12:00:00Z"], environment: now)
        #expect(set.status == 0, "\(set)")
        #expect(set.standardOutput == "maxItems: 30 (30 by override) until 2026-12-03T12:00:00Z, 2d 2h left\n")
        let json = try sandbox.jsonObject(try await sandbox.run(["get", "maxItems", "--json"], environment: now))
        #expect(json["expiresAt"] as? String == "2026-12-03T12:00:00Z")
        let chain = try #require(json["chain"] as? [[String: Any]])
        #expect(
            chain.first { $0["source"] as? String == "override" }?["expiresAt"] as? String == "2026-12-03T12:00:00Z")
        let list = try await sandbox.run(["list", "--json"], environment: now)
        let flags = try #require(try sandbox.jsonObject(list)["flags"] as? [[String: Any]])
        #expect(flags.first { $0["key"] as? String == "maxItems" }?["expiresAt"] as? String == "2026-12-03T12:00:00Z")
        #expect(flags.first { $0["key"] as? String == "blueText" }?["expiresAt"] == nil)
    }

    @Test func listShowsTheTimeLeftAndNotesExpiredOverrides() async throws {
        let sandbox = try CLISandbox()
        #expect(
            try await sandbox.run(
                ["set", "blueText", "on", "list.compactRows", "on", "--for", "1d12h"],
                environment: ["FLAGSTAFF_NOW": Self.start]
            ).status == 0)
        #expect(
            try await sandbox.run(["set", "debugLogging", "off"], environment: ["FLAGSTAFF_NOW": Self.start]).status
                == 0)
        let list = try await sandbox.run(
            ["list", "--overridden"], environment: ["FLAGSTAFF_NOW": "2026-12-01T12:30:00Z"])
        #expect(list.status == 0, "\(list)")
        let lines = list.standardOutput.split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("blueText ") }?.hasSuffix("* expires 1d 9h") == true, "\(list)")
        #expect(lines.first { $0.hasPrefix("debugLogging ") }?.hasSuffix("*") == true, "\(list)")
        let later = try await sandbox.run(
            ["list", "--overridden"], environment: ["FLAGSTAFF_NOW": "2026-12-03T00:00:00Z"])
        #expect(
            later.standardError.contains(
                "2 expired override(s) no longer apply and leave the store at its next write: blueText, list.compactRows"
            ),
            "\(later)")
        #expect(!later.standardOutput.contains("blueText"))
    }

    @Test(arguments: [
        (["--for", "90"], "--for '90': expected a duration like 90s, 30m, 2h or 3d"),
        (["--for", "0m"], "--for '0m': expected a duration"),
        (["--for", "2x"], "--for '2x': expected a duration"),
        (["--for", "99999999999999w"], "--for '99999999999999w': expected a duration"),
        (["--until", "tomorrow"], "--until 'tomorrow': expected an ISO 8601 time with a zone"),
        (["--until", "2026-12-01T10:00:00"], "--until '2026-12-01T10:00:00': expected an ISO 8601 time"),
        (
            ["--until", "2026-11-30T10:00:00Z"],
            "--until 2026-11-30T10:00:00Z is not in the future (now 2026-12-01T10:00:00Z)"
        ),
        (["--until", "2026-12-01T10:00:00Z"], "is not in the future"),
        (["--for", "1h", "--until", "2026-12-02T10:00:00Z"], "give either --for or --until, not both"),
        // Impossible times are refused, not moved (02-30 was March 2, +99:00 was +09:00).
        (
            ["--until", "2030-02-30T00:00:00Z"],
            "--until '2030-02-30T00:00:00Z': there is no 2030-02-30 (February 2030 has 28 days); expected an ISO 8601"
        ),
        (["--until", "2030-04-31T00:00:00Z"], "there is no 2030-04-31 (April 2030 has 30 days)"),
        (["--until", "2030-13-01T00:00:00Z"], "there is no month 13 in 2030-13-01"),
        (["--until", "2030-01-01T24:00:00Z"], "there is no hour 24"),
        (["--until", "2030-01-01T10:00:00+99:00"], "the offset +99:00 is not a time zone (at most ±23:59)"),
        (["--until", "2030-01-01T10:00:00+0960"], "the offset +0960 is not a time zone"),
        // Past the store's last time (four-digit years): refused with the range, never written.
        (
            ["--until", "10000-01-01T00:00:00Z"],
            "--until 10000-01-01T00:00:00Z is after the latest time a store can hold (it holds times from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z)"
        ),
        (["--until", "99999-12-31T00:00:00Z"], "is after the latest time a store can hold"),
    ])
    func badExpiriesAreUsageErrorsAndWriteNothing(options: [String], message: String) async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "debugLogging", "off"]).status == 0)
        let before = sandbox.storeBytes()
        let result = try await sandbox.run(
            ["set", "blueText", "on"] + options, environment: ["FLAGSTAFF_NOW": Self.start])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(message), "\(result)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func anExpiryWithOnlyRemovalsIsRefused() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["set", "blueText", "default", "--for", "1h"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("an expiry applies to values set"), "\(result)")
    }

    @Test func anInvalidFlagstaffNowNamesTheVariable() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["get", "blueText", "--store", sandbox.storePath], environment: ["FLAGSTAFF_NOW": "noon"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.standardError.contains("FLAGSTAFF_NOW='noon': expected an ISO 8601 time like 2026-12-01T10:00:00Z"))
    }

    @Test func setWithoutAnExpiryMakesTheOverridePermanent() async throws {
        let sandbox = try CLISandbox()
        let now = ["FLAGSTAFF_NOW": Self.start]
        #expect(try await sandbox.run(["set", "blueText", "on", "--for", "2h"], environment: now).status == 0)
        let again = try await sandbox.run(["set", "blueText", "on"], environment: now)
        #expect(again.standardOutput == "blueText: on (ON by override)\n", "\(again)")
        let later = try await sandbox.run(["get", "blueText"], environment: ["FLAGSTAFF_NOW": "2027-01-01T00:00:00Z"])
        #expect(later.standardOutput == "on\n")
    }

    @Test func matchTakesAnExpiryToo() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(
            ["set", "--match", "list.*", "on", "--for", "2h"], environment: ["FLAGSTAFF_NOW": Self.start])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").allSatisfy {
                $0.hasSuffix("until 2026-12-01T12:00:00Z, 2h left")
            })
        let after = try await sandbox.run(
            ["get", "list.compactRows"], environment: ["FLAGSTAFF_NOW": "2026-12-01T12:00:01Z"])
        #expect(after.standardOutput == "off\n")
    }
}
