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
        // A whole number keeps its digits (a setting then reports it as the file holds it); others are written as
        // the nearest Double.
        let whole = text.allSatisfy(\.isNumber)
        #expect(value.json == (whole ? text : OverrideValue.numberText(try #require(Double(text)))))
        let read = try JSONValue.read(Data("[\(text)]".utf8))
        #expect(read == .array([.number(try #require(Double(text)))]))
    }
}

extension FuzzFindingsTests {
    @Test("a time with twenty or more fraction digits is read (digits below a nanosecond ignored), not a trap")
    func longFractions() throws {
        let long = "2026-11-23T20:41:07.51444444444444444444444442Z"
        let date = try #require(JournalTime.date(Array(long.utf8)))
        #expect(JournalTime.text(date) == "2026-11-23T20:41:07.514Z")
        #expect(JournalTime.date(Array("2026-11-23T20:41:07.5144444444444444444444444xZ".utf8)) == nil)
        let store = #"{"version":1,"overrides":{"a":"on"},"expiry":{"a":{"at":"\#(long)"}}}"#
        let contents = try OverrideFileFormat.decodeContents(Data(store.utf8), file: "s.json", rules: .store)
        #expect(contents.expiries["a"]?.expiresAt == date)
    }

    @Test("a leap second on 9999-12-31 is refused: written back it would be a year-10000 time no reader accepts")
    func leapSecondAtTheEndOfTime() throws {
        #expect(JournalTime.date(Array("9999-12-31T23:59:60Z".utf8)) == nil)
        #expect(JournalTime.date(Array("9999-12-31T23:59:60.5Z".utf8)) == nil)
        let last = try #require(JournalTime.date(Array("9999-12-31T23:59:59.999Z".utf8)))
        #expect(JournalTime.text(last) == "9999-12-31T23:59:59.999Z")
        let store = #"{"version":1,"overrides":{"a":"on"},"expiry":{"a":{"at":"9999-12-31T23:59:60Z"}}}"#
        #expect(throws: OverrideFileError.self) {
            try OverrideFileFormat.decodeContents(Data(store.utf8), file: "s.json", rules: .store)
        }
    }

    @Test(
        "a time the journal writes reads back to the same text: the millisecond does not drift down a write at a time")
    func millisecondsDoNotDrift() throws {
        let text = "2108-12-31T11:59:09.407Z"
        let date = try #require(JournalTime.date(Array(text.utf8)))
        #expect(JournalTime.text(date) == text)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let milliseconds = Int.random(in: -62_167_219_200_000..<253_402_300_800_000, using: &generator)
            let written = JournalTime.text(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            let read = try #require(JournalTime.date(Array(written.utf8)))
            #expect(JournalTime.text(read) == written)
        }
    }

    @Test("a key or value starting with U+FEFF is written escaped, so it reads back whole")
    func byteOrderMarkCharacterRoundTrips() throws {
        let overrides = ["\u{FEFF}key": OverrideValue(string: "\u{FEFF}value"), "a\u{FEFF}": .on]
        let written = OverrideFileFormat.encode(overrides)
        #expect(String(decoding: written, as: UTF8.self).contains(#""\uFEFFkey""#))
        let read = try OverrideFileFormat.decodeContents(written, file: "s.json", rules: .store)
        #expect(read.overrides == overrides)
    }

    @Test(
        "JSON text that JSONSerialization takes for UTF-16 or UTF-32 is read or refused, never a trap in the scanner",
        arguments: [
            [0, 0, 0, 0x31, 0x2C, 0x5D], [0, 0, 0, 0x30, 0x7D], [0x7B, 0, 0x7D, 0], [0xFF, 0xFE, 0x7B, 0, 0x7D, 0],
        ]
            as [[UInt8]]
    )
    func otherEncodingsNeverTrap(_ bytes: [UInt8]) {
        _ = try? JSONValue.readDocument(Data(bytes))
        #expect(throws: OverrideFileError.self) {
            try OverrideFileFormat.decodeContents(Data(bytes), file: "s.json", rules: .store)
        }
    }
}

extension FuzzFindingsTests {
    @Test(
        "a manifest's reportedAt with digits below a millisecond reads as the millisecond, so it survives a round trip",
        arguments: ["1013-11-28T18:00:00.9996Z", "2026-11-28T18:00:00.123456789Z", "1969-12-31T23:59:59.9999Z"]
    )
    func reportTimesKeepTheirValue(_ time: String) throws {
        let text =
            #"{"name": "Shop", "flags": [], "app": {"buildTarget": "debug", "reportedAt": "\#(time)", "values": {}}}"#
        let manifest = try RegistryManifest.decode(Data(text.utf8), source: "m.json")
        let again = try RegistryManifest.decode(try JSONEncoder().encode(manifest), source: "again.json")
        #expect(again == manifest)
        #expect(JournalTime.text(try #require(manifest.app?.reportedAt)) == String(time.prefix(23)) + "Z")
    }
}
