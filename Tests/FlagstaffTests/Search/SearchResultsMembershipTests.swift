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

    /// The console's previous way (every result made and compared by identity) as the oracle, over queries
    /// that find none, some and all of the members, in every scope.
    @Test func sameAnswerAsComparingEveryResultByIdentity() throws {
        let registry = FeatureRegistry(SearchFeatures())
        let settings: [AnyFeature] = (0..<40).map { index in
            index.isMultiple(of: 2)
                ? Setting(default: "colour \(index)", key: "settings.avatar\(index)")
                : Setting(default: index, range: 0...100, key: "settings.number\(index)")
        }
        try registry.register(settings)
        let members = settings + [registry.avatar, registry.cafe, registry.moments.isLikeButtonForMomentEnabled]
        for query in ["a", "av", "avatar", "settings", "number1", "cafe", "r", "zzz", "moment", "s a"] {
            for scope in SearchScope.allCases {
                let results = registry.search(query, scope: scope)
                let listed = Set(results.map { ObjectIdentifier($0.feature) })
                let expected = members.filter { !listed.contains(ObjectIdentifier($0)) }.map(\.key)
                #expect(results.notIncluded(members).map(\.key) == expected, "\(query) in \(scope)")
            }
        }
    }
}
