import Flagstaff
import Foundation
import Testing

@Suite struct UnicodeEscapeTests {
    private func json(_ scalar: Unicode.Scalar) -> String {
        var text = ""
        UnicodeEscape.appendJSON(scalar, to: &text)
        return text
    }

    @Test func jsonEscapesAreFourUppercaseHexDigits() {
        #expect(json("\u{1B}") == #"\u001B"#)
        #expect(json("\u{85}") == #"\u0085"#)
        #expect(json("\u{202E}") == #"\u202E"#)
    }

    @Test func jsonEscapesAboveTheBasicPlaneAreSurrogatePairs() throws {
        #expect(json("\u{1F600}") == #"\uD83D\uDE00"#)
        let decoded = try JSONSerialization.jsonObject(
            with: Data("\"\(json("\u{1F600}"))\"".utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == "\u{1F600}")
    }

    @Test func displayEscapesUseBracesWithoutPadding() {
        var text = ""
        UnicodeEscape.appendDisplay("\u{7}", to: &text)
        UnicodeEscape.appendDisplay("\u{9B}", to: &text)
        #expect(text == #"\u{7}\u{9B}"#)
    }

    @Test func quotedAndEscapingWriteTheSameEscapes() {
        let unsafe = TextSanitizer.isUnsafe
        #expect(JSONText.quoted("a\u{1B}b\u{202E}", alsoEscaping: unsafe) == #""a\u001Bb\u202E""#)
        #expect(JSONText.escaping("[\"a\u{9B}b\u{202E}\"]", where: unsafe) == #"["a\u009Bb\u202E"]"#)
    }

    @Test func escapingLeavesJSONWhitespaceAndCleanTextAlone() throws {
        let pretty = "{\n\t\"k\" : \"x\u{85}\"\r\n}"
        let escaped = JSONText.escaping(pretty, where: TextSanitizer.isUnsafe)
        #expect(escaped == "{\n\t\"k\" : \"x\\u0085\"\r\n}")
        let value = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(value == ["k": "x\u{85}"], "the same JSON value")
        #expect(JSONText.escaping(#"{"k":"plain"}"#, where: TextSanitizer.isUnsafe) == #"{"k":"plain"}"#)
    }

    @Test func unsafeScalarsAreControlsAndBidirectionalMarks() {
        for value: UInt32 in [
            0x00, 0x09, 0x1B, 0x7F, 0x85, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069,
        ] {
            #expect(TextSanitizer.isUnsafe(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x20, 0x41, 0xA0, 0xE9, 0x2028, 0x65E5] {
            #expect(!TextSanitizer.isUnsafe(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
        }
    }
}
