import Flagstaff
import Foundation
import Testing

@testable import FlagstaffCLI

/// The times the command line reads (`--until`, `FLAGSTAFF_NOW`): RFC 3339 with a zone, impossible ones refused.
@Suite struct TimeArgumentTests {
    func seconds(_ text: String) throws -> Double { try ISO8601Time.parse(text).timeIntervalSince1970 }

    func reason(_ text: String) -> String? {
        do {
            _ = try ISO8601Time.parse(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func validTimesAreReadExactly() throws {
        #expect(try seconds("2026-12-01T10:00:00Z") == 1_796_119_200)
        #expect(try seconds("2026-12-01T12:00:00+02:00") == 1_796_119_200)
        #expect(try seconds("2026-12-01T12:00:00+0200") == 1_796_119_200)
        #expect(try seconds("2026-12-01t04:30:00.5-05:30") == 1_796_119_200.5)
        #expect(try seconds("2028-02-29T00:00:00Z") == 1_835_395_200)  // a leap day
        #expect(try seconds("2000-02-29T00:00:00z") == 951_782_400)
        #expect(try seconds("9999-12-31T23:59:59Z") == 253_402_300_799)
    }

    @Test func impossibleTimesSayWhy() {
        #expect(reason("2030-02-29T00:00:00Z") == "there is no 2030-02-29 (February 2030 has 28 days)")
        #expect(reason("2100-02-29T00:00:00Z") == "there is no 2100-02-29 (February 2100 has 28 days)")
        #expect(reason("2030-06-00T00:00:00Z") == "there is no 2030-06-00 (June 2030 has 30 days)")
        #expect(reason("2030-00-10T00:00:00Z") == "there is no month 0 in 2030-00-10")
        #expect(reason("2030-01-01T10:60:00Z") == "there is no minute 60 (minutes are 00 to 59)")
        #expect(reason("2030-01-01T10:00:60Z")?.hasPrefix("there is no second 60") == true)
        #expect(reason("2030-01-01T10:00:00-24:00") == "the offset -24:00 is not a time zone (at most ±23:59)")
        for shape in [
            "", "2030-01-01", "2030-01-01T10:00:00", "2030-1-01T10:00:00Z", "2030-01-01T10:00:00.Z",
            "2030-01-01T10:00:00Z ", "+2030-01-01T10:00:00Z", "2030-01-01T10:00:00+2", "1234567890-01-01T00:00:00Z",
        ] {
            #expect(reason(shape) == "", "\(shape)")
        }
    }

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
