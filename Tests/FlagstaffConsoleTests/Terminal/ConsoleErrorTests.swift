import Testing

@testable import FlagstaffConsole

/// `ConsoleError` is a struct wrapping a private code: callers ask its properties instead of matching cases.
@Suite struct ConsoleErrorTests {
    @Test func theErrorSaysWhichStreamOrTermThroughItsProperties() {
        let piped = ConsoleError.notATerminal(stream: "standard input")
        #expect(piped.isNotATerminal && piped.stream == "standard input" && piped.term == nil)
        #expect(piped.description.hasPrefix("the console needs a terminal, but standard input is not one; "))
        let term = ConsoleError.terminalUnavailable(term: "")
        #expect(!term.isNotATerminal && term.stream == nil && term.term == "")
        #expect(term.description.hasPrefix("cannot open the terminal (TERM=(unset)); set TERM"))
        #expect(piped == .notATerminal(stream: "standard input") && piped != term)
    }
}
