import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// `--lock-timeout`: a command never waits for a held store lock without a word, and gives up in time.
@Suite("flagstaff --lock-timeout")
struct LockTimeoutTests {
    static var holderTool: URL? { try? BuildProducts.executable(named: "StoreStressTool") }

    @Test(.enabled(if: holderTool != nil, "StoreStressTool is built with the tests (`swift build --build-tests`)"))
    func aHeldLockIsNamedAfterOneSecondAndTheCommandGivesUpAtTheTimeout() async throws {
        let sandbox = try CLISandbox()
        let lock = try await StoreLockHolder.inAnotherProcess(
            tool: try #require(Self.holderTool), path: sandbox.storePath)
        defer { lock.release() }

        let result = try await sandbox.runWithStore(["set", "blueText", "on", "--lock-timeout", "1.3"])
        let who = "pid \(lock.pid) (StoreStressTool hold \(sandbox.storePath))"
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError == """
                flagstaff: note: waiting for the store lock held by \(who)
                flagstaff: error: cannot write the override store \(sandbox.storePath): its lock is held by \(who); gave up after 1.3 s (nothing was changed)

                """, "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func aZeroTimeoutGivesUpAtOnceWithoutANote() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"off"}}"#)
        let before = sandbox.storeBytes()
        let lock = try await StoreLockHolder.onThread(path: sandbox.storePath)
        defer { lock.release() }
        let result = try await sandbox.runWithStore(["set", "blueText", "on", "--lock-timeout", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("flagstaff: error: cannot write the override store"), "\(result)")
        #expect(result.standardError.contains("its lock is held by pid \(getpid()) ("), "\(result)")
        #expect(result.standardError.contains("gave up after 0 s (nothing was changed)"), "\(result)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func aFreeLockIsTakenWhateverTheTimeout() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "blueText", "on", "--lock-timeout", "0"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
    }

    @Test(arguments: ["-1", "nan", "inf", "soon"])
    func aTimeoutThatIsNotSecondsIsAUsageError(value: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "blueText", "on", "--lock-timeout", value])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("--lock-timeout"), "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }
}
