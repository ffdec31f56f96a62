import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation

@testable import FlagstaffUnleash

/// A value shared between a test and handlers running on other threads (an `AnnotatedMutex`, which the thread
/// sanitizer sees).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: AnnotatedMutex<Value>

    init(_ value: Value) { mutex = AnnotatedMutex(value) }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { value in body(&value) }
    }

    var current: Value { withLock { $0 } }
}

/// Records every event a client sends.
final class EventRecorder: Sendable {
    let events = Locked<[UnleashClientEvent]>([])
    private let subscription = Locked<UnleashEventSubscription?>(nil)

    init(_ client: UnleashClient) {
        let events = self.events
        subscription.withLock { $0 = client.onEvent { event in events.withLock { $0.append(event) } } }
    }

    init(server client: UnleashServerClient) {
        let events = self.events
        subscription.withLock { $0 = client.onEvent { event in events.withLock { $0.append(event) } } }
    }

    var all: [UnleashClientEvent] { events.current }

    var errors: [UnleashClientFailure] {
        all.compactMap { if case .error(let failure) = $0 { failure } else { nil } }
    }

    var readyCount: Int { all.filter { $0 == .ready }.count }

    /// The events other than impressions, errors and sent metrics, in order (`ready`, `synchronized`, `update`).
    var lifecycle: [UnleashClientEvent] {
        all.filter { event in
            switch event {
            case .ready, .synchronized, .update: true
            default: false
            }
        }
    }

    var updates: [[String]] {
        all.compactMap { if case .update(let names) = $0 { names } else { nil } }
    }

    var sent: [UnleashMetricsBucket] {
        all.compactMap { if case .sent(let bucket) = $0 { bucket } else { nil } }
    }

    var impressions: [UnleashImpression] {
        all.compactMap { if case .impression(let impression) = $0 { impression } else { nil } }
    }
}

extension ManualClock {
    /// Waits until the earliest sleeper on the clock is due at `offset` from the clock's start: how a test knows
    /// that a client's loop has finished its work and is waiting again (a request's deadline, due earlier while it
    /// is in flight, hides the loop's until the request ends).
    func waitForDeadline(at offset: Duration) async -> Bool {
        await eventually { self.nextDeadline == Instant(offset: offset) }
    }
}

/// Frontend API bodies for tests.
enum FrontendBody {
    static func toggle(
        _ name: String, enabled: Bool = true, variant: [String: Any]? = nil,
        impressionData: Bool = false
    ) -> [String: Any] {
        var toggle: [String: Any] = ["name": name, "enabled": enabled, "impressionData": impressionData]
        if let variant { toggle["variant"] = variant }
        return toggle
    }

    static func json(_ toggles: [[String: Any]]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["toggles": toggles], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func response(_ toggles: [[String: Any]], eTag: String? = nil) -> LoopbackResponse {
        var headers = LoopbackHeaders()
        if let eTag { headers["ETag"] = eTag }
        return .json(json(toggles), headers: headers)
    }
}

/// A fresh directory under the temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "unleash-client-\(UUID().uuidString)", isDirectory: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

extension UnleashClient {
    /// A client for tests: metrics off unless asked for, and by default a manual clock that nobody advances, so
    /// that no poll, periodic post or deadline comes from real time passing (the transport still ends a request
    /// after `timeout` of real time). Tests that drive time pass their own `ManualClock`; real-time tests pass
    /// `ContinuousClock()`.
    static func testing(
        url: URL, refreshInterval: Duration = .seconds(60), metricsInterval: Duration = .seconds(60),
        disableMetrics: Bool = true, context: UnleashContext = UnleashContext(),
        customHeaders: [String: String] = [:], customHeadersProvider: (@Sendable () -> [String: String])? = nil,
        bootstrap: UnleashBootstrap? = nil, bootstrapOverride: Bool = true, timeout: Duration = .seconds(5),
        storage: URL? = nil, maximumResponseBytes: Int = 1 << 20, appName: String = "moments",
        clock: any Clock<Duration> = ManualClock()
    ) -> UnleashClient {
        // With a manual clock, timestamps move with it.
        var now: @Sendable () -> Date = { Date() }
        if let manual = clock as? ManualClock { now = { manual.date } }
        return UnleashClient(
            url: url, clientKey: "client-key-123", appName: appName, environment: "production",
            refreshInterval: refreshInterval, metricsInterval: metricsInterval, disableMetrics: disableMetrics,
            context: context, customHeaders: customHeaders, customHeadersProvider: customHeadersProvider,
            bootstrap: bootstrap,
            options: UnleashClientOptions(
                timeout: timeout, maximumResponseBytes: maximumResponseBytes,
                maximumBackoffMultiplier: 4, storageDirectory: storage, bootstrapOverride: bootstrapOverride,
                now: now,
                clock: clock))
    }
}
