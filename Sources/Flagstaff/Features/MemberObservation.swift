import Observation

/// Observation of one member by the Observation framework (`withObservationTracking`, SwiftUI): its registrar, and
/// the state last announced, so that a member is announced only when its effective value (or its override) has
/// changed.
///
/// Made at the member's first read of `enabled`, `value`, `override` or `overriddenValue` (tracked or not: a read
/// cannot tell), never for members only tools read (the console, the CLI, the server and manifests read
/// `currentValue`), so a registry of 100,000 members carries none until an app reads them.
@usableFromInline
final class MemberObservation: Sendable {
    /// ``ObservedKeyPaths/value`` and ``ObservedKeyPaths/override``, loaded once: a read then takes them from this
    /// object rather than from lazily initialised globals (no lazy-global check per read). Before the registrar,
    /// whose size is only known at run time, so that their offsets are constants.
    @usableFromInline let valueKeyPath = ObservedKeyPaths.value
    let overrideKeyPath = ObservedKeyPaths.override
    /// Records reads inside tracking and tells the trackers of a change.
    @usableFromInline let registrar = ObservationRegistrar()
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

extension AnyFeature: Observable {}

extension AnyFeature {
    /// Records a read of the effective value for the Observation framework (no effect outside tracking), if the
    /// member has its observation state.
    /// - Returns: `false` when it has none yet (its first read): then call ``observeFirstValueRead(_:)``.
    ///
    /// Inlined into `enabled` and ``recordReadWithoutEffects()``: one acquire load and the registrar's `access`.
    @inline(__always)
    final func recordValueRead() -> Bool {
        // In place, not `let observation = …`: a strong copy would be retained and released by every read.
        let recorded: Void? = observation.readIfPublishedOnce { $0.registrar.access(self, keyPath: $0.valueKeyPath) }
        return recorded != nil
    }

    /// Records a read of the effective value of a member whose read has no effect (a `Setting`): at its first read,
    /// the state later changes are compared with is taken from ``observedState``, not from the value read.
    ///
    /// Out of line and not generic: the one call an app's inlined `Setting.value` makes, with no value kept across
    /// it and no protocol-conformance lookup in the app's code.
    @usableFromInline
    final func recordReadWithoutEffects() {
        if !recordValueRead() { observeFirstValueRead(observedState) }
    }

    /// Makes the observation state at the first read of the value, which ``recordValueRead()`` found without one,
    /// then records the read.
    /// - Parameter state: what later changes are compared with.
    @inline(never)
    final func observeFirstValueRead(_ state: ObservedState) {
        observation.publishIfEmpty(MemberObservation(state)) {
            $0.registrar.access(self, keyPath: $0.valueKeyPath)
        }
    }

    /// Records a read of the local override for the Observation framework.
    final func observeOverrideRead() {
        observation.publishIfEmpty(MemberObservation(observedState)) {
            $0.registrar.access(self, keyPath: $0.overrideKeyPath)
        }
    }

    /// Tells observers of this member that its effective value or its override changed, for each that differs from
    /// what was announced last. Does nothing for a member never read. Call it with no lock held: observers run
    /// synchronously (`withObservationTracking`'s `onChange`).
    final func announceObservedChange() {
        guard let observation = observation.readIfPublishedOnce({ $0 }) else { return }
        let changed = observation.record(observedState)
        if changed.value { observation.registrar.withMutation(of: self, keyPath: observation.valueKeyPath) {} }
        if changed.override { observation.registrar.withMutation(of: self, keyPath: observation.overrideKeyPath) {} }
    }

    /// Queues this member on its registry to be announced once the registry has released its locks (called when a
    /// store entry changed its override, under the registry's lock). Only a member that has been read is queued.
    final func queueObservedChange() {
        guard observation.isPublished, let registry else { return }
        registry.queueObservedChange(of: self)
    }
}
