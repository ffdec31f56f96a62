import Testing

@Test func placeholder_FlagstaffConsoleTests() { #expect(Bool(true)) }
