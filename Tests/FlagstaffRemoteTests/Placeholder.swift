import Testing

@Test func placeholder_FlagstaffRemoteTests() { #expect(Bool(true)) }
