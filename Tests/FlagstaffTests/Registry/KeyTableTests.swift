import Testing

@testable import Flagstaff

@Suite struct KeyTableTests {
    @Test func findsEveryKeyAndNothingElse() {
        var features: [String: AnyFeature] = [:]
        for index in 0..<5_000 { features["group\(index % 37).flag\(index)"] = Feature(key: "k\(index)") }
        features["naïve.clé"] = Feature(key: "unicode")
        let table = KeyTable(adding: features)
        for (key, feature) in features { #expect(table.lookup(key) === feature) }
        #expect(table.lookup("group1.flag5000") == nil)
        #expect(table.lookup("") == nil)
        #expect(table.lookup("naive.cle") == nil)
        #expect(KeyTable(adding: [:]).lookup("anything") == nil)
    }

    @Test func aTableBuiltOnAnotherHoldsBoth() {
        var first: [String: AnyFeature] = [:]
        var second: [String: AnyFeature] = [:]
        for index in 0..<3_000 { first["a.flag\(index)"] = Feature(key: "a\(index)") }
        for index in 0..<7_000 { second["b.flag\(index)"] = Feature(key: "b\(index)") }
        let older = KeyTable(adding: first)
        let table = KeyTable(previous: older, adding: second)
        #expect(table.count == 10_000)
        for (key, feature) in first.merging(second, uniquingKeysWith: { a, _ in a }) {
            #expect(table.lookup(key) === feature)
        }
        #expect(older.lookup("b.flag0") == nil)
        #expect(table.lookup("c.flag0") == nil)
    }

    @Test func aTableOfFlagsAndSettingsFindsEachMember() {
        let flags: [String: AnyFeature] = ["a.flag": Feature(key: "f"), "a.bool": Setting(default: true, key: "b")]
        let others: [String: AnyFeature] = [
            "b.number": Setting(default: 3, key: "n"), "b.text": Setting(default: "x", key: "t"),
        ]
        let table = KeyTable(previous: KeyTable(adding: flags), adding: others)
        #expect(table.lookup("c.none") == nil)
        for (key, member) in flags.merging(others, uniquingKeysWith: { a, _ in a }) {
            #expect(table.lookup(key) === member)
        }
    }
}
