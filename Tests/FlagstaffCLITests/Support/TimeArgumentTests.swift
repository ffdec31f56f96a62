import Flagstaff
import Foundation
import Testing

/// The times the built command reads (`FLAGSTAFF_NOW`, `--for`, `--until`) at the edges of what a store holds.
@Suite struct TimeArgumentTests {
    @Test func anImpossibleFlagstaffNowSaysWhy() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["list"], environment: ["FLAGSTAFF_NOW": "2026-02-30T10:00:00Z"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.standardError.contains(
                "FLAGSTAFF_NOW='2026-02-30T10:00:00Z': there is no 2026-02-30 (February 2026 has 28 days); expected"),
            "\(result)")
    }

    @Test func aDurationPastTheStoresLastTimeIsRefusedWithTheRange() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(
            ["set", "blueText", "on", "--for", "1w"], environment: ["FLAGSTAFF_NOW": "9999-12-30T00:00:00Z"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.standardError.contains(
                "--for 1w: the overrides would expire at 10000-01-06T00:00:00Z, after the latest time a store can hold (it holds times from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z)"
            ), "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func theBuiltBinaryRefusesAFiveDigitYearWithoutCrashing() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["set", "blueText", "on", "--until", "99999-01-01T00:00:00Z", "--store", sandbox.storePath])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("after the latest time a store can hold"), "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }
}
