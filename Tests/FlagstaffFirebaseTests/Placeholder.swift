import Testing

@Test func placeholder_FlagstaffFirebaseTests() { #expect(Bool(true)) }
