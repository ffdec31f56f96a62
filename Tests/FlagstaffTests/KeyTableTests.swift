import Testing

@testable import Flagstaff

@Suite struct KeyTableTests {
    @Test func findsEveryKeyAndNothingElse() {
        var features: [String: AnyFeature] = [:]
        for index in 0..<5_000 { features["group\(index % 37).flag\(index)"] = Feature(key: "k\(index)") }
        features["naïve.clé"] = Feature(key: "unicode")
        let table = KeyTable(features)
        for (key, feature) in features { #expect(table.lookup(key) === feature) }
        #expect(table.lookup("group1.flag5000") == nil)
        #expect(table.lookup("") == nil)
        #expect(table.lookup("naive.cle") == nil)
        #expect(KeyTable([:]).lookup("anything") == nil)
    }
}
