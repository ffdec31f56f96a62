import Testing

@Test func placeholder_FlagstaffTestingTests() { #expect(Bool(true)) }
