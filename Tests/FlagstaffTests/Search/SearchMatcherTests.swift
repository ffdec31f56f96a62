import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// The optimised matcher (byte sets, word-start bits, `better` cut-offs, parallel chunks) against a plain
/// reference written from the documented ranking rules.
@Suite struct SearchMatcherTests {
    /// Labels, keys and descriptions with repeated letters, word starts at several places, camel humps,
    /// digits and non-ASCII text.
    static func makeRegistry(flags: Int) throws -> AnyFeatureRegistry {
        let words = ["avatar", "Scroll", "net", "rounded", "Button", "rerun", "café", "Crème", "x2", "roro", "a"]
        var rng = SeededRandom(seed: 7)
        var groups: [RegistryManifest.Group] = []
        for g in 0..<max(1, flags / 50) {
            let group = "g\(g)" + words[g % words.count].lowercased().filter(\.isLetter)
            var list: [RegistryManifest.Flag] = []
            for f in 0..<min(50, flags - g * 50) {
                func phrase(_ n: Int) -> [String] { (0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] } }
                let key = group + "." + phrase(2).joined().filter { $0.isLetter || $0.isNumber } + "\(f)"
                let shape = rng.next() % 3  // three words, one word (exact matches), or humanised from the key
                let label = shape == 0 ? phrase(3).joined(separator: " ") : shape == 1 ? phrase(1)[0] : nil
                list.append(
                    RegistryManifest.Flag(key: key, label: label, description: phrase(5).joined(separator: " ")))
            }
            groups.append(RegistryManifest.Group(key: group, flags: list))
        }
        return try AnyFeatureRegistry(
            manifest: RegistryManifest(name: "Matcher", groups: groups),
            options: RegistryOptions(storeWatchInterval: nil))
    }

    static let queries = [
        "a", "r", "ro", "ror", "av", "ava", "avatar", "rer", "run", "net", "x", "x2", "2",
        "button", "rb", "scr", "cafe", "creme", "me", "e", "ed b", "rounded button", "zz", "g1", "tn",
    ]

    /// Reference: exact/prefix at the start, else the first occurrence at a word start, else the first
    /// occurrence, else (key and label only) the query without spaces as a subsequence.
    static func reference(_ query: [UInt8], _ field: SearchField, text: String) -> (SearchMatchKind, Int)? {
        var bytes: [UInt8] = []
        var starts = BitList()
        TextFolding.fold(text, bytes: &bytes, wordStarts: &starts)
        guard !query.isEmpty, !bytes.isEmpty else { return nil }
        let hits =
            bytes.count >= query.count
            ? (0...(bytes.count - query.count)).filter { Array(bytes[$0..<$0 + query.count]) == query } : []
        if hits.first == 0 { return (bytes.count == query.count ? .exact : .prefix, 0) }
        if let word = hits.first(where: { starts[$0] }) { return (.wordStart, word) }
        if let first = hits.first { return (.substring, first) }
        guard field == .key || field == .label else { return nil }
        let compact = query.filter { $0 != 0x20 }
        var position = 0
        var firstPosition: Int?
        for byte in compact {
            while position < bytes.count && bytes[position] != byte { position += 1 }
            if position == bytes.count { return nil }
            if firstPosition == nil { firstPosition = position }
            position += 1
        }
        return firstPosition.map { (.subsequence, $0) }
    }

    @Test func everyFieldMatchesLikeTheReference() throws {
        let registry = try Self.makeRegistry(flags: 200)
        let index = registry.searchIndex()
        for text in Self.queries {
            let query = FoldedQuery(text)
            for (entry, feature) in index.features.enumerated() {
                var expectedBest: (SearchMatchKind, SearchField, Int)?
                for field in SearchField.allCases {
                    let expected = Self.reference(query.bytes, field, text: field.text(of: feature))
                    let found = index.locate(query, entry: entry, field: field)
                    #expect(
                        found?.kind == expected?.0 && found?.position == expected?.1,
                        "\(text) in \(field) of \(feature.key): \(String(describing: found)) vs \(String(describing: expected))"
                    )
                    if let expected, expectedBest == nil || expected.0 < expectedBest!.0 {
                        expectedBest = (expected.0, field, expected.1)
                    }
                }
                let best = index.bestMatch(query, entry: entry)
                #expect(
                    best?.kind == expectedBest?.0 && best?.field == expectedBest?.1
                        && best?.position == expectedBest?.2,
                    "best for \(text) in \(feature.key)")
            }
        }
    }

    @Test func splittingOverCoresGivesTheSameMatchesInTheSameOrder() throws {
        let registry = try Self.makeRegistry(flags: 200)
        let index = registry.searchIndex()
        (registry.allFeatures[3] as? AnyFlag)?.override = .enabled
        (registry.allFeatures[150] as? AnyFlag)?.override = .disabled
        for text in Self.queries {
            for scope in SearchScope.allCases {
                let query = FoldedQuery(text)
                let sequential = index.scan(query, candidates: nil, scope: scope, parallelAbove: .max)
                let parallel = index.scan(query, candidates: nil, scope: scope, parallelAbove: 0)
                #expect(
                    sequential.matched == parallel.matched && sequential.buckets == parallel.buckets, "\(text) \(scope)"
                )
            }
        }
    }

    /// Narrowing rescans only the shorter query's matches, using where each matched as a hint: the result
    /// must be what a full scan finds, for every way of extending a query.
    @Test func narrowingWithHintsFindsWhatAFullScanFinds() throws {
        let registry = try Self.makeRegistry(flags: 200)
        let index = registry.searchIndex()
        var extensions = Self.queries.filter { $0.count >= 2 }
        extensions += ["avatar b", "rounded b", "scroll2", "nett", "rerun r", "café c", "crèmeb", "x23", "roror", "aa"]
        for text in extensions {
            let full = index.scan(FoldedQuery(text), candidates: nil, scope: .all, parallelAbove: .max)
            for cut in 1..<text.count {
                let prefix = FoldedQuery(String(text.prefix(cut)))
                let shorter = index.scan(prefix, candidates: nil, scope: .all, parallelAbove: .max)
                let candidates = SearchCandidates(entries: shorter.matched, hints: shorter.buckets)
                for parallelAbove in [Int.max, 0] {
                    let narrowed = index.scan(
                        FoldedQuery(text), candidates: candidates, scope: .all, parallelAbove: parallelAbove)
                    #expect(
                        narrowed.matched == full.matched && narrowed.buckets == full.buckets,
                        "\(text) narrowed from \(text.prefix(cut)), parallel above \(parallelAbove)")
                }
            }
        }
    }

    @Test func resultsAreRankedByKindThenFieldThenPosition() throws {
        let registry = try Self.makeRegistry(flags: 200)
        for text in Self.queries {
            let results = registry.search(text)
            let keys = results.map { result -> [Int] in
                let position = result.matchedRanges[result.field]?.first?.lowerBound ?? 0
                return [result.kind.rawValue, result.field.rawValue]
                    + [min(position, 63)]
            }
            #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) }, "\(text)")
            #expect(
                results.count
                    == registry.allFeatures.filter { feature in
                        SearchField.allCases.contains {
                            Self.reference(FoldedQuery(text).bytes, $0, text: $0.text(of: feature)) != nil
                        }
                    }.count, "\(text)")
        }
    }
}
