import Foundation
import Testing

@testable import Flagstaff

struct SearchFeatures: FeatureGroup {
    let avatar = Feature(description: "Exact label match")
    let avatarBorder = Feature(description: "Prefix match")
    let roundedAvatar = Feature(description: "Word-start match at a camel hump")
    let gravatarSync = Feature(description: "Substring match inside a word")
    let avocadoTeaJar = Feature(description: "Subsequence a-v-a-t-a-r")
    let unrelated = Feature(description: "Mentions an avatar in the description")
    let cafe = Feature(label: "Café Crème", description: "Diacritics in the label")
    let moments = MomentsGroup()
}

struct MomentsGroup: FeatureGroup {
    let isLikeButtonForMomentEnabled = Feature(
        description: "Show the like button under each moment", requiresRestart: true)
}

@Suite struct SearchTests {
    let registry = FeatureRegistry(SearchFeatures())

    @Test func rankedExactPrefixWordStartSubstringSubsequence() {
        let results = registry.search("avatar")
        #expect(
            results.map(\.feature.key) == [
                "avatar", "avatarBorder", "roundedAvatar", "unrelated", "gravatarSync", "avocadoTeaJar",
            ])
        #expect(results.map(\.kind) == [.exact, .prefix, .wordStart, .wordStart, .substring, .subsequence])
        #expect(results[3].field == .description)
    }

    @Test func caseAndDiacriticInsensitive() {
        #expect(registry.search("CAFE CREME").first?.feature.key == "cafe")
        #expect(registry.search("crème").first?.kind == .wordStart)
        #expect(registry.search("AVATAR").first?.kind == .exact)
    }

    @Test func matchedRangesAreCharacterOffsetsForHighlighting() {
        let border = registry.search("border").first
        #expect(border?.feature.key == "avatarBorder")
        #expect(border?.matchedRanges[.label] == [7..<13])  // "Avatar Border"
        #expect(border?.matchedRanges[.key] == [6..<12])  // "avatarBorder"
        let creme = registry.search("creme").first
        #expect(creme?.matchedRanges[.label] == [5..<10])  // "Café Crème": characters, not bytes
        let sub = registry.search("avtr").first { $0.feature.key == "avatar" }
        #expect(sub?.kind == .subsequence)
        #expect(sub?.matchedRanges[.key] == [0..<2, 3..<4, 5..<6])
    }

    @Test func searchesGroupPathAndDescription() {
        let byGroup = registry.search("moments")
        #expect(byGroup.first?.feature.key == "moments.isLikeButtonForMomentEnabled")
        #expect(byGroup.first?.matchedRanges[.groupPath] == [0..<7])
        let byDescription = registry.search("under each")
        #expect(byDescription.map(\.feature.key) == ["moments.isLikeButtonForMomentEnabled"])
        #expect(byDescription.first?.field == .description)
    }

    @Test func multiWordQueryMatchesCamelCaseKeys() {
        let results = registry.search("like button")
        #expect(results.first?.feature.key == "moments.isLikeButtonForMomentEnabled")
    }

    @Test func scopes() {
        registry.avatar.override = .enabled
        registry.cafe.override = .disabled
        #expect(registry.search("", scope: .overridden).map(\.feature.key) == ["avatar", "cafe"])
        #expect(registry.search("", scope: .enabled).map(\.feature.key) == ["avatar"])
        #expect(registry.search("avatar", scope: .disabled).first?.feature.key == "avatarBorder")
        #expect(registry.search("").count == registry.allFeatures.count)
        #expect(registry.search("").allSatisfy { $0.kind == .unfiltered && $0.matchedRanges.isEmpty })
        #expect(
            SearchScope.all.next == .enabled && SearchScope.overridden.next == .all
                && SearchScope.all.previous == .overridden)
    }

    @Test func noMatch() {
        #expect(registry.search("zzzz").isEmpty)
        #expect(registry.search("   ").count == registry.allFeatures.count)
    }

    @Test func indexIsRebuiltAfterRuntimeRegistration() throws {
        #expect(registry.search("brandNew").isEmpty)
        try registry.register(Feature(key: "brandNewFlag"))
        #expect(registry.search("brandNew").first?.kind == .prefix)
    }
}

@Suite struct SearchNarrowingTests {
    @Test func typingNarrowsToTheSameResultsAsAFreshSearch() throws {
        let registry = FeatureRegistry(SearchFeatures())
        var typed = ""
        for character in "avatar b" {
            typed.append(character)
            let incremental = registry.search(typed).map { "\($0.feature.key) \($0.kind) \($0.field)" }
            let fresh = FeatureRegistry(SearchFeatures()).search(typed).map {
                "\($0.feature.key) \($0.kind) \($0.field)"
            }
            #expect(incremental == fresh, "query \(typed)")
        }
        while !typed.isEmpty {  // erasing answers from the remembered searches
            typed.removeLast()
            let remembered = registry.search(typed).map { "\($0.feature.key) \($0.kind) \($0.field)" }
            let fresh = FeatureRegistry(SearchFeatures()).search(typed).map {
                "\($0.feature.key) \($0.kind) \($0.field)"
            }
            #expect(remembered == fresh, "query \(typed)")
        }
    }

    @Test func narrowingInOverriddenScopeSeesOverridesMadeInBetween() {
        let registry = FeatureRegistry(SearchFeatures())
        registry.avatar.override = .enabled
        #expect(registry.search("av", scope: .overridden).map(\.feature.key) == ["avatar"])
        registry.avatarBorder.override = .disabled
        #expect(registry.search("ava", scope: .overridden).map(\.feature.key) == ["avatar", "avatarBorder"])
    }

    @Test func keyedLookupSeesRuntimeRegistrationsAndPublishesOncePerCall() throws {
        let registry = FeatureRegistry(SearchFeatures())
        let before = registry.core.keyTable.version
        try registry.register((0..<50).map { Feature(key: "batch.\($0)") }, in: "batch")
        #expect(registry.core.keyTable.version == before + 1)
        #expect(registry.feature(forKey: "batch.49")?.groupPath == ["Batch"])
        #expect(registry.feature(forKey: "batch.50") == nil)
    }
}
