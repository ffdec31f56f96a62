import Synchronization

/// An on/off flag: the family of `Feature`, `DynamicFeature`, `RemoteFeature` and `UnleashFeature`.
///
/// A new kind of flag subclasses `AnyFlag` and overrides ``computedDefault`` (the fast value, read on every
/// `enabled`), ``resolveDefault()`` (the same value with its source, for explanations) and ``kind``.
///
/// Reading ``enabled`` takes no lock, does no I/O and allocates nothing. In an override store a flag's override
/// is `"on"` or `"off"`.
open class AnyFlag: AnyFeature, @unchecked Sendable {
    // @unchecked: the mutable state is the atomic override/launch cells.

    let overrideCell = Atomic<UInt8>(0)
    /// What wins over the local override, in one cell so that a read without either costs one load: the launch
    /// override in the low two bits and the linked value (``ResolutionSource/link(server:)``) in the next two,
    /// each 0 none, 1 on, 2 off.
    let pinnedCell = Atomic<UInt8>(0)
    let launchCell = Atomic<UInt8>(0)  // 0 = not yet launched, 1 = on, 2 = off
    /// Where the launch override came from (empty: none was applied). One word rather than a lock and a string in
    /// every flag: launch overrides are rare, flags are many.
    private let pinnedOrigin = PublishedReference<LaunchOrigin>()
    /// The server of the linked value (empty: none was linked).
    private let linkOrigin = PublishedReference<LaunchOrigin>()

    /// Creates a flag. Subclasses call this.
    /// - Parameters:
    ///   - key: an explicit store key (no group prefix), or `nil` to derive it from the property name.
    ///   - label: a display label, or `nil` to humanise the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after a restart.
    public override init(key: String?, label: String?, description: String?, requiresRestart: Bool) {
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    // MARK: Value

    /// The effective value: a test override, else the launch override, else a linked value, else the local
    /// override, else the default (remote, dynamic, build target or static).
    ///
    /// This is the hot path: no I/O, no allocation, no lock (for `DynamicFeature` add the closure's cost). Inside
    /// `withObservationTracking` (or a SwiftUI view's body) the read is tracked: the tracker is told when the value
    /// changes.
    public final var enabled: Bool {
        let value = untrackedEnabled
        if !recordValueRead() { observeFirstRead(value) }
        return value
    }

    /// Makes the observation state at the first read of ``enabled``: from the value just read (not read again: a
    /// `DynamicFeature` computes on every read), unless a test scope forcing this flag is open, when the value read
    /// may be the forced one and the state is resolved afresh.
    @inline(never)
    private func observeFirstRead(_ value: Bool) {
        observeFirstValueRead(
            hasOpenTestScope ? observedState : ObservedState(value: value ? .on : .off, override: overrideValue))
    }

    /// ``enabled`` without recording the read for the Observation framework (what tools and the registry read).
    @inline(__always)
    package final var untrackedEnabled: Bool {
        if hasOpenTestScope, let forced = TaskLocalOverrides.value(for: self) as? Bool { return forced }
        return sharedEnabled
    }

    /// The effective value without test overrides: the launch override, else the linked value, else the local
    /// override, else the default.
    final var sharedEnabled: Bool {
        let pinned = pinnedCell.load(ordering: .relaxed)
        if pinned != 0 { return Self.pinnedValue(pinned) }
        switch overrideCell.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default: return computedDefault
        }
    }

    /// The value a non-zero ``pinnedCell`` forces: the launch override's, else the linked one.
    @inline(__always)
    static func pinnedValue(_ cell: UInt8) -> Bool {
        let launch = cell & 3
        return launch != 0 ? launch == 1 : (cell >> 2) == 1
    }

    /// The value without any override. Subclasses override this with a fast computation.
    open var computedDefault: Bool { resolveDefault().value }

    /// The value without any override, with its source and the chain of sources considered.
    /// Subclasses override this.
    open func resolveDefault() -> Resolution {
        .single(false, from: .static)
    }

    /// The effective value and why, including the override and any test override.
    public final var resolution: Resolution {
        let base = resolveDefault()
        var chain: [ResolutionStep] = []
        var value = base.value
        var source = base.source
        let forced = hasOpenTestScope ? TaskLocalOverrides.value(for: self) as? Bool : nil
        if let forced {
            chain.append(ResolutionStep(source: .testOverride, value: forced, detail: "forced in this task"))
        }
        let cell = pinnedCell.load(ordering: .relaxed)
        let pinned = OverrideState(cellValue: cell & 3).forcedValue
        if let pinned {
            chain.append(
                ResolutionStep(
                    source: .launch, value: pinned, detail: pinnedOrigin.readIfPublished { $0.text } ?? "launch"))
        }
        let linked = OverrideState(cellValue: cell >> 2).forcedValue
        let linkSource = ResolutionSource.link(server: linkOrigin.readIfPublished { $0.text } ?? "")
        if let linked {
            chain.append(ResolutionStep(source: linkSource, value: linked, detail: "linked"))
        }
        let state = OverrideState(cellValue: overrideCell.load(ordering: .relaxed))
        chain.append(
            ResolutionStep(
                source: .override, value: state.forcedValue, detail: state == .featureDefault ? "not overridden" : nil))
        chain.append(contentsOf: base.chain)
        if let forced {
            value = forced
            source = .testOverride
        } else if let pinned {
            value = pinned
            source = .launch
        } else if let linked {
            value = linked
            source = linkSource
        } else if let overrideValue = state.forcedValue {
            value = overrideValue
            source = .override
        }
        return Resolution(value: value, source: source, chain: chain)
    }

    // MARK: Override

    /// The local override. Setting it puts the new value in force at once and persists it through the registry's
    /// override store a moment later, off the calling thread (safe on the main thread: the setter never waits for
    /// the store's lock or disk).
    ///
    /// When the setter returns, `enabled`, this property, Observation trackers and the registry's change
    /// subscribers already see the new value. The store is written on the registry's write queue, in order, a burst
    /// of changes in one write (each change journaled); `await registry.flush()` waits until it is durable. Setting
    /// it never throws: if the write fails (corrupt or unwritable file) the error is kept in the registry's
    /// `storeError` (observable) and `lastRefusedChange`, and the flag goes back to the store's value. Use
    /// `AnyFeatureRegistry.setOverride(_:for:)` to write at once and get the error. A flag not yet in a registry
    /// keeps the override in memory only. Reading it inside `withObservationTracking` is tracked.
    public final var override: OverrideState {
        get {
            observeOverrideRead()
            return OverrideState(cellValue: overrideCell.load(ordering: .relaxed))
        }
        set {
            if let registry {
                registry.writeFromApp(OverrideValue(newValue), for: self)
            } else {
                overrideCell.store(newValue.cellValue, ordering: .relaxed)
                announceObservedChange()
            }
        }
    }

    /// ``override`` without recording the read for the Observation framework (what tools read).
    package final var untrackedOverride: OverrideState {
        OverrideState(cellValue: overrideCell.load(ordering: .relaxed))
    }

    // MARK: Restart tracking

    /// The effective value when the registry was created (or when this flag was registered).
    public var launchValue: Bool {
        switch launchCell.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default: return untrackedEnabled
        }
    }

    /// `true` when the flag requires a restart and its effective value differs from ``launchValue``.
    public override var isPendingRestart: Bool {
        requiresRestart && launchCell.load(ordering: .relaxed) != 0 && untrackedEnabled != launchValue
    }

    override func recordLaunchValue() {
        launchCell.store(untrackedEnabled ? 1 : 2, ordering: .relaxed)
    }

    override func recordLaunchValue(_ value: OverrideValue) {
        guard let state = value.overrideState?.forcedValue else { return }
        launchCell.store(state ? 1 : 2, ordering: .relaxed)
    }

    // MARK: Type-erased view

    /// Whether the flag has an override (`override != .featureDefault`).
    public override var isOverridden: Bool { overrideCell.load(ordering: .relaxed) != 0 }
    /// `"on"` or `"off"`.
    public override var currentValue: OverrideValue { untrackedEnabled ? .on : .off }
    /// The default without override, `"on"` or `"off"`.
    public override var valueWithoutOverride: OverrideValue { computedDefault ? .on : .off }
    /// `"on"`, `"off"` or `nil`.
    public override var overrideValue: OverrideValue? {
        OverrideValue(OverrideState(cellValue: overrideCell.load(ordering: .relaxed)))
    }

    /// The value is resolved as explanations resolve it: reading `enabled` may have effects (an Unleash flag counts
    /// an evaluation), announcing a change must not.
    override var observedState: ObservedState {
        let value: Bool
        let pinned = pinnedCell.load(ordering: .relaxed)
        if pinned != 0 {
            value = Self.pinnedValue(pinned)
        } else {
            switch overrideCell.load(ordering: .relaxed) {
            case 1: value = true
            case 2: value = false
            default: value = resolveDefault().value
            }
        }
        return ObservedState(value: value ? .on : .off, override: overrideValue)
    }
    /// The launch override, `"on"`, `"off"` or `nil`.
    package override var launchOverrideValue: OverrideValue? {
        OverrideValue(OverrideState(cellValue: pinnedCell.load(ordering: .relaxed) & 3))
    }

    /// The linked value, `"on"`, `"off"` or `nil`.
    package override var linkedValue: OverrideValue? {
        OverrideValue(OverrideState(cellValue: pinnedCell.load(ordering: .relaxed) >> 2))
    }

    override func applyLaunchOverride(_ value: OverrideValue?, origin: String) {
        pinnedOrigin.publish(LaunchOrigin(text: origin))
        let bits = (value?.overrideState ?? .featureDefault).cellValue
        updatePinned { ($0 & ~3) | bits }
        queueObservedChange()
    }

    override func applyLinkedValue(_ value: OverrideValue?, server: String) -> Bool {
        if value != nil, linkOrigin.readIfPublished({ $0.text }) != server {
            linkOrigin.publish(LaunchOrigin(text: server))
        }
        let bits = (value?.overrideState ?? .featureDefault).cellValue
        let (before, after) = updatePinned { ($0 & 3) | (bits << 2) }
        if before != after { queueObservedChange() }
        return before != after
    }

    /// Replaces the pinned cell by `change` of it, atomically (a launch override and a link may be set at once).
    /// - Returns: the cell before and after.
    @discardableResult
    private func updatePinned(_ change: (UInt8) -> UInt8) -> (before: UInt8, after: UInt8) {
        var current = pinnedCell.load(ordering: .relaxed)
        while true {
            let next = change(current)
            let (exchanged, original) = pinnedCell.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return (current, next) }
            current = original
        }
    }
    /// The launch value, `"on"` or `"off"`.
    package override var launchStoredValue: OverrideValue { launchValue ? .on : .off }
    /// ``resolution`` with JSON values.
    override var resolvedExplanation: ValueResolution { ValueResolution(resolution) }

    /// Accepts `"on"` and `"off"`.
    package override func validate(_ value: OverrideValue) throws(SettingValueError) {
        if value.overrideState == nil { throw SettingValueError(#"must be "on" or "off", found \#(value.json)"#) }
    }

    /// `on`/`off` and the other words `OverrideState(word:)` accepts (`default` is not a value).
    package override func parse(_ text: String) throws(SettingValueError) -> OverrideValue {
        switch OverrideState(word: text.trimmingCharacters(in: .whitespaces)) {
        case .enabled?: return .on
        case .disabled?: return .off
        default: throw SettingValueError("must be on or off")
        }
    }

    /// `on` or `off`.
    package override func displayText(_ value: OverrideValue) -> String {
        switch value.overrideState {
        case .enabled?: return "on"
        case .disabled?: return "off"
        default: return value.json
        }
    }

    override func applyStored(_ value: OverrideValue?) -> StoredValueOutcome {
        let state: OverrideState
        var problem: String?
        if let value {
            if let forced = value.overrideState {
                state = forced
            } else {
                state = .featureDefault
                problem = #"expected "on" or "off", found \#(value.summary)"#
            }
        } else {
            state = .featureDefault
        }
        let new = state.cellValue
        let changed = overrideCell.exchange(new, ordering: .relaxed) != new
        if changed { queueObservedChange() }
        return StoredValueOutcome(changed: changed, problem: problem)
    }
}

/// The origin of a flag's launch override, immutable.
private final class LaunchOrigin: Sendable {
    let text: String

    init(text: String) {
        self.text = text
    }
}
