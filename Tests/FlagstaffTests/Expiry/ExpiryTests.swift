import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

/// A wall clock a test sets to any date, backwards included.
private final class SettableWallClock: WallClock, @unchecked Sendable {
    // @unchecked: the date lives behind the mutex.
    private let current: AnnotatedMutex<Date>
    init(_ date: Date) { current = AnnotatedMutex(date) }
    var date: Date {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

@Suite struct ExpiryTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    let clock = ManualClock()

    private func registry(_ store: any OverrideStore, wallClock: (any WallClock)? = nil) -> FeatureRegistry<AppFeatures>
    {
        FeatureRegistry(
            AppFeatures(), store: store,
            options: RegistryOptions(
                storeWatchInterval: nil, clock: clock, launchOverrides: .none, wallClock: wallClock ?? clock))
    }

    private func text(_ date: Date) -> String { CivilDate.timestampText(date) }

    // MARK: The store file

    @Test func theStoreKeepsExpiryBesideTheOverridesAndFilesWithoutItLoadUnchanged() throws {
        let plain = #"{"version":1,"overrides":{"blueText":"on"},"note":"kept"}"#
        try Data(plain.utf8).write(to: file)
        let store = try FileOverrideStore(url: file, wallClock: clock)
        #expect(try store.loadSnapshot() == StoreSnapshot(overrides: ["blueText": .on]))
        let expiry = OverrideExpiry(expiresAt: clock.date + 3600, setAt: clock.date)
        let written = try store.write(OverrideChange(["debugLogging": .set(.off)], expiries: ["debugLogging": expiry]))
        #expect(written.expiries == ["debugLogging": expiry])
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""expiry": {"debugLogging":{"at":"\#(self.text(expiry.expiresAt))","set":"#))
        #expect(text.contains(#""note": "kept""#))
        let reread = try FileOverrideStore(url: file, wallClock: clock).loadSnapshot()
        #expect(
            reread == StoreSnapshot(overrides: ["blueText": .on, "debugLogging": .off], expiries: written.expiries))
        // Setting the key again without an expiry makes it permanent; removing it drops the expiry too.
        #expect(try store.write(OverrideChange(["debugLogging": .set(.on)], expiries: [:])).expiries.isEmpty)
        _ = try store.write(OverrideChange(["debugLogging": .set(.off)], expiries: ["debugLogging": expiry]))
        #expect(try store.write(["debugLogging": .remove]).overrides.isEmpty == false)
        #expect(try store.loadSnapshot().expiries.isEmpty)
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("expiry"))
    }

    @Test(arguments: [
        (#""expiry":[]"#, "$.expiry", "expected an object"),
        (#""expiry":{"blueText":"soon"}"#, #"$.expiry["blueText"]"#, "expected an object"),
        (#""expiry":{"blueText":{}}"#, #"$.expiry["blueText"]"#, #"missing "at""#),
        (#""expiry":{"blueText":{"at":"tomorrow"}}"#, #"$.expiry["blueText"].at"#, "expected a UTC time"),
        (#""expiry":{"blueText":{"at":"2026-12-01T10:00:00Z","set":5}}"#, #"$.expiry["blueText"].set"#, "found 5"),
    ])
    func aMalformedExpiryIsACorruptStoreNamingThePath(member: String, path: String, problem: String) throws {
        let original = Data(#"{"version":1,"overrides":{"blueText":"on"},\#(member)}"#.utf8)
        try original.write(to: file)
        let store = try FileOverrideStore(url: file)
        let error = try #require(throws: OverrideStoreError.self) { try store.loadSnapshot() }
        #expect(error.description.contains(file.path))
        #expect(error.description.contains(path))
        #expect(error.description.contains(problem))
        #expect(throws: OverrideStoreError.self) { try store.write(["blueText": .set(.off)]) }
        #expect(try Data(contentsOf: file) == original)  // never overwritten
    }

    @Test func aWriteByAnyoneRemovesExpiredOverridesAsAJournaledChangeThatUndoSkips() throws {
        let store = try FileOverrideStore(url: file, wallClock: clock)
        let expiry = OverrideExpiry(expiresAt: clock.date + 60, setAt: clock.date)
        _ = try store.write(OverrideChange(["blueText": .set(.on)], expiries: ["blueText": expiry]))
        clock.advance(by: .seconds(61))
        // Another process (another store object) writes something else.
        let other = try FileOverrideStore(url: file, wallClock: clock)
        #expect(try other.loadSnapshot().overrides == ["blueText": .on])  // still in the file until a write
        _ = try other.write(["debugLogging": .set(.off)])
        #expect(try other.loadSnapshot() == StoreSnapshot(overrides: ["debugLogging": .off]))
        let changes = try #require(try other.journal()).read().changes
        #expect(changes.map(\.origin) == [.app, .expiry, .app])
        #expect(changes[1].entries.map(\.key) == ["blueText"])
        #expect(changes[1].entries.first?.new == nil)
        // Undo reverts the last change someone made, not the expiry; undoing the expired set is refused.
        let undone = try other.undo()
        #expect(undone.target.keys == ["debugLogging"])
        #expect(throws: HistoryError.self) { try other.undo() }
        #expect(try other.load().isEmpty)
    }

    // MARK: The registry

    @Test func anExpiredOverrideStopsApplyingAtItsTimeWithoutAWrite() async throws {
        let store = try FileOverrideStore(url: file, wallClock: clock)
        let features = registry(store)
        let changes = Mutex<[FeatureChange]>([])
        let subscription = features.onChange { change in changes.withLock { $0.append(change) } }
        defer { subscription.cancel() }
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date + 3600)
        #expect(features.blueText.enabled)
        let expiry = try #require(features.blueText.overrideExpiry)
        #expect(expiry.expiresAt == clock.date + 3600)
        #expect(expiry.setAt == clock.date)
        let step = try #require(features.blueText.explanation.chain.first { $0.source == .override })
        #expect(step.expiresAt == expiry.expiresAt)
        let bytes = try Data(contentsOf: file)

        try await clock.waitForSleepers()
        clock.advance(by: .seconds(3599))
        #expect(features.blueText.enabled)
        clock.advance(by: .seconds(1))
        #expect(await eventually { !features.blueText.enabled })
        #expect(features.blueText.overrideExpiry == nil)
        #expect(features.storedOverrides.isEmpty)
        #expect(features.expiredOverrides == ["blueText": .on])
        #expect(changes.withLock { $0.last } == FeatureChange(keys: ["blueText"], origin: .expiry))
        #expect(try Data(contentsOf: file) == bytes)  // nothing written by the reader
        // A second registry (another process) started now does not apply it either.
        let later = registry(try FileOverrideStore(url: file, wallClock: clock))
        #expect(!later.blueText.enabled)
        #expect(later.expiredOverrideExpiries["blueText"] == expiry)
    }

    @Test func settingTheClockBackNeverBringsAnExpiredOverrideBackInAProcess() throws {
        let wall = SettableWallClock(clock.date)
        let store = try FileOverrideStore(url: file, wallClock: wall)
        let features = registry(store, wallClock: wall)
        let start = wall.date
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: start + 60)
        wall.date = start + 61
        features.refreshFromStore()
        #expect(!features.blueText.enabled)
        #expect(try store.loadSnapshot().overrides == ["blueText": .on])  // still in the file: nobody wrote
        wall.date = start + 10  // the system clock is set back
        features.refreshFromStore()
        #expect(!features.blueText.enabled)
        #expect(features.now == start + 61)
    }

    @Test func anExpiryMustBeInTheFutureAndValuesAreValidatedAllOrNothing() throws {
        let store = try FileOverrideStore(url: file, wallClock: clock)
        let features = registry(store)
        let past = #expect(throws: InvalidOverrideValue.self) {
            try features.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date)
        }
        #expect(past?.reason.contains("not in the future") == true)
        #expect(throws: InvalidOverrideValue.self) {
            try features.setOverrideValues(
                ["blueText": .set(.on), "debugLogging": .set(OverrideValue(string: "maybe"))],
                expiresAt: clock.date + 60)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // The member API and a later permanent set.
        try features.blueText.setOverrideValue(.on, expiresAt: clock.date + 60)
        #expect(features.overrideExpiry(forKey: "blueText") != nil)
        try features.blueText.setOverrideValue(.off)
        #expect(features.overrideExpiry(forKey: "blueText") == nil)
        #expect(try store.loadSnapshot().expiries.isEmpty)
    }

    @Test func inMemoryStoresKeepExpiriesAndStoresWithoutThemRefuseOne() throws {
        let memory = InMemoryOverrideStore(wallClock: clock)
        let features = registry(memory)
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date + 60)
        #expect(memory.loadSnapshot().expiries["blueText"]?.expiresAt == clock.date + 60)
        clock.advance(by: .seconds(60))
        #expect(memory.write(["debugLogging": .set(.off)]).overrides == ["debugLogging": .off])

        final class PlainStore: OverrideStore {
            let contents = AnnotatedMutex<[String: OverrideValue]>([:])
            func load() -> [String: OverrideValue] { contents.withLock { $0 } }
            func write(_ change: OverrideChange) throws -> StoreSnapshot {
                try contents.withLock { overrides in
                    overrides = try change.applied(to: overrides, in: self)
                    return StoreSnapshot(overrides: overrides)
                }
            }
        }
        let plain = registry(PlainStore())
        let refused = #expect(throws: OverrideStoreError.self) {
            try plain.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date + 60)
        }
        #expect(refused?.description.contains("does not keep expiry times") == true)
        try plain.setOverrideValues(["blueText": .set(.on)], expiresAt: nil)
        #expect(plain.blueText.enabled)
    }

    @Test func shortTextRoundsDownToTwoUnits() {
        #expect(OverrideExpiry.shortText(-5) == "0s")
        #expect(OverrideExpiry.shortText(45) == "45s")
        #expect(OverrideExpiry.shortText(59 * 60 + 59) == "59m")
        #expect(OverrideExpiry.shortText(3 * 3600) == "3h")
        #expect(OverrideExpiry.shortText(3 * 3600 + 5 * 60 + 9) == "3h 5m")
        #expect(OverrideExpiry.shortText(2 * 86_400 + 4 * 3600 + 1) == "2d 4h")
        #expect(OverrideExpiry.shortText(7 * 86_400) == "7d")
    }
}

/// Expiry times at the edges of what a store holds.
@Suite struct ExpiryRangeTests {
    @Test func theLibraryRefusesAnExpiryPastTheStoresLastTime() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("s.json")
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: url))
        let tooLate = OverrideExpiry.storableRange.upperBound.addingTimeInterval(1)
        let error = try #require(throws: InvalidOverrideValue.self) {
            try registry.setOverrideValues(["blueText": .set(.on)], expiresAt: tooLate)
        }
        #expect(error.reason.contains("outside the times a store can hold"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // The last time a store holds is written and read back.
        let last = OverrideExpiry.storableRange.upperBound
        try registry.setOverrideValues(["blueText": .set(.on)], expiresAt: last)
        #expect(try FileOverrideStore(url: url).loadSnapshot().expiries["blueText"]?.expiresAt == last)
    }

    @Test func theExpiryTimerWaitsAtMostACenturyAtATime() {
        let now = Date(timeIntervalSince1970: 1_796_119_200)
        let far = OverrideExpiry.storableRange.upperBound
        #expect(ExpiryTimer.wait(until: far, now: now) == .seconds(100 * 365 * 86_400))
        #expect(ExpiryTimer.wait(until: now.addingTimeInterval(1.5), now: now) == .milliseconds(1500))
        #expect(ExpiryTimer.wait(until: now, now: now) == nil)
    }

    @Test func storeTimesAreReadStrictlyAndNeverTrap() {
        #expect(JournalTime.date(Array("2030-02-28T00:00:00Z".utf8)) != nil)
        #expect(JournalTime.date(Array("2030-02-30T00:00:00Z".utf8)) == nil)
        #expect(JournalTime.date(Array("2030-04-31T00:00:00.000Z".utf8)) == nil)
        let long = "2030-01-01T00:00:00." + String(repeating: "9", count: 40) + "Z"
        #expect(JournalTime.date(Array(long.utf8))?.timeIntervalSince1970 ?? 0 > 1_893_456_000.99)
        #expect(JournalTime.date(Array("2030-01-01T00:00:00.12x4Z".utf8)) == nil)
        #expect(CivilDate.timestampText(Date(timeIntervalSince1970: 1e300)).hasSuffix("Z"))
        #expect(CivilDate.timestampText(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }
}
