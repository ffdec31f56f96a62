import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// The state is a value: its rows and search answers are copied out of the source, so two states compare, and
/// the matched characters of a search are read for the rows on screen only.
@Suite struct ConsoleStateValueTests {
    /// Sixty flags at the root, `flag0` … `flag59`.
    func makeSource() -> FakeFlagSource {
        FakeFlagSource((0..<60).map { FakeFlagSource.Flag(key: "flag\($0)", defaultValue: $0 % 2 == 0) })
    }

    @Test func statesCompareAndAnEventThatChangesNothingLeavesAnEqualState() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        let before = state.state
        #expect(state.state == before)
        _ = state.update(.tick(now: before.now, sinceLastFrame: .zero))
        #expect(state.state == before, "a tick at the same time changes nothing")
        press(.down, into: &state)
        #expect(state.state != before)
        press(.up, into: &state)
        #expect(state.state == before, "down then up is where it was")
        // The same search answered twice gives equal rows: they hold the keys, not the source's live results.
        var first = ConsoleHarness(source: source)
        var second = first  // the same start (the fake's clock moves between two starts)
        press(.character("/"), into: &first)
        press(.character("/"), into: &second)
        type("flag1", into: &first)
        type("flag1", into: &second)
        #expect(first.rows == second.rows)
        #expect(first.state == second.state)
        #expect(first.rows.count == 11)  // flag1, flag10 … flag19
    }

    @Test func matchedCharactersAreReadForTheRowsOnScreenOnlyAndOnce() {
        let source = makeSource()
        var state = ConsoleHarness(source: source, width: 100, height: 14)
        press(.character("/"), into: &state)
        type("flag", into: &state)
        press(.enter, into: &state)  // the filter stays; back to the list
        let height = state.listHeight
        let count = state.rows.count
        #expect(count == 60 && height < 20)
        let hits = state.rows.searchHits
        #expect(hits.map { (0..<height).allSatisfy($0.hasMatchedRanges(at:)) } == true, "the rows on screen")
        #expect(hits.map { $0.hasMatchedRanges(at: height) } == false, "rows below the screen are not read")
        // Jumping to the end asks for the rows now on screen, once, by position.
        var raw = state.state
        let effects = raw.update(.key(.character("G")))
        let asked = ConsoleRead.matches(query: "flag", scope: .all, positions: Array(count - height..<count))
        #expect(effects.contains(.read(asked)), "\(effects)")
        #expect(!raw.update(.tick(now: raw.now, sinceLastFrame: .zero)).contains(.read(asked)), "asked once")
        // Answered, they are kept with the rows; the rows read before are not asked for again.
        press(.character("G"), into: &state)
        #expect(state.rows.searchHits.map { $0.hasMatchedRanges(at: count - 1) } == true)
        var back = state.state
        #expect(!back.update(.key(.character("g"))).contains { if case .read(.matches) = $0 { true } else { false } })
        // Without a query the rows are not highlighted and nothing is asked.
        press(.escape, into: &state)
        press(.tab, into: &state)
        #expect(state.rows.searchHits == nil)
    }

    @Test func theHistoryOverlayMovesItsSelectionByItselfKeepingItShown() {
        let changes = (0..<10).map { index in
            HistoryChange(
                id: "c\(index)",
                entries: [
                    JournalEntry(
                        time: Date(timeIntervalSince1970: Double(index)), change: "c\(index)", key: "flag\(index)",
                        old: nil, new: .on, origin: .console, user: "qa", pid: 1, command: "console")
                ])
        }
        var overlay = HistoryOverlay(contents: HistoryContents(changes: changes))
        overlay.move(by: 5, visible: 3)
        #expect(overlay.selected == 5 && overlay.offset == 3, "scrolled to show the selection last")
        overlay.move(by: -4, visible: 3)
        #expect(overlay.selected == 1 && overlay.offset == 1, "scrolled to show it first")
        overlay.move(by: 100, visible: 3)
        #expect(overlay.selected == 9 && overlay.offset == 7, "clamped to the oldest change")
        overlay.move(by: -100, visible: 3)
        #expect(overlay.selected == 0 && overlay.offset == 0, "clamped to the newest")
        var empty = HistoryOverlay(contents: HistoryContents(changes: []))
        empty.move(by: 1, visible: 3)
        #expect(empty == HistoryOverlay(contents: HistoryContents(changes: [])))
    }

    @Test func theAppsOverlayScrollsAndKeepsItsScrollByItself() {
        let apps = (0..<5).map { index in
            ConnectedApp(
                name: "app\(index)", connection: .polling, lastSeen: Date(timeIntervalSince1970: 0),
                freshness: .upToDate)
        }
        var overlay = AppsOverlay()
        overlay.scroll(by: 3)
        #expect(overlay == AppsOverlay(), "nothing to scroll before the first read")
        overlay.show(apps)
        overlay.scroll(by: 10)
        #expect(overlay.offset == 4, "clamped to the last app")
        overlay.show(Array(apps.prefix(2)))
        #expect(overlay.offset == 1, "kept where it can be when fewer apps are read")
        overlay.scroll(by: -10)
        #expect(overlay.offset == 0)
    }

    @Test func aSearchAnswerTakesItsKeysFromTheTableAndReadsOnlyTheOthers() {
        // flagX was registered after the table was made (ordinal 3), the orphan has no ordinal.
        let live = FakeFlagSource.Hits(keys: ["b", "flagX", "a"], ordinals: [1, 3, 0])
        let hits = ConsoleSearchHits(copying: live, keyTable: ["a", "b", "c"])
        #expect((0..<hits.count).map(hits.key(at:)) == ["b", "flagX", "a"])
        #expect((0..<hits.count).map(hits.ordinal(at:)) == [1, 3, 0])
        #expect(hits.position(ofKey: "a") == 2 && hits.position(ofKey: "c") == nil)
        let stale = ConsoleSearchHits(keys: ["orphan", "a"], ordinals: [nil, 0])
        #expect(stale.key(at: 0) == "orphan" && stale.ordinal(at: 0) == nil && stale.ordinal(at: 1) == 0)
        #expect(hits == ConsoleSearchHits(copying: live, keyTable: ["a", "b", "c"]))
    }
}
