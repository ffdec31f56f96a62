import Testing

@Test func placeholder_FlagstaffCLITests() { #expect(Bool(true)) }
