import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// The journal keeps each override's expiry beside its values, so undo and redo put an override back with the
/// expiry it had, and a change of expiry alone is a change like any other.
@Suite struct HistoryExpiryTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    let clock = ManualClock()

    private func registry() throws -> FeatureRegistry<AppFeatures> {
        FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file, wallClock: clock),
            options: RegistryOptions(storeWatchInterval: nil, clock: clock, launchOverrides: .none, wallClock: clock))
    }

    /// Times as the journal and the store write them (milliseconds).
    private func text(_ date: Date?) -> String? { date.map(JournalTime.text) }

    @Test func aLineKeepsBothExpiryTimesAndLinesWithoutThemAreUnchanged() throws {
        let plain = JournalEntry(
            time: Date(timeIntervalSince1970: 1_800_000_000), change: "c1", key: "a", old: .on, new: .off,
            origin: .cli, user: "qa", pid: 1, command: "flagstaff set")
        #expect(!JournalLine.encode(plain).contains("Expires"))
        var timed = plain
        timed.oldExpiresAt = Date(timeIntervalSince1970: 1_800_000_060.5)
        timed.newExpiresAt = Date(timeIntervalSince1970: 1_800_003_600)
        let line = JournalLine.encode(timed)
        #expect(line.contains(#""oldExpires":"2027-01-15T08:01:00.500Z","newExpires":"2027-01-15T09:00:00.000Z""#))
        var cache = JournalLine.StringCache()
        let bytes = Array(line.utf8.dropLast())
        let decoded = try bytes.withUnsafeBufferPointer { try JournalLine.decode($0, cache: &cache) }
        #expect(decoded == timed)
        #expect(JournalLine.encode([timed, plain]) == JournalLine.encode(timed) + JournalLine.encode(plain))
        let bad = Array(
            #"{"time":"2027-01-15T08:00:00Z","change":"c","key":"a","old":null,"new":"on","origin":"cli","newExpires":"soon"}"#
                .utf8)
        #expect(throws: JournalLine.Failure.self) {
            try bad.withUnsafeBufferPointer { try JournalLine.decode($0, cache: &cache) }
        }
    }

    @Test func undoPutsBackTheExpiryOfTheOverrideItReplacedAndRedoTheNewOne() async throws {
        let features = try registry()
        let deadline = clock.date + 3600
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: deadline)
        try features.setOverrideValues(["blueText": .set(.off)])
        #expect(features.overrideExpiry(forKey: "blueText") == nil)
        let undone = try ChangeHistory(features).undo()
        #expect(undone.overrides["blueText"] == .on)
        #expect(text(features.overrideExpiry(forKey: "blueText")?.expiresAt) == text(deadline))
        #expect(features.blueText.override == .enabled)
        _ = try ChangeHistory(features).redo()
        #expect(features.blueText.override == .disabled)
        #expect(features.overrideExpiry(forKey: "blueText") == nil)
        // The undone override still expires at its time.
        _ = try ChangeHistory(features).undo()
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(3600))
        #expect(await eventually { features.blueText.override == .featureDefault })
    }

    @Test func aChangeOfExpiryAloneIsJournaledAndUndone() throws {
        let features = try registry()
        let hour = clock.date + 3600
        let day = clock.date + 86_400
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: hour)
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: day)
        let store = try #require(features.store as? FileOverrideStore)
        let history = try #require(try store.journal()).read().changes
        let last = try #require(history.last?.entries.first)
        #expect(last.old == .on && last.new == .on)
        #expect(text(last.oldExpiresAt) == text(hour) && text(last.newExpiresAt) == text(day))
        _ = try ChangeHistory(features).undo()
        #expect(text(features.overrideExpiry(forKey: "blueText")?.expiresAt) == text(hour))
        // Made permanent: also a change.
        try features.setOverrideValues(["blueText": .set(.on)])
        #expect(features.overrideExpiry(forKey: "blueText") == nil)
        _ = try ChangeHistory(features).undo()
        #expect(text(features.overrideExpiry(forKey: "blueText")?.expiresAt) == text(hour))
    }

    @Test func undoDoesNotBringBackAnOverridePastItsExpiry() throws {
        let features = try registry()
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date + 60)
        try features.setOverrideValues(["blueText": .set(.off)])
        clock.advance(by: .seconds(120))
        let undone = try ChangeHistory(features).undo()
        #expect(undone.overrides["blueText"] == nil)
        #expect(features.blueText.override == .featureDefault)
    }
}
