import Flagstaff
import Testing

@testable import FlagstaffFlagd

/// `sem_ver`: operators, partial versions, `v` prefixes, pre-releases, build metadata and invalid input.
struct SemanticVersionTests {
    static func check(_ left: JSONSettingValue, _ operation: String, _ right: String) -> JSONSettingValue {
        SemanticVersion.evaluate([left, .string(operation), .string(right)])
    }

    @Test(
        "compares as flagd does",
        arguments: [
            ("1.0.0", "=", "1.0.0", true), ("1.0.0", "!=", "1.0.1", true), ("1.2.3", "<", "1.10.0", true),
            ("2.0.0", ">=", "2.0.0", true), ("1.0.0-rc.1", "<", "1.0.0", true),
            ("1.0.0-alpha", "<", "1.0.0-alpha.1", true),
            ("1.0.0-alpha.2", "<", "1.0.0-alpha.10", true), ("1.0.0-2", "<", "1.0.0-a", true),
            ("1.0.0+build.1", "=", "1.0.0+other", true), ("v1.0.0", "=", "1.0.0", true), ("V2", "=", "2.0.0", true),
            ("1.2", "=", "1.2.0", true), ("3.4.1", "~", "3.4.0", true), ("3.5.0", "~", "3.4.0", false),
            ("3.9.9", "^", "3.0.0", true), ("4.0.0", "^", "3.0.0", false),
            ("99999999999999999999.0.0", ">", "9.0.0", true),
        ] as [(String, String, String, Bool)])
    func comparisons(_ left: String, _ operation: String, _ right: String, _ expected: Bool) {
        #expect(Self.check(.string(left), operation, right) == .bool(expected))
    }

    @Test("numbers are read as their text")
    func numbers() {
        #expect(Self.check(.number(1.2), ">", "1.1") == .bool(true))
        #expect(Self.check(.number(2), "=", "2.0.0") == .bool(true))
    }

    @Test(
        "anything invalid gives null",
        arguments: ["", "1.2.3.4", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0+", "x", "1..0", "1.0.0 ", "vv1"])
    func invalid(_ version: String) {
        #expect(Self.check(.string(version), "=", "1.0.0") == .null)
    }

    @Test("a wrong operator, operand type or count gives null")
    func wrongShape() {
        #expect(Self.check(.string("1.0.0"), "===", "1.0.0") == .null)
        #expect(Self.check(.bool(true), "=", "1.0.0") == .null)
        #expect(SemanticVersion.evaluate([.string("1.0.0"), .string("=")]) == .null)
    }
}
