import CNCurses
import Testing

@testable import FlagstaffConsole

@Suite struct ScreenBufferTests {
    @Test func putClipsToTheWidthAndReturnsTheNextColumn() {
        var buffer = ScreenBuffer(width: 10, height: 2)
        #expect(buffer.put("hello", row: 0, column: 2) == 7)
        #expect(buffer.put("abcdefgh", row: 1, column: 5) == 10)
        #expect(buffer.text(row: 0) == "  hello   ")
        #expect(buffer.text(row: 1) == "     abcde")
        #expect(buffer.put("x", row: 5, column: 0) == 0, "rows outside the grid write nothing")
    }

    @Test func wideCharactersTakeTwoCellsAndNeverHangOverTheEdge() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.put("日本語", row: 0, column: 0)
        #expect(buffer.cells.map(\.width) == [2, 0, 2, 0, 1])
        #expect(buffer.text(row: 0) == "日本 ", "the third ideograph does not fit: a blank instead")
        // Overwriting half of a wide character blanks the other half.
        buffer.put("x", row: 0, column: 1)
        #expect(buffer.text(row: 0) == " x本 ")
        buffer.put("y", row: 0, column: 2)
        #expect(buffer.text(row: 0) == " xy  ")
    }

    @Test func restyleAndFindWorkOnColumns() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        buffer.put("日本 ok", row: 0, column: 0)
        #expect(buffer.find("ok")?.column == 5)
        buffer.restyle(row: 0, from: 5, to: 7) { $0.foreground = .green }
        #expect(buffer.cell(row: 0, column: 5).foreground == .green)
        #expect(buffer.cell(row: 0, column: 4).foreground == .default)
    }
}

@Suite struct KeyDecodingTests {
    @Test func functionKeys() {
        #expect(ConsoleKey.decode(keyCode: KEY_UP) == .up)
        #expect(ConsoleKey.decode(keyCode: KEY_NPAGE) == .pageDown)
        #expect(ConsoleKey.decode(keyCode: KEY_PPAGE) == .pageUp)
        #expect(ConsoleKey.decode(keyCode: KEY_HOME) == .home)
        #expect(ConsoleKey.decode(keyCode: KEY_END) == .end)
        #expect(ConsoleKey.decode(keyCode: KEY_BTAB) == .backTab)
        #expect(ConsoleKey.decode(keyCode: KEY_DC) == .delete)
        #expect(ConsoleKey.decode(keyCode: KEY_BACKSPACE) == .backspace)
        #expect(ConsoleKey.decode(keyCode: fs_key_f1()) == .f1)
        #expect(ConsoleKey.decode(keyCode: KEY_F0 + 5) == nil)
    }

    @Test func characters() {
        #expect(ConsoleKey.decode(character: 9) == .tab)
        #expect(ConsoleKey.decode(character: 13) == .enter)
        #expect(ConsoleKey.decode(character: 127) == .backspace)
        #expect(ConsoleKey.decode(character: 27) == .escape)
        #expect(ConsoleKey.decode(character: 3) == .control("c"))
        #expect(ConsoleKey.decode(character: 12) == .control("l"))
        #expect(ConsoleKey.decode(character: 0x71) == .character("q"))
        #expect(ConsoleKey.decode(character: 0x65E5) == .character("日"))
        #expect(ConsoleKey.decode(character: 0x9B) == nil)
        #expect(ConsoleKey.decode(character: 0xD800) == nil)
    }
}
