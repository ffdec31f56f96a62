import FlagstaffRemote
import Foundation
import Testing

@Suite("RemoteConfigValue conversions (Apple SDK rules)")
struct RemoteConfigValueTests {
    private func value(_ text: String) -> RemoteConfigValue {
        RemoteConfigValue(string: text, source: .remote)
    }

    @Test(
        "boolValue",
        arguments: [
            ("yes", true), ("Yes", true), ("YES", true), ("y", true), ("true", true), ("True", true), ("t", true),
            ("1", true), ("01", true), ("001", true), ("-1", true), ("+1", true), ("9", true), ("12abc", true),
            ("  yes", true), ("\n\ttrue", true), ("-007", true), ("0009", true),
            ("on", false), ("ON", false), ("0", false), ("0.5", false), ("false", false), ("", false), ("no", false),
            ("-0", false), ("+", false), ("-", false), ("000", false), (" ", false), ("x1", false), ("+y", false),
            (".5", false), ("00.1", false), ("- 1", false),
        ])
    func boolValue(text: String, expected: Bool) {
        #expect(value(text).boolValue == expected, "boolValue of \"\(text)\"")
    }

    @Test(
        "numberValue",
        arguments: [
            ("12abc", 12.0), ("true", 0), ("", 0), ("  42", 42), ("-3.5", -3.5), ("+7", 7), ("1e3", 1000),
            ("1e", 1), ("1e+", 1), ("2.5e-1x", 0.25), (".5", 0.5), ("-.5", -0.5), ("5.", 5), ("5.e2", 500),
            ("abc", 0), ("0x1A", 0), ("1,5", 1), ("\t\n-0.0", 0), ("3.14159", 3.14159), ("1 2", 1), ("--1", 0),
            ("1.2.3", 1.2),
        ])
    func numberValue(text: String, expected: Double) {
        #expect(value(text).numberValue == expected, "numberValue of \"\(text)\"")
    }

    @Test("stringValue is UTF-8, and invalid UTF-8 gives an empty string")
    func stringValue() {
        #expect(value("héllo 🌍").stringValue == "héllo 🌍")
        let invalid = RemoteConfigValue(data: Data([0x66, 0xFF, 0xFE]), source: .remote)
        #expect(invalid.stringValue == "")
        #expect(invalid.dataValue == Data([0x66, 0xFF, 0xFE]))
        #expect(invalid.boolValue == false)
        #expect(invalid.numberValue == 0)
    }

    @Test("jsonValue accepts objects and arrays only")
    func jsonValue() throws {
        let object = try #require(value(#"{"a":1,"b":[true]}"#).jsonValue as? [String: Any])
        #expect(object["a"] as? Int == 1)
        let array = try #require(value("[1,2,3]").jsonValue as? [Any])
        #expect(array.count == 3)
        for scalar in ["3", "\"text\"", "true", "null", "", "{broken", "plain"] {
            #expect(value(scalar).jsonValue == nil, "jsonValue of \(scalar)")
        }
    }

    @Test("source and empty static value")
    func sources() {
        #expect(RemoteConfigValue.empty.source == .static)
        #expect(RemoteConfigValue.empty.stringValue == "")
        #expect(RemoteConfigValue(string: "x", source: .default).source == .default)
        #expect(value("x").description == "\"x\" (remote)")
    }

    @Test("decoded(as:) scalars follow the SDK decoder: Bool via boolValue, numbers via numberValue + must fit")
    func decodedScalars() throws {
        #expect(try value("12").decoded(as: Int.self) == 12)
        #expect(try value(" 12.0 ").decoded(as: Int.self) == 12)
        #expect(try value("12abc").decoded(as: Int.self) == 12)
        #expect(try value("1e3").decoded(as: Int.self) == 1000)
        #expect(try value("").decoded(as: Int.self) == 0)
        #expect(try value("abc").decoded(as: Double.self) == 0)
        #expect(try value("-128").decoded(as: Int8.self) == -128)
        #expect(try value("2.5").decoded(as: Double.self) == 2.5)
        #expect(try value("2.5").decoded(as: Float.self) == 2.5)
        #expect(try value("2.5").decoded(as: Decimal.self) == Decimal(2.5))
        #expect(try value("anything").decoded(as: String.self) == "anything")
        #expect(try value("7").decoded(as: Int?.self) == 7)
        for bad in ["2.5", "12.5", "1e400", "-1e30"] {
            #expect(throws: RemoteConfigError.self, "Int from \(bad)") { try value(bad).decoded(as: Int.self) }
        }
        let error = #expect(throws: RemoteConfigError.self) { try value("300").decoded(as: Int8.self) }
        #expect(error?.description.contains("does not fit in Int8") == true)
        #expect(throws: RemoteConfigError.self) { try value("-1").decoded(as: UInt.self) }
        #expect(throws: RemoteConfigError.self) { try value("1e39").decoded(as: Float.self) }
    }

    @Test(
        "decoded(as: Bool.self) always equals boolValue",
        arguments: ["yes", "2", "", "true", "TRUE", "false", "0", "1", "on", "no", "y", "-1", "0.5", "12abc", " t"])
    func decodedBoolAgreesWithBoolValue(text: String) throws {
        #expect(try value(text).decoded(as: Bool.self) == value(text).boolValue, "\"\(text)\"")
    }

    @Test("decoded(as:) Data is the raw bytes; Date throws as in the SDK")
    func decodedDataAndDate() throws {
        let bytes = RemoteConfigValue(data: Data([0x00, 0xFF, 0x41]), source: .remote)
        #expect(try bytes.decoded(as: Data.self) == Data([0x00, 0xFF, 0x41]))
        #expect(try value("[1,2]").decoded(as: Data.self) == Data("[1,2]".utf8), "not a JSON array of bytes")
        let error = #expect(throws: RemoteConfigError.self) { try value("2026-01-01 00:00:00").decoded(as: Date.self) }
        #expect(error?.description.contains("Date is not supported") == true)
    }

    struct Banner: Codable, Equatable {
        var title: String
        var maxItems: Int
    }

    enum Layout: String, Codable {
        case grid, list
    }

    enum Level: Int, Codable {
        case one = 1
        case three = 3
    }

    @Test("decoded(as:) Codable types, String-backed enums, and errors naming the problem")
    func decodedCodable() throws {
        #expect(try value(#"{"title":"Hi","maxItems":3}"#).decoded(as: Banner.self) == Banner(title: "Hi", maxItems: 3))
        #expect(try value("grid").decoded(as: Layout.self) == .grid)
        #expect(try value("[1,2]").decoded(as: [Int].self) == [1, 2])
        let error = #expect(throws: RemoteConfigError.self) {
            try value(#"{"title":"Hi","maxItems":3.5}"#).decoded(as: Banner.self)
        }
        #expect(error?.description.contains("maxItems") == true)
        #expect(throws: RemoteConfigError.self) { try value("diagonal").decoded(as: Layout.self) }
        #expect(try value("3").decoded(as: Level.self) == .three, "Int-backed enums go through numberValue")
        let notObject = #expect(throws: RemoteConfigError.self) { try value("3").decoded(as: Banner.self) }
        #expect(notObject?.description.contains("expected a JSON object") == true)
        #expect(throws: RemoteConfigError.self) { try value(#"{"a":1}"#).decoded(as: [Int].self) }
        #expect(try value(#"{"a":1}"#).decoded(as: [String: Int].self) == ["a": 1])
    }

    /// The date as the SDK's formatter writes it: `yyyy-MM-dd HH:mm:ss` in the local time zone.
    private func localWallClock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    @Test("defaults are stored like Firebase (dates in the local time zone)")
    func defaultsStorage() throws {
        func stored(_ any: Any) throws -> String { try RemoteConfigValue.fromDefault(any, key: "k").stringValue }
        #expect(try stored(true) == "1")
        #expect(try stored(false) == "0")
        #expect(try stored(42) == "42")
        #expect(try stored(3.0) == "3")
        #expect(try stored(0.25) == "0.25")
        #expect(try stored(Int64(-7)) == "-7")
        #expect(try stored("text") == "text")
        #expect(try stored(["b": 1, "a": [true, "x"]] as [String: Any]) == #"{"a":[true,"x"],"b":1}"#)
        #expect(try stored([1, 2]) == "[1,2]")
        #expect(try stored(Date(timeIntervalSince1970: 0)) == localWallClock(Date(timeIntervalSince1970: 0)))
        let summer = Date(timeIntervalSince1970: 1_782_900_000)  // mid 2026: daylight time where there is one
        #expect(try stored(summer) == localWallClock(summer))
        #expect(
            RemoteConfigValue.defaultDateText(summer, timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
                == "2026-07-01 19:00:00")
        #expect(try RemoteConfigValue.fromDefault(Data([1, 2]), key: "k").dataValue == Data([1, 2]))
        #expect(try RemoteConfigValue.fromDefault("x", key: "k").source == .default)
        let error = #expect(throws: RemoteConfigError.self) {
            try RemoteConfigValue.fromDefault(NSNull(), key: "broken")
        }
        #expect(error?.description.contains("broken") == true)
    }

    /// `jsonValue` is read by the package's one reader: an object that repeats a name is not JSON Flagstaff
    /// accepts, whichever copy another parser would keep.
    @Test("jsonValue refuses a repeated name")
    func jsonValueRefusesRepeatedNames() {
        #expect(RemoteConfigValue(string: #"{"a":1,"a":2}"#, source: .remote).jsonValue == nil)
        let object = RemoteConfigValue(string: #"{"a":1,"b":[true,"x"]}"#, source: .remote).jsonValue
        #expect((object as? [String: Any])?["a"] as? Int == 1)
        #expect(((object as? [String: Any])?["b"] as? [Any])?.first as? Bool == true)
    }
}
