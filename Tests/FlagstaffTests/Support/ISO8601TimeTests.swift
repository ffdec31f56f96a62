import Foundation
import Testing

@testable import Flagstaff

/// The times the command line reads (`--until`, `--since`, `FLAGSTAFF_NOW`): RFC 3339 with a zone, impossible ones
/// refused.
@Suite struct ISO8601TimeTests {
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
}

/// The durations the command line reads (`set --for`, `history --since`).
@Suite struct DurationTextTests {
    @Test func unitsAndCombinationsAreRead() {
        #expect(DurationText.seconds("90s") == 90)
        #expect(DurationText.seconds("30m") == 1800)
        #expect(DurationText.seconds("2h") == 7200)
        #expect(DurationText.seconds("3d") == 259_200)
        #expect(DurationText.seconds("1w") == 604_800)
        #expect(DurationText.seconds("1d12h") == 129_600)
        #expect(DurationText.seconds("1h1h") == 7200)
        #expect(DurationText.seconds("0h5m") == 300)
        #expect(DurationText.seconds("5200w") == 3_144_960_000)
    }

    @Test func anythingElseIsNotADuration() {
        for text in [
            "", "90", "0m", "0s0h", "2x", "-1m", "+1m", "1.5h", "1 h", "h", "1hh", "1H", "١h", "5300w",
            "99999999999999w", "3162240001s", String(repeating: "9", count: 40) + "s",
        ] {
            #expect(DurationText.seconds(text) == nil, "\(text)")
        }
        #expect(DurationText.seconds("\(DurationText.longest)s") == DurationText.longest)
        #expect(DurationText.seconds("\(DurationText.longest + 1)s") == nil)
    }
}
