import Foundation

/// Writing overrides, applying store snapshots and watching the store.
extension AnyFeatureRegistry {
    /// Sets a flag's override and persists it in the store.
    /// - Parameters:
    ///   - state: the new override; `.featureDefault` removes the key from the store.
    ///   - feature: a flag of this registry.
    /// - Throws: `RegistryError.notInRegistry`, or the store's error (corrupt or unwritable file); on error
    ///   nothing changes.
    public func setOverride(_ state: OverrideState, for feature: AnyFlag) throws {
        guard feature.registry === self else { throw RegistryError.notInRegistry(feature.key) }
        try setOverrides([feature.key: state])
    }

    /// Sets several flag overrides in one store write (keys this registry does not declare are stored too).
    /// - Parameter changes: keys and their new overrides (`.featureDefault` removes one).
    /// - Throws: ``SettingValueError`` when a key names a setting (use ``setOverrideValues(_:expiresAt:)``), or the
    ///   store's error; on error nothing changes.
    public func setOverrides(_ changes: [String: OverrideState]) throws {
        try setOverrideValues(changes.mapValues { OverrideEdit(OverrideValue($0)) })
    }

    /// Checks each value against the member declared under its key, in any order (sorting 100,000 keys costs
    /// more than checking them).
    /// - Throws: ``InvalidOverrideValue`` naming the first invalid key in key order.
    func validate(_ changes: [String: OverrideEdit]) throws {
        var invalid: InvalidOverrideValue?
        for (key, edit) in changes {
            guard case .set(let value) = edit, let member = feature(forKey: key), invalid.map({ key < $0.key }) ?? true
            else { continue }
            do {
                try member.validate(value)
            } catch {
                invalid = InvalidOverrideValue(key: key, value: value, reason: error.reason)
            }
        }
        if let invalid { throw invalid }
    }

    /// Resets every override of this registry's flags (overrides of keys it does not know are kept).
    /// - Throws: the store's error; on error nothing changes.
    public func resetAllOverrides() throws {
        try resetAllOverrides(parameters: WriteParameters())
    }

    /// Resets every override of this registry's flags as ``resetAllOverrides()`` does, with `parameters`.
    /// - Returns: the write's receipt.
    /// - Throws: the store's error; on error nothing changes.
    @discardableResult
    package func resetAllOverrides(parameters: WriteParameters) throws -> WriteReceipt {
        // The members' keys in byte order (no sort); members sharing a key (a duplicate-key problem) are neighbours.
        var keys: [String] = []
        for key in core.keyTable.featuresInByteOrder().keys where keys.last != key { keys.append(key) }
        return try write(
            OverrideChange(sortedKeys: keys, edit: .remove), policy: .writeEveryValue, parameters: parameters)
    }

    /// Re-reads the store now and notifies subscribers of any change (the watcher does this on its own
    /// every `storeWatchInterval`).
    public func refreshFromStore() {
        mutate { $0.reload(origin: .external) }
    }

    /// Keeps a change refused by a non-throwing setter (`Setting.overriddenValue`, `AnyFlag.override`).
    func recordRefusedChange(_ change: RefusedChange) {
        core.state.withLock { $0.lastRefusedChange = change }
    }

    /// The last change a non-throwing setter refused (an invalid value, an unwritable store), or `nil`.
    public var lastRefusedChange: RefusedChange? { core.state.withLock { $0.lastRefusedChange } }

    /// Store entries that are not valid for the member declared under their key (a hand-edited file, an older
    /// app version): ignored — the member reads as not overridden — and left in the file. Sorted by key.
    public var storedValueProblems: [StoredValueProblem] {
        let (problems, stored) = core.state.withLock { ($0.valueProblems, $0.storedOverrides) }
        return problems.keys.sorted().compactMap { key in
            stored[key].map { StoredValueProblem(key: key, value: $0, reason: problems[key] ?? "") }
        }
    }

    /// Whether `feature` is the member registered under its key.
    public func contains(_ feature: AnyFeature) -> Bool {
        feature.registry === self && self.feature(forKey: feature.key) === feature
    }

    /// Makes the flags' override cells match a full store snapshot, leaving out overrides that have expired
    /// by the registry's wall clock, and sets the expiry timer for the next one to expire.
    /// - Returns: the keys that changed, to notify once the caller has released its locks (`nil` when nothing
    ///   changed or `origin` is `nil`, i.e. at start-up).
    ///
    /// `written` is, for the registry's own write, the revision the store gave the new contents and what differs
    /// from the contents applied last, when the store could tell (``RevisionedOverrideStore``): only those keys
    /// are then applied. A reload gives the revision it read and no changes (every key is compared once); any
    /// other snapshot (an expiry) forgets the revision, so the next write compares every key.
    func apply(
        _ snapshot: StoreSnapshot, origin: FeatureChange.Origin?,
        written: (changes: [StoreSnapshot.ValueChange]?, revision: UInt64?)? = nil, members: WrittenMembers? = nil
    ) -> FeatureChange? {
        let now = core.wallClock.now()
        let (changed, nextExpiry) = core.state.withLock { state in
            applyHoldingState(snapshot, at: now, origin: origin, written: written, members: members, &state)
        }
        return finishApplying(changed, nextExpiry: nextExpiry, origin: origin)
    }

    /// What follows ``apply(_:origin:written:members:)`` once the state's lock is released: the expiry timer, the
    /// generation, the change to notify.
    func finishApplying(_ changed: [String], nextExpiry: Date?, origin: FeatureChange.Origin?) -> FeatureChange? {
        core.expiryTimer.schedule(at: nextExpiry) { [weak self] in self?.expireDueOverrides() }
        guard !changed.isEmpty else { return nil }
        core.generation.add(1, ordering: .releasing)
        guard let origin else { return nil }
        return FeatureChange(distinctKeys: changed, origin: origin)
    }

    /// ``apply(_:origin:written:members:)`` under the state's lock: `snapshot` is the store's contents; the app's
    /// pending writes (``PendingAppWrites``) are put on top of them.
    /// - Returns: the keys whose member changed, and the next expiry.
    func applyHoldingState(
        _ snapshot: StoreSnapshot, at now: Date, origin: FeatureChange.Origin?,
        written: (changes: [StoreSnapshot.ValueChange]?, revision: UInt64?)?, members: WrittenMembers?,
        _ state: inout RegistryState
    ) -> (changed: [String], nextExpiry: Date?) {
        state.storeContents = snapshot
        // While the app has writes pending, what the store says changed is not what the members see change.
        let pending = !state.appWrites.latest.isEmpty
        let snapshot = pending ? state.appWrites.overlay(on: snapshot) : snapshot
        let overrides = snapshot.liveOverrides(at: now)
        let nextExpiry = snapshot.expiries.filter { overrides[$0.key] != nil }.values.map(\.expiresAt).min()
        let changed: [String] = {
            let previous = state.storedOverrides
            let previousHadExpiries = !state.storeSnapshot.expiries.isEmpty
            state.storedOverrides = overrides
            state.storeSnapshot = snapshot
            state.storeRevision = written?.revision ?? nil
            // Distinct keys, collected in an array: the change makes a set of them only if a subscriber reads it.
            var changed: [String] = []
            if let written = written?.changes, !pending, origin != nil, state.problems.isEmpty, !previousHadExpiries,
                snapshot.expiries.isEmpty
            {
                // Only what the store says differs (no expiry: every stored value is in force before and after),
                // through the published table; flags registered since its publication are looked up in the state.
                let table = state.published
                let notingEvery = !state.valueProblems.isEmpty
                let applied: (keys: [String], problems: [(String, String?)])
                if state.unpublished.isEmpty, let table {
                    applied = Self.apply(written, table: table, members: members, notingEvery: notingEvery)
                } else {
                    applied = Self.apply(written[...], notingEvery: notingEvery) { state.member(forKey: $0) }
                }
                for (key, problem) in applied.problems { state.valueProblems[key] = problem }
                return applied.keys
            }
            if origin != nil, state.problems.isEmpty {
                // Every member already holds `previous`: only keys whose stored entry differs can change. Duplicate
                // keys share one entry between several members, so those registries take the full pass below.
                for (key, new) in overrides where previous[key] != new { set(key, new, &changed, &state) }
                for key in previous.keys where overrides[key] == nil { set(key, nil, &changed, &state) }
                return changed
            }
            state.valueProblems = [:]
            for feature in state.features {
                let key = feature.key
                let outcome = feature.applyStored(overrides[key])
                if outcome.changed { changed.append(key) }
                if let problem = outcome.problem { state.valueProblems[key] = problem }
            }
            // Members sharing a key (a duplicate-key problem) may each have noted it.
            return state.problems.isEmpty ? changed : Array(Set(changed))
        }()
        return (changed, nextExpiry)
    }

    /// From this many written keys, a registry applies them on two threads.
    static let parallelApplyThreshold = 20_000

    /// Puts written values in force for the members of `table`: the writer's own `members` (keys in byte order,
    /// as the changes are) found by walking them in step with the changes, any other by looking its key up. From
    /// ``parallelApplyThreshold`` changes on, each half on its own thread (the members' cells are atomic;
    /// docs/performance.md, "One write path").
    private static func apply(
        _ written: [StoreSnapshot.ValueChange], table: KeyTable, members: WrittenMembers?, notingEvery: Bool
    ) -> (keys: [String], problems: [(String, String?)]) {
        @Sendable func applyPart(_ part: ArraySlice<StoreSnapshot.ValueChange>) -> (
            keys: [String], problems: [(String, String?)]
        ) {
            guard let members else { return apply(part, notingEvery: notingEvery, lookup: table.lookup) }
            var cursor = members.cursor(from: part.first?.key)
            return apply(part, notingEvery: notingEvery) { key in cursor.member(forKey: key) ?? table.lookup(key) }
        }
        guard written.count >= parallelApplyThreshold else { return applyPart(written[...]) }
        let middle = written.count / 2
        let parts = AnnotatedMutex<[(keys: [String], problems: [(String, String?)])]>(
            Array(repeating: ([], []), count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let applied = applyPart(part == 0 ? written[..<middle] : written[middle...])
            parts.withLock { $0[part] = applied }
        }
        return parts.withLock { ($0[0].keys + $0[1].keys, $0[0].problems + $0[1].problems) }
    }

    /// Puts each written value in force for the member `lookup` finds under its key.
    /// - Returns: the keys whose override changed, and the problems to note (every outcome when `notingEvery`,
    ///   so that entries refused before are cleared).
    private static func apply(
        _ written: ArraySlice<StoreSnapshot.ValueChange>, notingEvery: Bool, lookup: (String) -> AnyFeature?
    ) -> (keys: [String], problems: [(String, String?)]) {
        var keys: [String] = []
        var problems: [(String, String?)] = []
        keys.reserveCapacity(written.count)
        for change in written {
            guard let feature = lookup(change.key) else { continue }
            let outcome = feature.applyStored(change.new)
            if outcome.changed { keys.append(change.key) }
            if outcome.problem != nil || notingEvery { problems.append((change.key, outcome.problem)) }
        }
        return (keys, problems)
    }

    /// Puts `value` in force for the member with `key` (if the registry has one), noting the key if it changed
    /// and the problem if the value is not valid for it.
    private func set(
        _ key: String, _ value: OverrideValue?, _ changed: inout [String], _ registry: inout RegistryState
    ) {
        guard let feature = registry.member(forKey: key) else { return }
        let outcome = feature.applyStored(value)
        if outcome.changed { changed.append(key) }
        if outcome.problem != nil || !registry.valueProblems.isEmpty { registry.valueProblems[key] = outcome.problem }
    }

    /// Starts the watcher: a task that waits `storeWatchInterval` on the options' clock, then compares the
    /// store's change signature with the one last applied, and reloads on a difference. It holds the registry
    /// weakly and ends when the registry is deallocated (its `deinit` cancels the wait).
    func startWatchingStore() {
        guard let interval = options.storeWatchInterval, store.changeSignature() != nil else { return }
        let clock = options.clock
        let task = Task.detached(priority: .utility) { [weak self] in
            while true {
                do {
                    try await clock.sleep(for: max(interval, .milliseconds(1)))
                } catch {
                    return  // cancelled: the registry is gone
                }
                guard let registry = self else { return }
                registry.checkStoreForExternalChange()
            }
        }
        core.setWatcher(task)
    }

    private func checkStoreForExternalChange() {
        let current = store.changeSignature()
        let known = core.state.withLock { $0.storeSignature }
        guard current != known else { return }
        refreshFromStore()
    }
}

/// Overrides that expire (``OverrideExpiry``).
extension AnyFeatureRegistry {
    /// The expiry of the override in force under `key`, or `nil` when it is permanent or there is none.
    /// - Parameter key: a store key.
    public func overrideExpiry(forKey key: String) -> OverrideExpiry? {
        core.state.withLock { state in
            state.storedOverrides[key] == nil ? nil : state.storeSnapshot.expiries[key]
        }
    }

    /// Overrides still in the store whose expiry time has passed: no longer applied, removed by the next write
    /// to the store. By key.
    public var expiredOverrides: [String: OverrideValue] {
        core.state.withLock { state in
            state.storeSnapshot.overrides.filter { state.storedOverrides[$0.key] == nil }
        }
    }

    /// The expiry of each override in ``expiredOverrides``.
    package var expiredOverrideExpiries: [String: OverrideExpiry] {
        core.state.withLock { state in
            state.storeSnapshot.expiries.filter {
                state.storeSnapshot.overrides[$0.key] != nil && state.storedOverrides[$0.key] == nil
            }
        }
    }

    /// The registry's current date and time (its ``RegistryOptions/wallClock``, never going backwards): what
    /// expiry is measured against.
    package var now: Date { core.wallClock.now() }

    /// Sets or removes the overrides of flags and settings in one store write: all or nothing. Each value is
    /// checked against the member declared under its key (keys this registry does not declare are stored as
    /// given). Values set stop applying at `expiresAt`, or are permanent (`nil`); removals ignore the expiry.
    ///
    ///     try registry.setOverrideValues(["blueText": .set(.on), "maxItems": .remove])
    /// - Parameters:
    ///   - edits: keys and what to do to each (`"on"`/`"off"` for flags).
    ///   - expiresAt: when the overrides set stop applying; must be later than ``now``.
    /// - Throws: ``InvalidOverrideValue`` naming the first invalid key (in key order), or an expiry not in the
    ///   future; or the store's error (also when the store keeps no expiry times); on error nothing changes.
    public func setOverrideValues(_ edits: [String: OverrideEdit], expiresAt: Date? = nil) throws {
        // The app names each key: every value is written as asked, even one its declaration already gives.
        try writeOverrideValues(edits, expiresAt: expiresAt, policy: .writeEveryValue)
    }

    /// Checks values and an expiry as ``setOverrideValues(_:expiresAt:)`` does, then writes them through
    /// ``write(_:policy:members:parameters:)`` with `policy` and `parameters`.
    /// - Returns: what changed, and how many members were left at their default.
    /// - Throws: as ``setOverrideValues(_:expiresAt:)``.
    @discardableResult
    package func writeOverrideValues(
        _ changes: [String: OverrideEdit], expiresAt: Date? = nil, policy: OverrideWritePolicy,
        parameters: WriteParameters = WriteParameters()
    ) throws -> WriteReceipt {
        var change = OverrideChange(changes)
        if let expiresAt {
            let now = self.now
            let set = zip(change.keys, change.edits).compactMap { key, edit in edit.value.map { (key, $0) } }
            if let (first, value) = set.first {
                if expiresAt <= now {
                    throw InvalidOverrideValue(
                        key: first, value: value,
                        reason:
                            "the expiry \(CivilDate.timestampText(expiresAt)) is not in the future (now \(CivilDate.timestampText(now)))"
                    )
                }
                if !OverrideExpiry.storableRange.contains(expiresAt) {
                    throw InvalidOverrideValue(
                        key: first, value: value,
                        reason:
                            "the expiry \(CivilDate.timestampText(expiresAt)) is outside the times a store can hold (\(OverrideExpiry.storableRangeText))"
                    )
                }
            }
            let expiry = OverrideExpiry(expiresAt: expiresAt, setAt: now)
            change.expiries = Dictionary(uniqueKeysWithValues: set.map { ($0.0, expiry) })
        }
        try validate(changes)
        return try write(change, policy: policy, parameters: parameters)
    }

    /// Re-applies the last store contents at the current time, so overrides whose time has come stop applying,
    /// and notifies subscribers (the expiry timer calls this at the next expiry).
    func expireDueOverrides() {
        mutate { $0.reapply() }
    }
}
