import Testing

@testable import Flagstaff

/// `SearchResults.notIncluded`: which of some members a search did not find (the console appends settings matched
/// by value after the registry's results, unless the registry already listed them).
@Suite struct SearchResultsMembershipTests {
    @Test func listsTheMembersTheSearchDidNotFindInTheirOrder() throws {
        let registry = FeatureRegistry(SearchFeatures())
        let colour = Setting(default: "avatar blue", key: "theme.colour")
        let size = Setting(default: 12, range: 0...100, key: "avatarSize")
        let width = Setting(default: 3, range: 0...10, key: "border.width")
        try registry.register([colour, size, width])
        let results = registry.search("avatar")
        #expect(results.contains { $0.feature === size }, "found by its key")
        let missing = results.notIncluded([colour, size, width])
        #expect(missing.map(\.key) == ["theme.colour", "border.width"])
        #expect(results.notIncluded([]).isEmpty)
    }

    @Test func aMemberOfAnotherRegistryIsNeverAmongTheResults() throws {
        let registry = FeatureRegistry(SearchFeatures())
        let other = FeatureRegistry(SearchFeatures())
        let results = registry.search("avatar")
        // Same registry position, another registry's object: compared by identity, so not included.
        #expect(results.notIncluded([other.avatar]).count == 1)
        #expect(results.notIncluded([registry.avatar]).isEmpty)
    }
}
