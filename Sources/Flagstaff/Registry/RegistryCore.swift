import Foundation
import Observation
import Synchronization

/// The mutable state of a registry, behind locks. Kept in its own object so that reflection over a registry
/// never has to look at it.
final class RegistryCore: Sendable {
    let state = AnnotatedMutex(RegistryState())
    /// The registry's wall clock, never going backwards: decides which stored overrides have expired.
    let wallClock: MonotonicWallClock
    /// The clock the expiry timer sleeps on.
    let clock: any Clock<Duration>
    /// Wakes at the next expiry of an override in force.
    let expiryTimer: ExpiryTimer

    init(options: RegistryOptions) {
        wallClock = MonotonicWallClock(options.wallClock)
        clock = options.clock
        expiryTimer = ExpiryTimer(clock: options.clock, wallClock: wallClock)
    }
    /// The lock-free key → flag table behind `feature(forKey:)`, with the member lists behind `allFeatures`,
    /// `rootFeatures` and `groups`.
    let keyTable = PublishedKeyTable()

    /// Publishes the current lookup table and member lists (after discovery, a manifest load, a registration):
    /// a new table of the last one's entries and the flags registered since. Built and published under the
    /// state's lock, so two registrations can never publish their tables out of order.
    func publishMembers() {
        state.withLock { state in
            let table = KeyTable(
                previous: state.published, adding: state.unpublished,
                members: RegistryMembers(
                    features: state.features, rootFeatures: state.rootFeatures, groups: state.groups))
            state.published = table
            state.unpublished = [:]
            keyTable.publish(table)
        }
    }
    /// Incremented on every change of any flag's override or remote value (used to reuse search results).
    let generation = Atomic<UInt64>(0)
    /// Incremented each time the store is read again (``RegistryMutation/reload(origin:)``): whatever else another
    /// process keeps beside the store (a bisect session) may have changed only then.
    let reloads = Atomic<UInt64>(0)
    /// Members whose override changed under the registry's locks and that have been read (see
    /// ``AnyFeature/queueObservedChange()``): announced to the Observation framework once the locks are released.
    let observedChanges = AnnotatedMutex<[AnyFeature]>([])
    /// Serialises store read-modify-write + apply, so snapshots are applied in the order they were written.
    let writes = AnnotatedMutex(())
    /// Where the app's writes (``PendingAppWrites``) are written to the store, in order, off the thread that made them.
    let appWriteQueue = DispatchQueue(label: "Flagstaff.AnyFeatureRegistry.appWrites", qos: .utility)
    /// Tells the Observation framework about ``AnyFeatureRegistry/storeError``.
    let registrar = ObservationRegistrar()
    /// The search index and recent searches.
    let search = SearchCache()
    private let watcher = AnnotatedMutex<Task<Void, Never>?>(nil)

    func setWatcher(_ task: Task<Void, Never>) {
        watcher.withLock { $0 = task }
    }

    /// Whether a store watcher task is running (for tests).
    var watcherIsRunning: Bool { watcher.withLock { $0 != nil } }

    func stopWatching() {
        watcher.withLock { task in
            task?.cancel()
            task = nil
        }
        expiryTimer.stop()
    }
}

struct RegistryState: @unchecked Sendable {
    // @unchecked: lives only inside RegistryCore's AnnotatedMutex.
    var features: [AnyFeature] = []
    /// The lookup table last published (every flag registered before it).
    var published: KeyTable?
    /// Flags registered since the last publication, by key.
    var unpublished: [String: AnyFeature] = [:]
    var instances: [ObjectIdentifier: String] = [:]
    var groups: [RegistryGroup] = []
    /// Every group by its dot-joined key path.
    var groupsByPath: [String: RegistryGroup] = [:]
    var rootFeatures: [AnyFeature] = []
    var problems: [RegistryProblem] = []
    var storeError: (any Error)?
    /// Whether ``storeError`` changed since the Observation framework was last told.
    var storeErrorChanged = false
    /// The overrides in force: the store's, less the expired ones.
    var storedOverrides: [String: OverrideValue] = [:]
    /// The store's contents as last read or written, expired overrides included, with the app's pending writes on
    /// top (``appWrites``): what the members hold.
    var storeSnapshot = StoreSnapshot()
    /// The store's contents as last read or written (``storeSnapshot`` without the app's pending writes).
    var storeContents = StoreSnapshot()
    /// The app's writes in force but not yet in the store.
    var appWrites = PendingAppWrites()
    /// Why stored entries were refused by the member under their key.
    var valueProblems: [String: String] = [:]
    var lastRefusedChange: RefusedChange?
    var launchOverrideProblems: [String] = []
    var storeSignature: StoreSignature?
    /// The store's revision of ``storeSnapshot`` when the registry's own write gave it
    /// (``RevisionedOverrideStore``); `nil` after any other snapshot.
    var storeRevision: UInt64?
    var subscribers: [UInt64: @Sendable (FeatureChange) -> Void] = [:]
    var nextSubscriberID: UInt64 = 0
    var remoteSources: [any RemoteSource] = []

    /// The flag with this key, published or not (the first one registered, for a duplicate key).
    func member(forKey key: String) -> AnyFeature? {
        if !unpublished.isEmpty, let feature = unpublished[key] { return feature }
        return published?.lookup(key)
    }
}
