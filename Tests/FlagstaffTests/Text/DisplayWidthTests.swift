import Flagstaff
import Testing

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnAndControlsZero() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of(Character("\u{1B}")) == 0)
        #expect(DisplayWidth.of(Character("\u{7F}")) == 0)
    }

    @Test func eastAsianWideAndEmojiAreTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)  // fullwidth Latin
        #expect(DisplayWidth.of(Character("🚀")) == 2)
        #expect(DisplayWidth.of(Character("👩‍💻")) == 2)  // ZWJ sequence: one cluster
        #expect(DisplayWidth.of("⟳▾▸→─") == 5)  // the console's own glyphs are narrow
    }

    @Test func combiningMarksAndZeroWidthCharactersAddNothing() {
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200B)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)
        #expect(DisplayWidth.of("a\u{200D}b") == 2)
    }
}
