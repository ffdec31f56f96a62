import Testing

@Test func placeholder_FlagstaffUnleashTests() { #expect(Bool(true)) }
