import Flagstaff
import Testing

@testable import FlagstaffConsole

/// The console's search by a typed setting's value: case- and diacritic-insensitive, a new value seen at once.
@Suite struct ConsoleValueSearchTests {
    struct Desserts: FeatureGroup {
        let dessert = Setting(default: "Crème Brûlée", key: "dessert")
        let drink = Setting(default: "Flat WHITE", key: "drink")
        let portions = Setting(default: 42, range: 0...100, key: "portions")
        let enabled = Feature(description: "a flag: never matched by value")
    }

    func keys(_ query: String, in source: RegistryFlagSource) -> [String] {
        let hits = source.search(query, scope: .all)
        return (0..<hits.count).map(hits.key(at:))
    }

    @Test func valuesMatchIgnoringCaseAndDiacritics() throws {
        let registry = FeatureRegistry(Desserts())
        let source = RegistryFlagSource(registry)
        #expect(keys("creme brulee", in: source) == ["dessert"])
        #expect(keys("CRÈME", in: source) == ["dessert"])
        #expect(keys("rûl", in: source) == ["dessert"])
        #expect(keys("me br", in: source) == ["dessert"])
        #expect(keys("t whi", in: source) == ["drink"])
        #expect(keys("42", in: source) == ["portions"])
        #expect(keys("brûlée crème", in: source).isEmpty)
        try registry.dessert.setOverriddenValue("Tarte Tatin")
        #expect(keys("creme", in: source).isEmpty, "the new value is matched, not the cached one")
        #expect(keys("tatin", in: source) == ["dessert"])
    }
}
