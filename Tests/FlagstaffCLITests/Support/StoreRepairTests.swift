import Foundation
import Testing

/// A store whose only problem is an entry it cannot read (an expiry a far-future `--until` wrote before such times
/// were refused): every read refuses it, and `reset` of that key, `reset --all` and `doctor --fix` remove the entry.
@Suite struct StoreRepairTests {
    static let bricked =
        #"{"version":1,"overrides":{"blueText":"on","maxItems":5},"expiry":{"blueText":{"at":"10000-01-01T00:00:00.000Z","set":"2026-01-01T00:00:00.000Z"}}}"#

    @Test func readsRefuseTheStoreAndSayHowToRepairIt() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", Self.bricked)
        let list = try await sandbox.runWithStore(["list"])
        #expect(list.status == 1, "\(list)")
        #expect(
            list.standardError.contains(
                #"$.expiry["blueText"].at: expected a UTC time like "2026-12-01T10:00:00.000Z", found "10000-01-01T00:00:00.000Z"; resetting that key (or `flagstaff doctor --fix`) removes the entry"#
            ), "\(list)")
        // Resetting another key does not touch the unreadable entry: refused, nothing written.
        let other = try await sandbox.runWithStore(["reset", "maxItems"])
        #expect(other.status == 1, "\(other)")
        #expect(sandbox.storeBytes() == Data(Self.bricked.utf8))
    }

    @Test(arguments: [["reset", "blueText"], ["reset", "--all"], ["reset", "--match", "blue*"]])
    func resetRemovesTheUnreadableEntry(arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", Self.bricked)
        let reset = try await sandbox.runWithStore(arguments)
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardOutput.contains("blueText: default"), "\(reset)")
        #expect(
            reset.standardError.contains(
                #"flagstaff: note: removed the store's unreadable entry for blueText ($.expiry["blueText"].at"#),
            "\(reset)")
        let expected: [String: String] = arguments.contains("--all") ? [:] : ["maxItems": "5"]
        #expect(try sandbox.storedJSON() == expected)
        let list = try await sandbox.runWithStore(["list"])
        #expect(list.status == 0, "the store reads again: \(list)")
    }

    @Test func doctorFixRemovesEveryUnreadableEntryAndNothingElseIsLost() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json",
            #"{"version":1,"overrides":{"blueText":"on","maxItems":5,"old.key":"on"},"note":"kept","#
                + #""expiry":{"blueText":{"at":"10000-01-01T00:00:00.000Z"},"old.key":{"at":"soon"},"maxItems":{"at":"9999-01-01T00:00:00.000Z"}}}"#
        )
        let plain = try await sandbox.runWithStore(["doctor"])
        #expect(plain.status == 1 && plain.standardError.contains("doctor --fix"), "\(plain)")
        let fixed = try await sandbox.runWithStore(["doctor", "--fix"])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.standardOutput.contains("removed blueText (unreadable-entry)"), "\(fixed)")
        #expect(fixed.standardOutput.contains("removed old.key (unreadable-entry)"), "\(fixed)")
        let bytes = try #require(sandbox.storeBytes())
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(object["note"] as? String == "kept")
        #expect(try sandbox.storedJSON() == ["maxItems": "5"])
        #expect((object["expiry"] as? [String: Any])?.keys.sorted() == ["maxItems"], "the readable expiry stays")
        // One journaled change, which history shows.
        let history = try await sandbox.runWithStore(["history"])
        #expect(history.standardOutput.contains("blueText: on → default"), "\(history)")
    }
}
