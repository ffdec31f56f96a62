import Foundation
import Testing

@testable import Flagstaff

@Suite struct BisectTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    /// `count` candidate overrides `k00`, `k01`, … alternating on/off, and one non-candidate setting value.
    func makeStore(candidates count: Int) throws -> FileOverrideStore {
        let store = try FileOverrideStore(url: file)
        var overrides: [String: OverrideEdit] = [:]
        for index in 0..<count {
            overrides[String(format: "cand.k%02d", index)] = .set(index % 2 == 0 ? .on : .off)
        }
        overrides["other.limit"] = .set(try OverrideValue(json: "42"))
        _ = try store.write(OverrideChange(overrides))
        return store
    }

    /// Bisects with an oracle that reads the store as a restarted app would (a new store on the same file) and
    /// says `bad` when the culprit is applied. Returns the culprit found and the number of answers given.
    func bisect(culprit: String, pattern: String?) throws -> (found: String?, answers: Int) {
        var session = try FileOverrideStore(url: file).startBisect(matching: pattern)
        var answers = 0
        while !session.isDone {
            let app = try FileOverrideStore(url: file).load()
            #expect(Set(session.testing).isSubset(of: app.keys))
            #expect(app["other.limit"] == (try OverrideValue(json: "42")), "a non-candidate was touched")
            let answer: BisectAnswer = app[culprit] != nil ? .bad : .good
            session = try FileOverrideStore(url: file).answerBisect(answer)
            answers += 1
            #expect(answers <= 64, "runaway bisect")
            if answers > 64 { break }
        }
        return (session.culprit, answers)
    }

    @Test(arguments: [1, 2, 7, 64])
    func aScriptedOracleFindsEveryCulpritWithinLogTwoAnswers(count: Int) throws {
        let culprits = count <= 7 ? Array(0..<count) : [0, 1, 17, 31, 32, 50, 62, 63]
        let limit = BisectSession.maximumAnswers(count)
        #expect(limit == [1: 0, 2: 1, 7: 3, 64: 6][count])
        for index in culprits {
            _ = try makeStore(candidates: count)
            let before = try Data(contentsOf: file)
            let culprit = String(format: "cand.k%02d", index)
            let result = try bisect(culprit: culprit, pattern: "cand.*")
            #expect(result.found == culprit)
            #expect(result.answers <= limit, "\(culprit): \(result.answers) answers for \(count) candidates")
            if count == 64 { #expect(result.answers == limit) }
            // Once done, the culprit alone of the candidates is applied.
            let done = try FileOverrideStore(url: file).load()
            #expect(done.keys.filter { $0.hasPrefix("cand.") } == [culprit])
            try FileOverrideStore(url: file).resetBisect()
            #expect(try Data(contentsOf: file) == before, "reset restores the store byte for byte")
            #expect(try FileOverrideStore(url: file).bisectSession() == nil)
        }
    }

    @Test func eachStepIsOneJournaledChangeWithOriginBisect() throws {
        let store = try makeStore(candidates: 4)
        let historyBefore = try #require(try store.journal()).read().changes.count
        let session = try store.startBisect()
        #expect(session.candidates.count == 5, "without a pattern every override is a candidate")
        #expect(session.testing == ["cand.k00", "cand.k01", "cand.k02"])
        try store.answerBisect(.good)
        try store.resetBisect()
        let changes = try #require(try store.journal()).read().changes.dropFirst(historyBefore)
        #expect(changes.map(\.origin) == [.bisect, .bisect, .bisect])
        // Start removes the second half; `good` swaps in cand.k03 alone; reset puts back the others.
        #expect(
            changes.map { Set($0.keys) } == [
                ["cand.k03", "other.limit"], ["cand.k00", "cand.k01", "cand.k02", "cand.k03"],
                ["cand.k00", "cand.k01", "cand.k02", "other.limit"],
            ])
    }

    @Test func theSessionSurvivesNewStoresAndRegistries() throws {
        _ = try makeStore(candidates: 7)
        let started = try FileOverrideStore(url: file).startBisect(matching: "cand.*")
        try FileOverrideStore(url: file).answerBisect(.bad)
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file))
        let session = try #require(try Bisection(registry).session())
        #expect(session.answers == [.bad])
        #expect(session.startedAt.timeIntervalSince1970.rounded() == started.startedAt.timeIntervalSince1970.rounded())
        #expect(session.pattern == "cand.*")
        #expect(session.remaining == ["cand.k00", "cand.k01", "cand.k02", "cand.k03"])
        #expect(session.testing == ["cand.k00", "cand.k01"])
        #expect(session.step == 2 && session.answersLeft == 2)
    }

    @Test func resetRestoresTheCandidatesAndKeepsLaterChangesToOthers() throws {
        let store = try makeStore(candidates: 3)
        let before = try store.load()
        try store.startBisect(matching: "cand.*")
        try store.answerBisect(.good)
        _ = try store.write(["unrelated": .set(.on)])
        let outcome = try store.resetBisect()
        #expect(outcome.drift.isEmpty)
        #expect(Set(outcome.restored.keys) == ["cand.k00", "cand.k01"])
        var expected = before
        expected["unrelated"] = .on
        #expect(try store.load() == expected)
        #expect(!FileManager.default.fileExists(atPath: try store.bisectStateURL().path))
    }

    @Test func noOverridesOrNoMatchIsAClearErrorAndNothingIsWritten() throws {
        let store = try FileOverrideStore(url: file)
        let none = #expect(throws: BisectError.self) { try store.startBisect() }
        #expect(none?.description.contains("there are no overrides") == true)
        _ = try store.write(["a": .set(.on)])
        let noMatch = #expect(throws: BisectError.self) { try store.startBisect(matching: "checkout.*") }
        #expect(noMatch?.description == #"no override matches "checkout.*": nothing to bisect"#)
        #expect(!FileManager.default.fileExists(atPath: try store.bisectStateURL().path))
        #expect((#expect(throws: BisectError.self) { try store.answerBisect(.good) })?.isNoSession == true)
        #expect((#expect(throws: BisectError.self) { try store.resetBisect() })?.isNoSession == true)
    }

    @Test func aSecondStartIsRefused() throws {
        let store = try makeStore(candidates: 2)
        try store.startBisect()
        let bytes = try Data(contentsOf: file)
        let error = #expect(throws: BisectError.self) { try store.startBisect() }
        #expect(error?.description.contains("already in progress") == true)
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func anAnswerAfterTheStoreChangedIsRefusedNamingTheKey() throws {
        let store = try makeStore(candidates: 4)
        try store.startBisect(matching: "cand.*")
        _ = try store.write(["cand.k03": .set(.on), "cand.k00": .set(.off)])
        let bytes = try Data(contentsOf: file)
        let state = try Data(contentsOf: try store.bisectStateURL())
        let error = try #require(#expect(throws: BisectError.self) { try store.answerBisect(.bad) })
        #expect(error.drift.map(\.key) == ["cand.k00", "cand.k03"])
        #expect(error.description.contains(#"cand.k00 is now "off" (bisect left "on")"#))
        #expect(error.description.contains(#"cand.k03 is now "on" (bisect left not overridden)"#))
        #expect(try Data(contentsOf: file) == bytes)
        #expect(try Data(contentsOf: try store.bisectStateURL()) == state)
        // Reset still restores the values from before the start, and says which it overwrote.
        let outcome = try store.resetBisect()
        #expect(outcome.drift.map(\.key) == ["cand.k00", "cand.k03"])
        #expect(try store.load()["cand.k03"] == .off && store.load()["cand.k00"] == .on)
    }

    @Test func anAnswerAfterTheCulpritIsKnownIsRefused() throws {
        let store = try makeStore(candidates: 2)
        try store.startBisect(matching: "cand.*")
        let done = try store.answerBisect(.bad)
        #expect(done.culprit == "cand.k00" && done.testing.isEmpty && done.remaining == ["cand.k00"])
        let error = #expect(throws: BisectError.self) { try store.answerBisect(.good) }
        #expect(error?.description == "the bisect is done: the culprit is cand.k00")
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("[]", "$: expected an object"),
        (#"{"version":2}"#, "$.version: expected 1"),
        (#"{"version":1,"started":"yesterday"}"#, "$.started: expected a UTC time"),
        (#"{"version":1,"started":"2026-11-23T20:00:00Z","match":3}"#, "$.match: expected a key pattern"),
        (#"{"version":1,"started":"2026-11-23T20:00:00Z","candidates":{}}"#, "$.candidates: expected an object"),
        (
            #"{"version":1,"started":"2026-11-23T20:00:00Z","candidates":{"a":null},"answers":[]}"#,
            #"$.candidates["a"]: expected a value"#
        ),
        (
            #"{"version":1,"started":"2026-11-23T20:00:00Z","candidates":{"a":"on"},"answers":"bad"}"#,
            "$.answers: expected an array"
        ),
        (
            #"{"version":1,"started":"2026-11-23T20:00:00Z","candidates":{"a":"on","b":"on"},"answers":["maybe"]}"#,
            #"$.answers[0]: expected "good" or "bad""#
        ),
        (
            #"{"version":1,"started":"2026-11-23T20:00:00Z","candidates":{"a":"on","b":"on"},"answers":["bad","bad"]}"#,
            "$.answers: invalid bisect session: 2 answers"
        ),
    ])
    func aCorruptStateFileIsReportedWithItsPathAndNeverCrashes(text: String, expected: String) throws {
        let store = try makeStore(candidates: 2)
        let stateURL = try store.bisectStateURL()
        try Data(text.utf8).write(to: stateURL)
        let bytes = try Data(contentsOf: file)
        for operation in [
            { _ = try store.bisectSession() }, { try store.answerBisect(.good) }, { try store.resetBisect() },
            { try store.startBisect() },
        ] as [() throws -> Void] {
            let error = try #require(#expect(throws: BisectError.self) { try operation() })
            #expect(error.isCorruptState)
            #expect(error.description.hasPrefix("the bisect state \(stateURL.path) is not valid: "))
            #expect(error.description.contains(expected), "\(error)")
        }
        #expect(try Data(contentsOf: file) == bytes)
        #expect(try Data(contentsOf: stateURL) == Data(text.utf8), "a corrupt state file is left for the user")
    }

    @Test func theStateFileRoundTrips() throws {
        let session = try BisectSession(
            startedAt: Date(timeIntervalSince1970: 1_795_000_000.25), pattern: "a.\u{1B}*",
            candidates: ["a.x": .on, "a.\"q\"": try OverrideValue(json: #"{"b":[1,2.5]}"#), "a.y": .off],
            answers: [.good])
        let decoded = try BisectStateFile.decode(BisectStateFile.encode(session), path: "state")
        #expect(decoded == session)
    }

    @Test func aRegistryAppliesEachStepAtOnce() throws {
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file))
        try registry.setOverrides(["blueText": .enabled, "list.compactRows": .enabled])
        let session = try Bisection(registry).start()
        #expect(session.testing == ["blueText"])
        #expect(registry.blueText.isOverridden && !registry.list.compactRows.isOverridden)
        try Bisection(registry).answer(.good)
        #expect(!registry.blueText.isOverridden && registry.list.compactRows.isOverridden)
        try Bisection(registry).reset()
        #expect(registry.blueText.isOverridden && registry.list.compactRows.isOverridden)
    }

    @Test func aStoreWithoutAFileHasNoBisect() throws {
        let registry = FeatureRegistry(AppFeatures())
        let error = #expect(throws: BisectError.self) { try Bisection(registry).start() }
        #expect(error?.description.contains("needs a file override store") == true)
    }
}

@Suite struct BisectExpiryTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    @Test func candidatesKeepTheirExpiryWhenAppliedAgainAndAtReset() throws {
        let store = try FileOverrideStore(url: file)
        let expiry = OverrideExpiry(
            expiresAt: Date(timeIntervalSinceNow: 3600).rounded(), setAt: Date(timeIntervalSinceNow: -60).rounded())
        _ = try store.write(OverrideChange(["a": .set(.on), "b": .set(.on)], expiries: ["b": expiry]))
        let before = try Data(contentsOf: file)
        let session = try store.startBisect()
        #expect(session.expiries == ["b": expiry])
        #expect(session.testing == ["a"])
        try store.answerBisect(.good)
        #expect(try store.loadSnapshot() == StoreSnapshot(overrides: ["b": .on], expiries: ["b": expiry]))
        try store.resetBisect()
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func anExpiredCandidateIsNotAppliedAgainNorCountedAsAChange() throws {
        let clock = BisectWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        let store = try FileOverrideStore(url: file, wallClock: clock)
        let expiry = OverrideExpiry(expiresAt: clock.date.addingTimeInterval(60), setAt: clock.date)
        _ = try store.write(OverrideChange(["a": .set(.on), "b": .set(.on), "c": .set(.on)], expiries: ["a": expiry]))
        try store.startBisect()
        clock.date = clock.date.addingTimeInterval(120)
        // a (under test) expired: it is no longer expected in the store, and not drift.
        let next = try store.answerBisect(.good)
        #expect(next.culprit == "c")
        try store.resetBisect()
        #expect(try store.load() == ["b": .on, "c": .on])
    }
}

/// A wall clock a test sets.
private final class BisectWallClock: WallClock, @unchecked Sendable {
    // @unchecked: the date lives behind the mutex.
    private let current: AnnotatedMutex<Date>
    init(_ date: Date) { current = AnnotatedMutex(date) }
    var date: Date {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

extension Date {
    /// The date at whole milliseconds, as the store writes it.
    fileprivate func rounded() -> Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
