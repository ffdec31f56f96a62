import Synchronization

/// Whether the server-side client polls the delta API: on at first (when asked for), off for good once the server
/// answers 404 there.
final class UnleashDeltaSwitch: Sendable {
    private let on: Atomic<Bool>

    init(_ on: Bool) {
        self.on = Atomic(on)
    }

    /// Whether the delta API is polled.
    var isOn: Bool { on.load(ordering: .acquiring) }

    /// Turns the delta API off.
    /// - Returns: Whether it was on (only the first caller falls back).
    func turnOff() -> Bool {
        on.exchange(false, ordering: .acquiringAndReleasing)
    }
}
