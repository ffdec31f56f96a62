import Foundation
import Synchronization

/// A typed value QA can force: a string, a number, an enum case or any `Codable` value (see ``SettingValue``).
///
/// ```swift
/// struct AppFeatures: FeatureGroup {
///     let cardColor = Setting(default: "#f05138", description: "Card background")   // Setting<String>
///     let maxItems = Setting(default: 20, range: 1...100)                             // Setting<Int>
///     let theme = Setting(default: Theme.system, requiresRestart: true)               // choices: the cases
/// }
/// features.maxItems.value                     // the effective value
/// features.maxItems.overriddenValue = 50      // persisted in the store; nil removes the override
/// ```
///
/// Settings live in registries and groups like flags (discovered by reflection, namespaced keys, duplicate
/// checks) and appear in search, manifests, restart tracking and change notifications. Resolution, highest
/// first: a test override (`withSetting`), a launch override, a linked value, the local override, the remote value (when bound, see
/// ``SettingRemoteBinding``), the declared default.
///
/// Reads take no lock and decode nothing: the override is kept decoded, and a remote value is decoded once per
/// change of its source. An invalid value is never stored; a stored value that is not valid for this setting
/// (a hand-edited file, an older app version) is ignored, reported in the registry's `storedValueProblems`, and
/// left in the file.
public final class Setting<Value: SettingValue>: AnyFeature, @unchecked Sendable {
    // @unchecked: the mutable state is the published `state`, the read path atomics and the launch value behind a
    // mutex.

    /// The value when there is no override and no remote value.
    public let defaultValue: Value
    private let type: SettingType
    private let bounds: (lower: Value, upper: Value, check: @Sendable (Value) -> Bool)?
    @usableFromInline let state: PublishedReference<SettingState<Value>>
    private let launch = AnnotatedMutex<Value?>(nil)
    /// Where ``value`` reads from (a ``SettingReadPath``), so most reads skip the published state. Written after the
    /// state, under ``SettingWriters/lock`` (docs/performance.md, "Reading a setting").
    @usableFromInline let readPath = Atomic<UInt8>(SettingReadPath.declaredDefault.rawValue)
    /// The override when ``readPath`` is ``SettingReadPath/overrideWord`` (see ``SettingWordEncoding``).
    @usableFromInline let overrideWord = Atomic<UInt64>(0)
    let wordEncoding: SettingWordEncoding
    /// The generation of the first source bound, published once, so a remote read of a one-word value
    /// (``SettingReadPath/remoteWord``) needs neither the published state nor a call to the source.
    @usableFromInline let wordSourceGeneration: PublishedReference<SettingSourceGeneration>
    /// The remote value (or the default when the source has none) as a word (``SettingWordEncoding``), valid for
    /// generation ``remoteWordGeneration`` of ``wordSourceGeneration`` (0: none). Written under
    /// ``SettingWriters/lock``, the word first.
    @usableFromInline let remoteWord = Atomic<UInt64>(0)
    @usableFromInline let remoteWordGeneration = Atomic<UInt64>(0)
    /// `Value.settingCases`, for enum overrides kept as an index.
    @usableFromInline let cases: [Value]?

    /// Creates a setting.
    /// - Parameters:
    ///   - default: the value when there is no override and no remote value.
    ///   - key: an explicit store key (no group prefix); `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - remote: where to read a remote value, if anywhere (bind later with ``bind(to:)``).
    public convenience init(
        default defaultValue: Value, key: String? = nil, label: String? = nil, description: String? = nil,
        requiresRestart: Bool = false, remote: SettingRemoteBinding? = nil
    ) {
        self.init(
            key: key, label: label, description: description, defaultValue: defaultValue, type: Value.settingType,
            bounds: nil, requiresRestart: requiresRestart, remote: remote)
    }

    /// Creates a number (or other comparable) setting whose values must lie in `range`.
    /// - Parameters:
    ///   - default: the value when there is no override and no remote value (should lie in `range`).
    ///   - range: the values allowed, bounds included.
    ///   - key: an explicit store key (no group prefix); `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - remote: where to read a remote value, if anywhere; remote values outside `range` are ignored.
    public convenience init(
        default defaultValue: Value, range: ClosedRange<Value>, key: String? = nil, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, remote: SettingRemoteBinding? = nil
    ) where Value: Comparable {
        self.init(
            key: key, label: label, description: description, defaultValue: defaultValue, type: Value.settingType,
            bounds: (range.lowerBound, range.upperBound, { range.contains($0) }), requiresRestart: requiresRestart,
            remote: remote)
    }

    /// Creates a text setting whose value must be one of `choices` (for choices known only at run time, e.g.
    /// from a manifest; an enum type is the better choice in code).
    /// - Parameters:
    ///   - default: the value when there is no override and no remote value (should be one of `choices`).
    ///   - choices: the values allowed.
    ///   - key: an explicit store key (no group prefix); `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - remote: where to read a remote value, if anywhere; other values are ignored.
    public convenience init(
        default defaultValue: String, choices: [String], key: String? = nil, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, remote: SettingRemoteBinding? = nil
    ) where Value == String {
        self.init(
            key: key, label: label, description: description, defaultValue: defaultValue, type: .choice(choices),
            bounds: nil, requiresRestart: requiresRestart, remote: remote)
    }

    private init(
        key: String?, label: String?, description: String?, defaultValue: Value, type: SettingType,
        bounds: (lower: Value, upper: Value, check: @Sendable (Value) -> Bool)?, requiresRestart: Bool,
        remote: SettingRemoteBinding?
    ) {
        self.defaultValue = defaultValue
        self.type = type
        self.bounds = bounds
        let generation = remote?.source.settingValueGeneration
        self.state = PublishedReference(SettingState(SettingState.Parts(binding: remote, sourceGeneration: generation)))
        self.cases = Value.settingCases
        wordEncoding = SettingWordEncoding(for: Value.self, hasCases: cases != nil)
        if let generation {
            wordSourceGeneration = PublishedReference(generation)
            let path: SettingReadPath = wordEncoding == .none ? .publishedState : .remoteWord
            readPath.store(path.rawValue, ordering: .releasing)
        } else {
            wordSourceGeneration = PublishedReference()
        }
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    // MARK: Value

    /// The effective value: a test override, else the local override, else the remote value, else the default.
    ///
    /// No lock, no I/O, no decoding (a remote value is decoded once per change of its source): safe to read on any
    /// thread, as often as needed. Inside `withObservationTracking` (or a SwiftUI view's body) the read is tracked:
    /// the tracker is told when the value changes.
    @inlinable
    public var value: Value {
        recordReadWithoutEffects()
        return untrackedValue
    }

    /// ``value`` without recording the read for the Observation framework.
    @inlinable @inline(__always)
    var untrackedValue: Value {
        if hasOpenTestScope, let forced = testOverride() { return forced }
        return sharedValue
    }

    /// The current task's test override, if any. Out of line, so that ``value`` stays small enough to inline.
    @usableFromInline @inline(never)
    func testOverride() -> Value? {
        TaskLocalOverrides.value(for: self) as? Value
    }

    /// The effective value without test overrides.
    @inlinable @inline(__always)
    var sharedValue: Value {
        let path = readPath.load(ordering: .acquiring)
        if path == SettingReadPath.declaredDefault.rawValue { return defaultValue }
        // Only a value of one word has the word paths: in a read specialised for a longer type this folds away.
        if MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size {
            if path == SettingReadPath.overrideWord.rawValue {
                return Self.value(ofWord: overrideWord.load(ordering: .relaxed), cases: cases)
            }
            if path == SettingReadPath.remoteWord.rawValue,
                wordSourceGeneration.readIfPublishedOnce({ $0.current })
                    == remoteWordGeneration.load(ordering: .acquiring)
            {
                return Self.value(ofWord: remoteWord.load(ordering: .relaxed), cases: cases)
            }
        }
        return outOfLinePublishedValue()
    }

    /// ``publishedValue`` out of line, so that ``sharedValue`` keeps its three one-word paths and inlines.
    @inlinable @inline(never)
    func outOfLinePublishedValue() -> Value { publishedValue }

    /// The value from the published state (overrides of other types, remote values).
    @inlinable @inline(__always)
    var publishedValue: Value {
        let current: Value? = state.read { state in
            if let forced = state.forced { return forced }
            guard let generation = state.parts.sourceGeneration else { return defaultValue }
            guard generation.current == state.parts.remoteGeneration else { return nil }
            return state.parts.remote ?? defaultValue
        }
        return current ?? refreshedRemoteValue()
    }

    @usableFromInline
    func refreshedRemoteValue() -> Value { refreshRemote().value }

    /// The local override, or `nil` when there is none. Setting it puts the value in force at once and persists it
    /// through the registry's store a moment later, off the calling thread (safe on the main thread); `nil`
    /// removes the override.
    ///
    /// When the setter returns, ``value``, this property, Observation trackers and the registry's change
    /// subscribers already see the new value; `await registry.flush()` waits until the store has it (a burst of
    /// changes is one write, each change journaled). Setting never throws: an invalid value (out of range, not a
    /// choice) is refused — the value stays as it was — and reported in the registry's
    /// ``AnyFeatureRegistry/lastRefusedChange``; a write that fails is reported there and in `storeError`
    /// (observable), and the setting goes back to the store's value. Use ``setOverriddenValue(_:)`` to write at
    /// once and get the error. Reading it inside `withObservationTracking` is tracked.
    public var overriddenValue: Value? {
        get {
            observeOverrideRead()
            return state.read { $0.parts.override }
        }
        set {
            do {
                if let newValue {
                    try check(newValue)  // before encoding: an infinite Double would encode as null
                    let stored = Value.storedValue(of: newValue)
                    try validate(stored)
                    try writeOverrideFromApp(stored)
                } else {
                    try writeOverrideFromApp(nil)
                }
            } catch {
                registry?.recordRefusedChange(RefusedChange(key: key, reason: "\(error)"))
            }
        }
    }

    /// Sets or removes (`nil`) the local override.
    /// - Throws: ``SettingValueError`` for an invalid value (nothing changes), or the store's error.
    public func setOverriddenValue(_ newValue: Value?) throws {
        guard let newValue else { return try writeOverride(nil) }
        try check(newValue)  // before encoding: an infinite Double would encode as null
        try setOverrideValue(Value.storedValue(of: newValue))
    }

    /// Where the effective value comes from.
    public var source: ResolutionSource { explanation.source }

    /// The effective value when the registry was created (or this setting was registered, or launch values were
    /// last recorded).
    public var launchValue: Value { launch.withLock { $0 } ?? untrackedValue }

    /// Binds the setting to a remote value (once; a later call replaces the binding).
    /// - Parameter binding: the source and key.
    public func bind(to binding: SettingRemoteBinding) {
        write { $0.with(binding: binding) }
        if let registry, registry.contains(self) {
            registry.notifyRemoteChange(keys: [key])
        } else {
            announceObservedChange()
        }
    }

    /// The remote binding, if any.
    public var remoteBinding: SettingRemoteBinding? { state.read { $0.parts.binding } }

    // MARK: Validation

    private func check(_ value: Value) throws(SettingValueError) {
        if let bounds, !bounds.check(value) {
            throw SettingValueError(
                "must be \(Value.displayText(of: bounds.lower))…\(Value.displayText(of: bounds.upper))")
        }
        if case .choice(let names) = type, let name = value as? String, !names.contains(name) {
            throw SettingValueError("must be one of " + names.joined(separator: ", "))
        }
        if let number = value as? Double, !number.isFinite { throw SettingValueError("must be a finite number") }
    }

    private func decodeChecked(_ stored: OverrideValue) throws(SettingValueError) -> Value {
        let decoded = try Value.decode(stored: stored)
        try check(decoded)
        return decoded
    }

    // MARK: Type-erased view

    /// The type (choices for enums and `choices:` settings).
    public override var settingType: SettingType { type }

    /// The bounds of a `range:` setting.
    package override var valueRange: ValueRange? {
        bounds.map { ValueRange(lower: Value.storedValue(of: $0.lower), upper: Value.storedValue(of: $0.upper)) }
    }

    /// ``value`` as JSON.
    public override var currentValue: OverrideValue { Value.storedValue(of: untrackedValue) }
    /// The remote value or the default, as JSON.
    public override var valueWithoutOverride: OverrideValue { Value.storedValue(of: remoteOrDefault.value) }
    /// ``defaultValue`` as JSON.
    package override var declaredDefault: OverrideValue { Value.storedValue(of: defaultValue) }
    /// The override as stored, or `nil`.
    public override var overrideValue: OverrideValue? { state.read { $0.parts.stored } }
    /// The launch override, or `nil`.
    package override var launchOverrideValue: OverrideValue? { state.read { $0.parts.pinnedStored } }

    override var observedState: ObservedState {
        ObservedState(value: Value.storedValue(of: sharedValue), override: overrideValue)
    }

    /// The linked value as JSON, or `nil`.
    package override var linkedValue: OverrideValue? { state.read { $0.parts.linkedStored } }

    override func applyLinkedValue(_ value: OverrideValue?, server: String) -> Bool {
        let decoded = value.flatMap { try? decodeChecked($0) }
        let kept = decoded == nil ? nil : value
        // Most members keep their linked value from one update to the next: no write (and no epoch wait) then.
        let unchanged = state.read { $0.parts.linkedStored == kept && (kept == nil || $0.parts.linkServer == server) }
        if unchanged { return false }
        let previous = write {
            $0.with {
                $0.linked = decoded
                $0.linkedStored = kept
                $0.linkServer = kept == nil ? nil : server
            }
        }.previous
        let changed = previous.parts.linkedStored != kept
        if changed { queueObservedChange() }
        return changed
    }

    override func applyLaunchOverride(_ value: OverrideValue?, origin: String) {
        let decoded = value.flatMap { try? decodeChecked($0) }
        write {
            $0.with {
                $0.pinned = decoded
                $0.pinnedStored = decoded == nil ? nil : value
                $0.pinnedOrigin = origin
            }
        }
        queueObservedChange()
    }
    /// Whether there is a local override.
    public override var isOverridden: Bool { state.read { $0.parts.override != nil } }
    /// ``launchValue`` as JSON.
    package override var launchStoredValue: OverrideValue { Value.storedValue(of: launchValue) }
    /// Whether the setting requires a restart and its value differs from ``launchValue``.
    public override var isPendingRestart: Bool {
        guard requiresRestart, let launched = launch.withLock({ $0 }) else { return false }
        return untrackedValue != launched
    }

    /// The value and every source considered.
    override var resolvedExplanation: ValueResolution {
        var chain: [ValueResolutionStep] = []
        var winner: (value: Value, source: ResolutionSource)?
        if hasOpenTestScope, let forced = TaskLocalOverrides.value(for: self) as? Value {
            chain.append(
                ValueResolutionStep(
                    source: .testOverride, value: Value.storedValue(of: forced), detail: "forced in this task"))
            winner = (forced, .testOverride)
        }
        let (overrideValue, stored, pinned, pinnedStored, pinnedOrigin) = state.read {
            ($0.parts.override, $0.parts.stored, $0.parts.pinned, $0.parts.pinnedStored, $0.parts.pinnedOrigin)
        }
        let (linked, linkedStored, linkServer) = state.read {
            ($0.parts.linked, $0.parts.linkedStored, $0.parts.linkServer)
        }
        if let pinned {
            chain.append(ValueResolutionStep(source: .launch, value: pinnedStored, detail: pinnedOrigin))
            if winner == nil { winner = (pinned, .launch) }
        }
        if let linked {
            let source = ResolutionSource.link(server: linkServer ?? "")
            chain.append(ValueResolutionStep(source: source, value: linkedStored, detail: "linked"))
            if winner == nil { winner = (linked, source) }
        }
        chain.append(
            ValueResolutionStep(source: .override, value: stored, detail: overrideValue == nil ? "not overridden" : nil)
        )
        if winner == nil, let overrideValue { winner = (overrideValue, .override) }
        let remote = remoteOrDefault
        if let binding = remoteBinding {
            let source = ResolutionSource.remote(
                provider: remote.raw?.provider ?? "remote", fetchedAt: remote.raw?.fetchedAt)
            chain.append(
                ValueResolutionStep(
                    source: source, value: remote.remote.map(Value.storedValue(of:)),
                    detail: remote.problem
                        ?? remote.raw.map { $0.detail ?? "key \"\(binding.key)\"" }
                        ?? "no remote value for \"\(binding.key)\""))
            if winner == nil, let value = remote.remote { winner = (value, source) }
        }
        chain.append(ValueResolutionStep(source: .static, value: Value.storedValue(of: defaultValue)))
        let (value, source) = winner ?? (defaultValue, .static)
        return ValueResolution(value: Value.storedValue(of: value), source: source, chain: chain)
    }

    /// Decodes and checks a stored or imported value.
    package override func validate(_ value: OverrideValue) throws(SettingValueError) {
        _ = try decodeChecked(value)
    }

    /// Parses text typed by a person and checks it.
    package override func parse(_ text: String) throws(SettingValueError) -> OverrideValue {
        let parsed = try Value.parse(text: text)
        try check(parsed)
        return Value.storedValue(of: parsed)
    }

    /// The value as a person reads it (the string itself, a number, a case name, compact JSON).
    package override func displayText(_ value: OverrideValue) -> String {
        (try? Value.decode(stored: value)).map(Value.displayText(of:)) ?? value.json
    }

    override func applyStored(_ stored: OverrideValue?) -> StoredValueOutcome {
        var decoded: Value?
        var problem: String?
        if let stored {
            do {
                decoded = try decodeChecked(stored)
            } catch {
                problem = error.reason
            }
        }
        let kept = decoded == nil ? nil : stored
        let changed =
            write {
                $0.with {
                    $0.override = decoded
                    $0.stored = kept
                }
            }.previous.parts.stored != kept
        if changed { queueObservedChange() }
        return StoredValueOutcome(changed: changed, problem: problem)
    }

    override func recordLaunchValue() {
        let current = untrackedValue
        launch.withLock { $0 = current }
    }

    override func recordLaunchValue(_ value: OverrideValue) {
        guard let decoded = try? decodeChecked(value) else { return }
        launch.withLock { $0 = decoded }
    }

    // MARK: Remote

    /// The remote value (decoded, checked) or the default, with the raw value and why it was refused.
    private var remoteOrDefault: (value: Value, remote: Value?, raw: RemoteSettingValue?, problem: String?) {
        let cached: (Value?, RemoteSettingValue?, String?)? = state.read { state in
            guard let generation = state.parts.sourceGeneration else { return (nil, nil, nil) }
            guard generation.current == state.parts.remoteGeneration else { return nil }
            return (state.parts.remote, state.parts.remoteRaw, state.parts.remoteProblem)
        }
        let (remote, raw, problem) = cached ?? refreshRemote().entry
        return (remote ?? defaultValue, remote, raw, problem)
    }

    /// Decodes the bound source's current value and publishes it with the source's generation.
    private func refreshRemote() -> (value: Value, entry: (Value?, RemoteSettingValue?, String?)) {
        let (bound, sourceGeneration) = state.read { ($0.parts.binding, $0.parts.sourceGeneration) }
        guard let binding = bound, let sourceGeneration else { return (defaultValue, (nil, nil, nil)) }
        // Before the value: the value read is this generation's or a later one's.
        let generation = sourceGeneration.current
        let raw = binding.source.settingRemoteValue(forKey: binding.key)
        var decoded: Value?
        var problem: String?
        if let raw {
            switch binding.source.decodeSettingValue(raw, as: Value.self) {
            case .success(let value):
                do {
                    try check(value)
                    decoded = value
                } catch {
                    problem = "remote value \(JSONText.quoted(raw.text)) ignored: \(error.reason)"
                }
            case .failure(let error):
                problem = "remote value \(JSONText.quoted(raw.text)) ignored: \(error.reason)"
            }
        }
        publishRemote(
            decoded, raw: raw, problem: problem, generation: generation, for: binding,
            sourceGeneration: sourceGeneration)
        return (state.read { $0.forced } ?? decoded ?? defaultValue, (decoded, raw, problem))
    }
}
