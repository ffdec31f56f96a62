import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// A small registry shaped like the demo: root flags, two groups, a nested group, restart-requiring flags.
func makeRegistry(store: any OverrideStore = InMemoryOverrideStore(), extraFlags: [RegistryManifest.Flag] = []) throws
    -> AnyFeatureRegistry
{
    func flag(
        _ key: String, _ label: String? = nil, _ description: String? = nil, on: Bool = false, restart: Bool = false
    ) -> RegistryManifest.Flag {
        RegistryManifest.Flag(key: key, label: label, description: description, default: on, requiresRestart: restart)
    }
    let manifest = RegistryManifest(
        name: "Moments demo",
        flags: [
            flag("blueText", "Blue Text", "Tint body text blue"),
            flag("useTabBarNav", nil, "Tab bar navigation instead of a drawer", restart: true),
        ] + extraFlags,
        groups: [
            RegistryManifest.Group(
                key: "moments", label: "Moments",
                flags: [
                    flag(
                        "moments.isLikeButtonForMomentEnabled", nil, "Show the like button under each moment",
                        restart: true),
                    flag("moments.isRoundedAvatar", nil, "Round avatars in the feed", on: true),
                ]),
            RegistryManifest.Group(
                key: "list", label: "List",
                flags: [
                    flag("list.infiniteScroll", nil, "Load more rows when scrolling to the end", on: true),
                    flag("list.compactRows", nil, "Denser rows"),
                ],
                groups: [
                    RegistryManifest.Group(
                        key: "cells", label: "Cells",
                        flags: [flag("list.cells.avatarBadge", nil, "Badge on the avatar")])
                ]),
        ]
    )
    return try AnyFeatureRegistry(manifest: manifest, store: store, options: RegistryOptions(storeWatchInterval: nil))
}

/// A console state driven as the console drives it: every read it asks for is answered at once from its flag
/// source (a registry, or a fake), and the answer fed back; the other effects are returned. Reads the state's
/// properties through dynamic member look-up, so `state.cursor` reads as before.
@dynamicMemberLookup
struct ConsoleHarness {
    /// The state.
    var state: ConsoleState
    /// Answers the reads.
    let feed: ConsoleFeed
    /// The runner on the registry (store writes), when there is one.
    let runner: ConsoleEffectRunner?

    init(
        source: any ConsoleFlagSource, title: String? = nil, width: Int = 100, height: Int = 30,
        useColor: Bool = true, asciiOnly: Bool = false, showDetail: Bool = true
    ) {
        self.init(
            feed: ConsoleFeed(source: source), runner: nil, title: title, width: width, height: height,
            useColor: useColor, asciiOnly: asciiOnly, showDetail: showDetail)
    }

    init(
        registry: AnyFeatureRegistry, title: String? = nil, width: Int = 100, height: Int = 30,
        useColor: Bool = true, asciiOnly: Bool = false, showDetail: Bool = true
    ) {
        let runner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
        self.init(
            feed: runner.feed, runner: runner, title: title, width: width, height: height, useColor: useColor,
            asciiOnly: asciiOnly, showDetail: showDetail)
    }

    private init(feed: ConsoleFeed, runner: ConsoleEffectRunner?, state: ConsoleState) {
        self.feed = feed
        self.runner = runner
        self.state = state
    }

    private init(
        feed: ConsoleFeed, runner: ConsoleEffectRunner?, title: String?, width: Int, height: Int, useColor: Bool,
        asciiOnly: Bool, showDetail: Bool
    ) {
        self.feed = feed
        self.runner = runner
        state = ConsoleState(
            start: feed.start(), title: title, width: width, height: height, useColor: useColor,
            asciiOnly: asciiOnly, showDetail: showDetail)
        _ = update(.opened)
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<ConsoleState, Value>) -> Value { state[keyPath: keyPath] }

    /// The flags read.
    var source: any ConsoleFlagSource { feed.source }

    /// Feeds an event, answers the reads it asks for (and those of the answers), and returns the other effects.
    mutating func update(_ event: ConsoleEvent) -> [ConsoleEffect] {
        perform(state.update(event))
    }

    /// Answers the reads; returns the other effects, each `.repaint` after the first dropped (one frame shows
    /// them all, as in the runner; none beside a `.redrawAll`), and nothing after a quit.
    private mutating func perform(_ effects: [ConsoleEffect]) -> [ConsoleEffect] {
        var others: [ConsoleEffect] = []
        for effect in effects {
            if case .read(let read) = effect { others += update(feed.answer(read)) } else { others.append(effect) }
            // Nothing happens after a quit (the runner stops there too).
            if let quit = others.firstIndex(where: \.isQuit) { return Array(others[...quit]) }
        }
        var repainted = others.contains(.redrawAll)
        return others.filter { effect in
            guard effect == .repaint else { return true }
            defer { repainted = true }
            return !repainted
        }
    }

    /// The registry reported a change of these keys.
    @discardableResult
    mutating func registryChanged(keys: Set<String>) -> [ConsoleEffect] {
        update(.flagsChanged(feed.update(.keys(keys))))
    }

    /// The registry reported a change of many keys.
    @discardableResult
    mutating func registryChangedInBulk() -> [ConsoleEffect] {
        update(.flagsChanged(feed.update(.many)))
    }

    /// Every flag read again (as after flags were registered).
    mutating func refreshAll() {
        registryChangedInBulk()
    }

    /// A copy whose reads are answered by a new feed (one that has seen no change: it counts from scratch).
    func withFreshFeed() -> ConsoleHarness {
        let copy = ConsoleHarness(feed: ConsoleFeed(source: source), runner: nil, state: state)
        _ = copy.feed.start()
        return copy
    }

    /// A tick, as the runner sends it: flags registered since the last look first.
    mutating func tick(sinceLastFrame: Duration) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        if let update = feed.registrations() { effects += self.update(.flagsChanged(update)) }
        return effects + update(.tick(now: source.now, sinceLastFrame: sinceLastFrame))
    }

    /// Selects the flag with `key` (see ``ConsoleState/select(key:)``), answering the reads it needs.
    mutating func select(key: String) {
        state.select(key: key)
        _ = perform(state.reads())
    }

    /// Moves the cursor (see ``ConsoleState/move(by:)``), answering the reads it needs.
    mutating func move(by delta: Int) {
        state.move(by: delta)
        _ = perform(state.reads())
    }

    /// Moves the cursor to a row (see ``ConsoleState/move(to:)``), answering the reads it needs.
    mutating func move(to index: Int) {
        state.move(to: index)
        _ = perform(state.reads())
    }

    /// The keys of the marked flags and settings.
    var markedKeys: Set<String> {
        var keys: Set<String> = []
        state.marks.forEach { ordinal in
            if let key = source.key(atOrdinal: ordinal) { keys.insert(key) }
        }
        return keys
    }

    /// The session's result now.
    func outcome(choice: RestartChoice, signal: ConsoleSignal?) -> ConsoleOutcome {
        ConsoleOutcome(
            choice: choice, signal: signal, statuses: source.notableStatuses(), openingOverrides: state.openingOverrides
        )
    }
}

extension ConsoleEffectRunner {
    /// Feeds an event to a driven state through this runner (its reads answered by this runner's feed).
    func send(_ event: ConsoleEvent, to harness: inout ConsoleHarness) throws { try send(event, to: &harness.state) }

    /// Feeds the queued events to a driven state.
    func sendQueuedEvents(to harness: inout ConsoleHarness) throws { try sendQueuedEvents(to: &harness.state) }

    /// Performs effects on a driven state.
    func run(_ effects: [ConsoleEffect], on harness: inout ConsoleHarness) throws {
        try run(effects, on: &harness.state)
    }
}

extension ConsoleLayout {
    /// Renders a driven state.
    static func render(_ harness: ConsoleHarness) -> ScreenBuffer { render(harness.state) }
}

/// Feeds keys to a state and returns the effects of the last one, without the `.repaint` every key asks for.
@discardableResult
func press(_ keys: ConsoleKey..., into state: inout ConsoleHarness) -> [ConsoleEffect] {
    var effects: [ConsoleEffect] = []
    for key in keys { effects = state.update(.key(key)).filter { $0 != .repaint } }
    return effects
}

/// Types characters one by one.
func type(_ text: String, into state: inout ConsoleHarness) {
    for character in text { _ = state.update(.key(.character(character))) }
}

/// Performs effects as the console does (the console's own effect runner, on a scripted terminal): store
/// writes go to the state's registry and come back as change events.
func apply(_ effects: [ConsoleEffect], to state: inout ConsoleHarness) throws {
    let runner = try #require(state.runner)
    try runner.run(effects, on: &state.state)
}

extension ScreenBuffer {
    /// The row containing `text`, or -1.
    func row(containing text: String) -> Int { find(text)?.row ?? -1 }

    /// The cell where `text` starts.
    func cell(at text: String) -> Cell? {
        guard let position = find(text) else { return nil }
        return cell(row: position.row, column: position.column)
    }

    /// The cells of the first occurrence of `text` (one per column, continuation cells included).
    func cells(of text: String) -> [Cell] {
        guard let position = find(text) else { return [] }
        let width = DisplayWidth.of(text)
        return (0..<width).map { cell(row: position.row, column: position.column + $0) }
    }
}
