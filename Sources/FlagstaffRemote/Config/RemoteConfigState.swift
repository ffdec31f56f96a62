import Flagstaff
import Foundation

/// The mutable state of a ``RemoteConfig``, always accessed under its mutex.
struct RemoteConfigState: Sendable {
    var settings: RemoteConfigSettings
    var fetched: RemoteConfigStorage.StoredConfig?
    private(set) var active: RemoteConfigStorage.StoredConfig?
    /// The values reads see; every change is published to `published` while the state's lock is held, so
    /// publishes happen in order.
    private(set) var values: RemoteConfigValues
    let published: PublishedReferenceBox<RemoteConfigValues>
    var metadata = RemoteConfigMetadata()
    var lastError: RemoteConfigError?
    var problems: [RemoteConfigError] = []
    var inFlight: Task<RemoteConfigFetchResult, Never>?
    /// How many `fetch` calls joined a request already in flight (for tests of coalescing).
    var joinedFetches = 0
    /// Update listeners: each gets an update, or an error from the realtime stream.
    var updateListeners: [UInt64: @Sendable (RemoteConfigUpdate?, RemoteConfigError?) -> Void] = [:]
    var updateContinuations: [UInt64: AsyncStream<RemoteConfigUpdate>.Continuation] = [:]
    var activationListeners: [UInt64: @Sendable (Set<String>) -> Void] = [:]
    var nextListenerID: UInt64 = 0
    var autoRefresh: Task<Void, Never>?
    /// The realtime stream loop, running while there are update listeners and the provider streams.
    var realtime: Task<Void, Never>?
    /// Counts started stream loops, so a loop that ends on its own forgets only itself.
    var realtimeGeneration: UInt64 = 0
    var attachedRegistries: Set<ObjectIdentifier> = []

    init(settings: RemoteConfigSettings) {
        self.settings = settings
        values = RemoteConfigValues()
        published = PublishedReferenceBox(values)
    }

    /// Replaces the active config and publishes its values.
    mutating func setActive(_ config: RemoteConfigStorage.StoredConfig?) {
        active = config
        let activeValues = (config?.entries ?? [:]).mapValues { RemoteConfigValue(string: $0, source: .remote) }
        values = RemoteConfigValues(active: activeValues, defaults: values.defaults)
        published.publish(values)
    }

    /// Replaces the in-app defaults and publishes them.
    mutating func setDefaults(_ defaults: [String: RemoteConfigValue]) {
        values = RemoteConfigValues(active: values.active, defaults: defaults)
        published.publish(values)
    }

    mutating func makeListenerID() -> UInt64 {
        nextListenerID += 1
        return nextListenerID
    }

    /// Keys added, removed or changed between the fetched and the active config.
    var pendingKeys: Set<String> {
        guard let fetched else { return [] }
        return Self.changedKeys(from: active?.entries ?? [:], to: fetched.entries)
    }

    static func changedKeys(from old: [String: String], to new: [String: String]) -> Set<String> {
        var keys = Set<String>()
        for (key, value) in new where old[key] != value { keys.insert(key) }
        for key in old.keys where new[key] == nil { keys.insert(key) }
        return keys
    }

    mutating func recordProblem(_ problem: RemoteConfigError) {
        problems.append(problem)
        if problems.count > 20 { problems.removeFirst(problems.count - 20) }
    }

    /// Cancels background work and finishes streams; called when the config is deallocated.
    mutating func shutDown() {
        autoRefresh?.cancel()
        autoRefresh = nil
        realtime?.cancel()
        realtime = nil
        for continuation in updateContinuations.values { continuation.finish() }
        updateContinuations.removeAll()
        updateListeners.removeAll()
        activationListeners.removeAll()
    }
}
