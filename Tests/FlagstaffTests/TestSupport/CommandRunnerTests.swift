import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// The tests' one process runner: a started program is read while it runs, stopped by the test, and killed at a
/// deadline.
@Suite struct CommandRunnerTests {
    @Test func aStartedProgramIsReadWhileItRunsAndStoppedByTheTest() async throws {
        let running = try CommandRunner.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo ready; exec sleep 3600"])
        #expect(try await running.waitForOutput(containing: "ready\n", timeout: .seconds(60)))
        #expect(!running.hasEnded)
        let result = running.stop()
        #expect(result.status == 128 + SIGKILL)
        #expect(result.standardOutput == "ready\n")
        #expect(running.stop().status == 128 + SIGKILL, "a second stop signals nothing and reports the same")
    }

    @Test func waitingForOutputEndsWhenTheProgramEndsWithoutIt() async throws {
        let running = try CommandRunner.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo other; exit 3"])
        #expect(try await !running.waitForOutput(containing: "ready", timeout: .seconds(60)))
        #expect(try await running.finish().status == 3)
    }

    @Test func aProgramStillRunningAtTheDeadlineIsKilled() async throws {
        let running = try CommandRunner.start(URL(fileURLWithPath: "/bin/sleep"), ["60"])
        await #expect(throws: CommandRunner.Failure.self) { try await running.finish(timeout: .milliseconds(100)) }
        #expect(running.hasEnded)
    }

    @Test func aThreadLockHolderHoldsUntilReleased() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("overrides.json")
        let lock = try await StoreLockHolder.onThread(path: file.path)
        #expect(lock.pid == getpid())
        let store = try FileOverrideStore(url: file, lockWait: .init(timeout: .zero))
        #expect(throws: OverrideStoreError.self) { try store.write(["a": .set(.on)]) }
        lock.release()
        lock.release()  // a second release does nothing
        let waiting = try FileOverrideStore(url: file, lockWait: .init(timeout: .seconds(60)))
        #expect(try await offCooperativePool { try waiting.write(["a": .set(.on)]).overrides } == ["a": .on])
    }
}
