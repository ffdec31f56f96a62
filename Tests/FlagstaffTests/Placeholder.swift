import Testing

@Test func placeholder_FlagstaffTests() { #expect(Bool(true)) }
