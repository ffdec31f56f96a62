/// What a key does in the connected apps overlay (`A`, with `console --serve`).
package enum AppsAction: Sendable, Hashable {
    /// Open the overlay.
    case open
    /// Close it.
    case close
    /// Scroll by apps.
    case scroll(by: Int)
}

extension KeyBindings {
    /// `A` in the list and the overlay's keys: the last rows of the key table.
    static let appsOverlay: [KeyBinding] = [
        KeyBinding(
            [.character("A")], in: [.list], .apps(.open),
            help: "the apps connected to --serve, up to date or behind",
            footer: "A apps", priority: 5, when: .withServer),
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.apps], .apps(.scroll(by: -1)), help: "previous app",
            footer: "{upDown} scroll"),
        KeyBinding([.down, .character("j"), .control("n")], in: [.apps], .apps(.scroll(by: 1)), help: "next app"),
        KeyBinding([.pageUp, .control("b")], in: [.apps], .apps(.scroll(by: -10)), help: "10 apps up"),
        KeyBinding([.pageDown, .control("f")], in: [.apps], .apps(.scroll(by: 10)), help: "10 apps down"),
        KeyBinding(
            [.escape, .character("A"), .character("q")], in: [.apps], .apps(.close), help: "close the apps",
            footer: "Esc close", kept: true),
    ]
}
