import Flagstaff
@testable import FlagstaffConsole

/// A small registry shaped like the demo: root flags, two groups, a nested group, restart-requiring flags.
func makeRegistry(store: any OverrideStore = InMemoryOverrideStore(), extraFlags: [RegistryManifest.Flag] = []) throws -> FeatureRegistry {
    func flag(_ key: String, _ label: String? = nil, _ description: String? = nil, on: Bool = false, restart: Bool = false) -> RegistryManifest.Flag {
        RegistryManifest.Flag(key: key, label: label, description: description, default: on, requiresRestart: restart)
    }
    let manifest = RegistryManifest(
        name: "Moments demo",
        flags: [
            flag("blueText", "Blue Text", "Tint body text blue"),
            flag("useTabBarNav", nil, "Tab bar navigation instead of a drawer", restart: true),
        ] + extraFlags,
        groups: [
            RegistryManifest.Group(key: "moments", label: "Moments", flags: [
                flag("moments.isLikeButtonForMomentEnabled", nil, "Show the like button under each moment", restart: true),
                flag("moments.isRoundedAvatar", nil, "Round avatars in the feed", on: true),
            ]),
            RegistryManifest.Group(key: "list", label: "List", flags: [
                flag("list.infiniteScroll", nil, "Load more rows when scrolling to the end", on: true),
                flag("list.compactRows", nil, "Denser rows"),
            ], groups: [
                RegistryManifest.Group(key: "cells", label: "Cells", flags: [flag("list.cells.avatarBadge", nil, "Badge on the avatar")]),
            ]),
        ]
    )
    return try FeatureRegistry(manifest: manifest, store: store, options: RegistryOptions(storeWatchInterval: nil))
}

/// Feeds keys to a state and returns the effects of the last one.
@discardableResult
func press(_ keys: ConsoleKey..., into state: inout ConsoleState) -> [ConsoleEffect] {
    var effects: [ConsoleEffect] = []
    for key in keys { effects = state.handle(key) }
    return effects
}

/// Types characters one by one.
func type(_ text: String, into state: inout ConsoleState) {
    for character in text { _ = state.handle(.character(character)) }
}

/// Performs setOverride / resetAll effects against the registry, as the shell does, then refreshes.
func apply(_ effects: [ConsoleEffect], to state: inout ConsoleState) throws {
    for effect in effects {
        switch effect {
        case let .setOverride(key, overrideState):
            if let feature = state.registry.feature(forKey: key) { try state.registry.setOverride(overrideState, for: feature) }
        case .resetAll:
            try state.registry.resetAllOverrides()
        default:
            break
        }
    }
    state.refresh()
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
