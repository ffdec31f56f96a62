import Flagstaff
import Testing

@testable import FlagstaffConsole

@Suite struct ConsoleSearchTests {
    /// Root flags whose labels match "avatar" in each of the five ways, declared worst first.
    func rankingRegistry() throws -> AnyFeatureRegistry {
        let flags = [
            RegistryManifest.Flag(key: "adventure", label: "Adventure Variant Title Area"),
            RegistryManifest.Flag(key: "myavatars", label: "Myavatars"),
            RegistryManifest.Flag(key: "roundedAvatar", label: "Rounded Avatar"),
            RegistryManifest.Flag(key: "avatarSize", label: "Avatar Size"),
            RegistryManifest.Flag(key: "avatar", label: "Avatar"),
            RegistryManifest.Flag(key: "unrelated", label: "Unrelated"),
        ]
        return try AnyFeatureRegistry(
            manifest: RegistryManifest(name: "Ranking", flags: flags), options: RegistryOptions(storeWatchInterval: nil)
        )
    }

    @Test func ranksExactPrefixWordStartSubstringSubsequence() throws {
        var state = ConsoleHarness(registry: try rankingRegistry())
        press(.character("/"), into: &state)
        type("avatar", into: &state)
        let screen = ConsoleLayout.render(state)
        let listed = (3..<8).map { screen.text(row: $0).prefix(40).trimmingCharacters(in: .whitespaces) }
        #expect(listed == ["Avatar", "Avatar Size", "Rounded Avatar", "Myavatars", "Adventure Variant Title Area"])
        #expect(screen.row(containing: "Unrelated") == -1)
        #expect(state.cursor == 0, "the best match is selected")
    }

    @Test func theSearchLineCountsWhatTheFilterLeft() throws {
        var state = ConsoleHarness(registry: try rankingRegistry(), width: 100, height: 20)
        press(.character("/"), into: &state)
        type("avatar", into: &state)
        #expect(ConsoleLayout.render(state).text(row: 1).hasPrefix(" / avatar▏   5 matches"))
        type("si", into: &state)
        #expect(ConsoleLayout.render(state).text(row: 1).hasPrefix(" / avatarsi▏   1 match "))
        type("zz", into: &state)
        #expect(ConsoleLayout.render(state).text(row: 1).hasPrefix(" / avatarsizz▏   0 matches"))
        press(.escape, into: &state)
        #expect(!ConsoleLayout.render(state).text(row: 1).contains("match"), "no count without a filter")
        press(.tab, into: &state)  // scope On, no query
        let onCount = state.source.search("", scope: .enabled).count
        #expect(ConsoleLayout.render(state).text(row: 1).hasPrefix(" / to search   \(onCount) flag"))
        // A narrow terminal leaves the count out rather than crowd the scopes.
        var narrow = ConsoleHarness(registry: try rankingRegistry(), width: 40, height: 20)
        press(.character("/"), into: &narrow)
        type("adventure variant title", into: &narrow)
        let line = ConsoleLayout.render(narrow).text(row: 1)
        #expect(!line.contains("match") && line.hasSuffix("[All] "), "\(line)")
    }

    @Test func highlightsTheMatchedCharacters() throws {
        var state = ConsoleHarness(registry: try rankingRegistry())
        press(.character("/"), into: &state)
        type("AVATAR", into: &state)  // case-insensitive
        let screen = ConsoleLayout.render(state)
        let row = screen.row(containing: "Rounded Avatar")
        let start = try #require(screen.find("Rounded Avatar", inRow: row))
        let cells = (0..<14).map { screen.cell(row: row, column: start + $0) }
        #expect(cells[0..<8].allSatisfy { $0.foreground == .red }, "unmatched characters keep the value colour")
        #expect(cells[8..<14].allSatisfy { $0.foreground == .cyan && $0.bold }, "\"Avatar\" is highlighted")
        // Subsequence: exactly the six matched letters are highlighted.
        let subsequenceRow = screen.row(containing: "Adventure Variant Title Area")
        let highlighted = (0..<100).filter { screen.cell(row: subsequenceRow, column: $0).foreground == .cyan }
        #expect(highlighted.count == 6)
    }

    @Test func matchesDiacriticInsensitivelyAndSearchesGroupPathAndDescription() throws {
        var state = ConsoleHarness(registry: try makeRegistry())
        press(.character("/"), into: &state)
        type("xyzzy", into: &state)
        #expect(state.rows.isEmpty)
        #expect(ConsoleLayout.render(state).find("No flag matches \u{201C}xyzzy\u{201D}") != nil)
        press(.control("u"), into: &state)
        type("scrólling", into: &state)  // folded to "scrolling": the description of Infinite Scroll.
        var screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "List → Infinite Scroll") == 3)
        press(.control("u"), into: &state)
        type("cells", into: &state)  // the nested group's name: the flat row shows the whole path
        screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "List → Cells → Avatar Badge") == 3)
        #expect(screen.cells(of: "Cells").allSatisfy { $0.foreground == .cyan })
    }

    @Test func theDetailPaneHighlightsMatchesInTheKeyAndDescription() throws {
        var state = ConsoleHarness(registry: try makeRegistry())
        press(.character("/"), into: &state)
        type("likebutton", into: &state)  // in the key only: the label is "Is Like Button For Moment Enabled"
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 25).hasPrefix(" moments.isLikeButtonForMomentEnabled — Show the like button"))
        #expect(screen.cells(of: "LikeButton").allSatisfy { $0.foreground == .cyan && $0.bold })
        #expect(screen.cells(of: "moments.is").allSatisfy { $0.foreground == .default && $0.bold })
        press(.control("u"), into: &state)
        type("each moment", into: &state)  // in the description only
        screen = ConsoleLayout.render(state)
        let column = try #require(screen.find("each moment", inRow: 25))
        #expect((column..<column + 11).allSatisfy { screen.cell(row: 25, column: $0).foreground == .cyan })
        let under = try #require(screen.find("under", inRow: 25))
        #expect(screen.cell(row: 25, column: under).foreground == .default)
    }

    @Test func searchWithinAScopeAndKeepingTheCursorOnTheSameFlag() throws {
        let registry = try makeRegistry()
        var state = ConsoleHarness(registry: registry)
        press(.tab, into: &state)  // On
        press(.character("/"), into: &state)
        type("a", into: &state)
        #expect(state.rows.allSatisfy { $0.key.flatMap(state.source.status(forKey:))?.value == true })
        press(.escape, into: &state)
        #expect(state.scope == .enabled, "Esc clears the query, not the scope")
        // Cursor stays on the same flag across refreshes, even when rows move.
        state = ConsoleHarness(registry: registry)
        press(.end, into: &state)
        let key = try #require(state.selectedKey)
        press(.character("/"), .escape, into: &state)
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "blueText")))
        state.refreshAll()
        #expect(state.selectedKey == key)
    }
}

@Suite struct ConsoleTypeaheadTests {
    @Test func aRunOfQueryEditsEndsWhereKeyByKeyHandlingEnds() throws {
        let registry = try makeRegistry()
        let keys: [ConsoleKey] =
            "avx".map { .character($0) } + [.backspace, .backspace] + "ata".map { .character($0) }
            + [.control("u")] + "scroll".map { .character($0) }
        var oneByOne = ConsoleHarness(registry: registry)
        var batched = ConsoleHarness(registry: registry)
        press(.character("/"), into: &oneByOne)
        press(.character("/"), into: &batched)
        for key in keys { _ = oneByOne.update(.key(key)) }
        var searches: [ConsoleRead] = []
        for effect in batched.state.update(.keys(keys)) {
            guard case .read(let read) = effect else { continue }
            searches.append(read)
            _ = batched.update(batched.feed.answer(read))
        }
        #expect(searches == [.search(query: "scroll", scope: .all)], "one search, for the final query")
        #expect(batched.query == "scroll" && oneByOne.query == "scroll")
        #expect(ConsoleLayout.render(batched) == ConsoleLayout.render(oneByOne))
        // A key that is not a query edit ends the run: it and the keys after it come back one by one.
        #expect(
            batched.update(.keys([.character("x"), .down, .character("y")])).last
                == .handleKeys([.down, .character("y")]))
        #expect(batched.query == "scrollx")
        #expect(batched.update(.keys([.down, .character("y")])).last == .handleKeys([.character("y")]))
        press(.enter, into: &batched)
        // Outside the search field letters are commands: `o` is handled alone, `x` comes back.
        #expect(batched.update(.keys([.character("o"), .character("x")])).last == .handleKeys([.character("x")]))
    }

    @Test func typeaheadThroughTheRunLoopKeepsCommandsAfterTheQuery() throws {
        let registry = try makeRegistry()
        let events: [ConsoleEvent?] =
            [.key(.character("/"))] + "blue".map { .key(.character($0)) }
            + [.key(.enter), .key(.character("o")), .key(.character("q"))]
        let terminal = ScriptedTerminal(events: events)
        terminal.deliversTypeahead = true
        let outcome = try FeatureConsole(registry: registry).run(on: terminal)
        #expect(terminal.typeaheadCount == 7, "/ was read normally; b, l, u, e, Enter, o, q were waiting")
        #expect(outcome.changedKeys == ["blueText"])
        #expect(outcome.signal == nil && outcome.restartChoice == .notNeeded)
    }
}
