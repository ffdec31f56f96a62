import Observation
import Synchronization

/// Observation of one member by the Observation framework (`withObservationTracking`, SwiftUI): its registrar, and
/// the state last announced, so that a member is announced only when its effective value (or its override) has
/// changed.
///
/// Made at the member's first read of `enabled`, `value`, `override` or `overriddenValue` (tracked or not: a read
/// cannot tell), never for members only tools read (the console, the CLI, the server and manifests read
/// `currentValue`), so a registry of 100,000 members carries none until an app reads them.
final class MemberObservation: Sendable {
    /// Records reads inside tracking and tells the trackers of a change.
    let registrar = ObservationRegistrar()
    /// ``ObservedKeyPaths/value`` and ``ObservedKeyPaths/override``, loaded once: a read then takes them from this
    /// object rather than from lazily initialised globals (about 2 ns less per read).
    let valueKeyPath = ObservedKeyPaths.value
    let overrideKeyPath = ObservedKeyPaths.override
    private let announced: AnnotatedMutex<ObservedState>

    init(_ state: ObservedState) {
        announced = AnnotatedMutex(state)
    }

    /// Records `current` as announced.
    /// - Returns: which parts differ from the state announced before.
    func record(_ current: ObservedState) -> (value: Bool, override: Bool) {
        announced.withLock { last in
            defer { last = current }
            return (last.value != current.value, last.override != current.override)
        }
    }
}

/// What observers of a member are told about: its effective value (test overrides aside) and its local override.
struct ObservedState: Sendable, Equatable {
    var value: OverrideValue
    var override: OverrideValue?
}

/// The key paths reads are recorded under: one for the effective value, one for the local override.
enum ObservedKeyPaths {
    static let value: KeyPath<AnyFeature, OverrideValue> & Sendable = \AnyFeature.currentValue
    static let override: KeyPath<AnyFeature, OverrideValue?> & Sendable = \AnyFeature.overrideValue
}

/// A member's ``MemberObservation``, made on first use and published through an atomic pointer: reading it takes
/// no lock and no retain.
struct MemberObservationCell: ~Copyable, @unchecked Sendable {
    // @unchecked: the cell owns one retain of the observation, which is set once and never replaced.
    private let cell = Atomic<UInt>(0)

    init() {}

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: cell.load(ordering: .acquiring)) {
            Unmanaged<MemberObservation>.fromOpaque(pointer).release()
        }
    }

    /// Whether the observation has been made (a member never read has none, and nothing to announce).
    var exists: Bool { cell.load(ordering: .relaxed) != 0 }

    /// Calls `body` with the observation, if it has been made.
    func withExisting<Result>(_ body: (MemberObservation) -> Result?) -> Result? {
        guard let pointer = UnsafeRawPointer(bitPattern: cell.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<MemberObservation>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with the observation, made first with `make` if there is none (if two threads make one at
    /// once, one is kept).
    func withObservation(make: @autoclosure () -> MemberObservation, _ body: (MemberObservation) -> Void) {
        var raw = cell.load(ordering: .acquiring)
        if raw == 0 {
            let made = Unmanaged.passRetained(make())
            let desired = UInt(bitPattern: made.toOpaque())
            let (exchanged, original) = cell.compareExchange(
                expected: 0, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                raw = desired
            } else {
                made.release()
                raw = original
            }
        }
        guard let pointer = UnsafeRawPointer(bitPattern: raw) else { return }
        Unmanaged<MemberObservation>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
}

extension AnyFeature: Observable {}

extension AnyFeature {
    /// Records a read of the effective value for the Observation framework (no effect outside tracking but making
    /// the member's observation state on its first read).
    /// - Parameter current: the value read (test overrides aside), evaluated only for the first read: the state
    ///   later changes are compared with.
    @usableFromInline
    final func observeValueRead(_ current: @autoclosure () -> OverrideValue) {
        observation.withObservation(make: MemberObservation(ObservedState(value: current(), override: overrideValue))) {
            $0.registrar.access(self, keyPath: $0.valueKeyPath)
        }
    }

    /// Records a read of the local override for the Observation framework.
    final func observeOverrideRead() {
        observation.withObservation(make: MemberObservation(observedState)) {
            $0.registrar.access(self, keyPath: $0.overrideKeyPath)
        }
    }

    /// Tells observers of this member that its effective value or its override changed, for each that differs from
    /// what was announced last. Does nothing for a member never read. Call it with no lock held: observers run
    /// synchronously (`withObservationTracking`'s `onChange`).
    final func announceObservedChange() {
        _ = observation.withExisting { observation -> Void? in
            let changed = observation.record(observedState)
            if changed.value { observation.registrar.withMutation(of: self, keyPath: observation.valueKeyPath) {} }
            if changed.override {
                observation.registrar.withMutation(of: self, keyPath: observation.overrideKeyPath) {}
            }
            return nil
        }
    }

    /// Queues this member on its registry to be announced once the registry has released its locks (called when a
    /// store entry changed its override, under the registry's lock). Only a member that has been read is queued.
    final func queueObservedChange() {
        guard observation.exists, let registry else { return }
        registry.core.observedChanges.withLock { $0.append(self) }
    }
}
