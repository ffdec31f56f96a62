import Foundation
import Testing

@testable import Flagstaff

/// Defects the fuzz targets found (docs/fuzzing.md), each pinned by the input that showed it.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    @Test(
        "a number with more digits than a Double holds reads as the nearest Double, so writing it back changes nothing",
        arguments: [
            "0.30000000000000004", "1.2345678901234568e+29", "123456789012345678901234567890", "3.1415926535897932",
        ]
    )
    func longNumbersKeepTheirValue(_ text: String) throws {
        let value = try OverrideValue(json: text)
        #expect(try OverrideValue(json: value.json) == value)
        #expect(value.json == OverrideValue.numberText(try #require(Double(text))))
        let read = try JSONValue.read(Data("[\(text)]".utf8))
        #expect(JSONValue(read) == .array([.number(try #require(Double(text)))]))
    }
}
