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

/// Feeds keys to a state and returns the effects of the last one, without the `.repaint` every key asks for.
@discardableResult
func press(_ keys: ConsoleKey..., into state: inout ConsoleState) -> [ConsoleEffect] {
    var effects: [ConsoleEffect] = []
    for key in keys { effects = state.update(.key(key)).filter { $0 != .repaint } }
    return effects
}

/// Types characters one by one.
func type(_ text: String, into state: inout ConsoleState) {
    for character in text { _ = state.update(.key(.character(character))) }
}

/// Performs effects as the console does (the console's own effect runner, on a scripted terminal): store
/// writes go to the state's registry and come back as change events.
func apply(_ effects: [ConsoleEffect], to state: inout ConsoleState) throws {
    let registry = try #require((state.source as? RegistryFlagSource)?.registry)
    let runner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
    try runner.run(effects, on: &state)
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

/// Holds a file store's lock from another thread, as another process would (an `flock` on a descriptor of its
/// own conflicts like another process's), until ``release()``.
final class ThreadLockHolder: Sendable {
    private let url: URL
    private let held = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init(url: URL) { self.url = url }

    /// Takes the store's lock on another thread and returns once it is held.
    func hold() async throws {
        let store = try FileOverrideStore(url: url)
        let (held, released) = (self.held, self.released)
        Thread.detachNewThread {
            _ = try? store.holdingLock {
                held.signal()
                released.wait()
            }
        }
        try await offCooperativePool { held.wait() }
    }

    /// Lets the holder go.
    func release() { released.signal() }
}
