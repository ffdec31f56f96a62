import FlagstaffTesting
import Foundation
import Testing

@Suite struct ManualClockTests {
    @Test func nowMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        let start = clock.now
        #expect(clock.now == start)
        clock.advance(by: .seconds(5))
        #expect(start.duration(to: clock.now) == .seconds(5))
        clock.advance(by: .seconds(-3))  // never backwards
        #expect(start.duration(to: clock.now) == .seconds(5))
    }

    @Test func sleepersWakeWhenTheirDeadlineIsReachedInOrder() async throws {
        let clock = ManualClock()
        let woken = WakeLog()
        let late = Task {
            try await clock.sleep(for: .seconds(10))
            await woken.append("late")
        }
        let early = Task {
            try await clock.sleep(for: .seconds(2))
            await woken.append("early")
        }
        try await clock.waitForSleepers(2)
        #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(2)))
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(await woken.names == ["early"])
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(100))
        try await late.value
        #expect(await woken.names == ["early", "late"])
    }

    @Test func aReachedDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(3))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperThrowsAndRemovesIt() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingToAnEarlierInstantKeepsTheTime() {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        let later = clock.now
        clock.advance(to: ManualClock.Instant(offset: .seconds(4)))
        #expect(clock.now == later)
        clock.advance(to: ManualClock.Instant(offset: .seconds(12)))
        #expect(clock.now.offset == .seconds(12))
    }

    @Test func waitingForSleepersAlreadyAsleepReturnsAtOnce() async throws {
        let clock = ManualClock()
        let sleepers = (0..<3).map { _ in Task { try await clock.sleep(for: .seconds(1)) } }
        try await clock.waitForSleepers(3)
        try await clock.waitForSleepers(2)  // fewer than are asleep: no wait
        #expect(clock.sleeperCount == 3)
        clock.advance(by: .seconds(1))
        for sleeper in sleepers { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutSleeping() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitingForSleepersThatNeverComeFailsWithAClearError() async {
        let clock = ManualClock()
        await #expect(throws: ManualClockError.self) {
            try await clock.waitForSleepers(1, timeout: .milliseconds(50))
        }
    }
}

private actor WakeLog {
    var names: [String] = []
    func append(_ name: String) { names.append(name) }
}

@Suite struct ManualClockDateTests {
    @Test func dateFollowsTheClock() {
        let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_000))
        #expect(clock.date == Date(timeIntervalSince1970: 1_000))
        clock.advance(by: .milliseconds(2_500))
        #expect(clock.date == Date(timeIntervalSince1970: 1_002.5))
    }
}
