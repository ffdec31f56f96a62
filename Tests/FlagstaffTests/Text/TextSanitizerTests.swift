import Flagstaff
import Testing

@Suite struct TextSanitizerTests {
    @Test func escapeSequencesBecomeVisibleEscapes() {
        #expect(TextSanitizer.sanitize("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TextSanitizer.sanitize("bell\u{07}") == "bell\\u{7}")
        #expect(TextSanitizer.sanitize("c1\u{9B}31m") == "c1\\u{9B}31m")
        #expect(TextSanitizer.sanitize("del\u{7F}") == "del\\u{7F}")
        #expect(TextSanitizer.sanitize("\u{202E}txt") == "\\u{202E}txt")
    }

    @Test func lineBreaksAndTabsBecomeSpaces() {
        #expect(TextSanitizer.sanitize("one\ntwo\r\nthree\tfour") == "one two three four")
    }

    @Test func cleanTextIsReturnedUnchanged() {
        let text = "Moments → Rounded Avatar 日本 Café"
        #expect(TextSanitizer.sanitize(text) == text)
    }

    @Test func asciiOnlyReplacesNonASCII() {
        #expect(TextSanitizer.sanitize("Café 日本\u{1B}", asciiOnly: true) == "Caf? ??\\u{1B}")
    }
}
