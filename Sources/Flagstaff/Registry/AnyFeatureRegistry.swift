import Foundation
import Synchronization

/// A registry of flags and settings, whatever declared them: the type the console, the CLI, the server, manifests
/// and remote sources work with.
///
/// An app creates a ``FeatureRegistry`` from its declarations (a ``FeatureGroup``) and reads its flags through
/// it; that registry is an `AnyFeatureRegistry` too. A registry built from a manifest
/// (``init(manifest:store:options:settingSource:makeFeature:)``) or filled at run time (``register(_:in:)``) is one
/// directly.
///
/// At creation a registry assigns keys (`group.property` unless a member has an explicit key), reports duplicate
/// keys in ``problems``, loads overrides from the store, remembers each member's value for restart tracking, and
/// starts watching the store for changes by other processes.
///
/// Thread-safety: all members may be used from any thread. Reading a flag never touches the store.
public class AnyFeatureRegistry: @unchecked Sendable {
    // @unchecked: all mutable state is in `core` (atomics and AnnotatedMutexes); `store` and `options` are immutable.

    /// The store overrides are persisted in.
    public let store: any OverrideStore
    /// ``store`` when it is a file store: what the services beside the store use (its history, bisect, the doctor's
    /// repair, the manifest announced beside it), and the tools that opened the registry. The one place the store's
    /// type is asked.
    package let fileStore: FileOverrideStore?
    /// The options the registry was created with.
    public let options: RegistryOptions
    /// The display name.
    public let name: String
    let core: RegistryCore

    /// Creates an empty registry, to fill with ``register(_:in:)`` (flags known only at run time, e.g. from a
    /// remote service).
    /// - Parameters:
    ///   - store: where overrides are persisted (default: in memory, lost at exit).
    ///   - options: display name (default "Feature Registry"), store watching, debug assertions.
    public convenience init(
        store: any OverrideStore = InMemoryOverrideStore(), options: RegistryOptions = RegistryOptions()
    ) {
        self.init(name: options.name ?? "Feature Registry", store: store, options: options)
        finishSetUp()
    }

    /// Creates an empty registry; the caller discovers or registers its members, then calls ``finishSetUp()``.
    init(name: String, store: any OverrideStore, options: RegistryOptions) {
        self.store = store
        self.fileStore = store as? FileOverrideStore
        self.options = options
        self.name = name
        self.core = RegistryCore(options: options)
    }

    deinit {
        core.stopWatching()
    }

    func finishSetUp() {
        core.publishMembers()
        mutate { $0.reload(origin: nil) }
        applyLaunchOverrides(to: allFeatures, reportingUnknownKeys: true)
        for feature in allFeatures { feature.recordLaunchValue() }
        let problems = self.problems
        if options.assertOnProblems && !problems.isEmpty {
            assertionFailure(RegistryError.problems(problems).description)
        }
        startWatchingStore()
        announceObservedChanges()
        announceBesideStore()
    }

    // MARK: Reading

    /// Every flag, flattened, in declaration order (runtime registrations last). Lock-free.
    public var allFeatures: [AnyFeature] { core.keyTable.members.features }

    /// The on/off flag with this store key, or `nil` (also when the key names a typed setting).
    /// - Parameter key: the full key.
    public func flag(forKey key: String) -> AnyFlag? {
        core.keyTable.lookup(key) as? AnyFlag
    }

    /// The flag or setting with this store key, or `nil`.
    /// - Parameter key: the full key, e.g. `list.infiniteScroll`.
    ///
    /// Lock-free: an atomic load and a hash-table lookup. Still, keep a reference to the flag on hot paths.
    public func feature(forKey key: String) -> AnyFeature? {
        core.keyTable.lookup(key)
    }

    /// The top-level groups, in declaration order. Lock-free.
    public var groups: [RegistryGroup] { core.keyTable.members.groups }

    /// The group with this key path, or `nil`.
    /// - Parameter keyPath: the dot-joined keys of the group and its ancestors, e.g. `diagnostics.network`.
    public func group(forKey keyPath: String) -> RegistryGroup? {
        core.state.withLock { $0.groupsByPath[keyPath] }
    }

    /// The flags declared directly on the registry (not in a group), in declaration order. Lock-free.
    public var rootFeatures: [AnyFeature] { core.keyTable.members.rootFeatures }

    /// The flags that currently have an override.
    public var overriddenFeatures: [AnyFeature] { allFeatures.filter(\.isOverridden) }

    /// The flags that require a restart and whose effective value differs from the one at launch.
    public var featuresRequiringRestart: [AnyFeature] { allFeatures.filter(\.isPendingRestart) }

    /// Launch overrides (``LaunchOverrides``) that were refused: an unreadable `FLAGSTAFF_OVERRIDES`, a value of
    /// the wrong type for its member, a key this registry has no member for. Each is also printed once per
    /// process on standard error (except unknown keys: another registry of the app may have them).
    public var launchOverrideProblems: [String] { core.state.withLock { $0.launchOverrideProblems } }

    /// Declaration problems found during discovery (duplicate keys, with both declarations).
    public var problems: [RegistryProblem] { core.state.withLock { $0.problems } }

    /// The last error from the override store (unreadable or corrupt file, failed write), or `nil`.
    ///
    /// While the store cannot be read, flags read their defaults; a corrupt file is never overwritten. A write of
    /// ``AnyFlag/override`` or ``Setting/overriddenValue``, which happens after the setter has returned
    /// (``flush()``), reports its failure here. Reading it inside `withObservationTracking` (or a SwiftUI view's
    /// body) is tracked: the tracker is told when it changes.
    public var storeError: (any Error)? {
        core.registrar.access(self, keyPath: \.storeError)
        return core.state.withLock { $0.storeError }
    }

    /// Every override in force in the store, including keys this registry does not declare (flags as
    /// `"on"`/`"off"`); overrides that have expired are left out (see ``expiredOverrides``).
    package var storedOverrides: [String: OverrideValue] { core.state.withLock { $0.storedOverrides } }

    /// Finds flags by key, label, group path and description, case- and diacritic-insensitively, best match
    /// first (exact > prefix > word start > substring > subsequence; then label > key > group > description;
    /// then earlier position; then declaration order).
    ///
    /// The first search builds an index of the flags' folded texts (rebuilt after runtime registrations).
    /// Searches scan it with a per-field byte-set filter; a query that extends a recent one (typing) only
    /// rescans that one's matches, and a recent query asked again (erasing) is answered from memory. An empty query returns every flag in scope in declaration order.
    /// - Parameters:
    ///   - query: the text typed by the user.
    ///   - scope: which flags to consider (by current value or override).
    /// - Returns: the matching flags, best first, with the matched ranges for highlighting; a lazy collection,
    ///   so a query matching every flag costs no more to return than a selective one.
    public func search(_ query: String, scope: SearchScope = .all) -> SearchResults {
        core.search.search(
            query, scope: scope, generation: core.generation.load(ordering: .relaxed), features: allMembersLocked)
    }

    /// Drops the remembered recent searches, so the next search scans from scratch (for benchmarks).
    package func forgetRecentSearches() {
        core.search.forgetRecentSearches()
    }

    /// The search index, built if there is none.
    func searchIndex() -> SearchIndex {
        core.search.index(features: allMembersLocked)
    }

    /// Every member, read under the state's lock (registered ones not yet published included): what the search
    /// index is built from.
    private func allMembersLocked() -> [AnyFeature] {
        core.state.withLock { $0.features }
    }

    /// Throws if the registry has declaration problems; the CLI and the console call this before opening.
    /// - Throws: `RegistryError.problems` listing every problem.
    public func validate() throws {
        let problems = self.problems
        if !problems.isEmpty { throw RegistryError.problems(problems) }
    }

    /// Forgets the launch values and records the current values instead, so restart tracking starts afresh
    /// (e.g. after the app has restarted its affected subsystems).
    public func recordLaunchValues() {
        for feature in allFeatures { feature.recordLaunchValue() }
    }

    // MARK: Remote sources

    /// The remote sources attached to this registry.
    public var remoteSources: [any RemoteSource] { core.state.withLock { $0.remoteSources } }

    /// Attaches a remote source so the console and CLI can show its status and refresh it.
    /// - Parameter source: the source.
    public func attach(_ source: any RemoteSource) {
        core.state.withLock { state in
            if !state.remoteSources.contains(where: { $0 === source }) { state.remoteSources.append(source) }
        }
    }

    /// Tells subscribers that remote values of these flags changed (called by remote sources after
    /// activation).
    /// - Parameter keys: the keys whose remote value changed.
    public func notifyRemoteChange(keys: Set<String>) {
        guard !keys.isEmpty else { return }
        core.generation.add(1, ordering: .releasing)
        for key in keys { feature(forKey: key)?.announceObservedChange() }
        notify(FeatureChange(keys: keys, origin: .remote))
    }
}
