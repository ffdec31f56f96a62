import Flagstaff
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An OpenFeature Remote Evaluation Protocol (OFREP) client for the static-context paradigm: it evaluates every
/// flag at once for one context (`POST /ofrep/v1/evaluate/flags`) and keeps the answer, following the server's
/// changes as the protocol's ADR-0008 and ADR-0010 say:
///
/// - each request after the first sends the last `ETag` as `If-None-Match`; a `304` changes nothing;
/// - when the answer offers `eventStreams` of type `sse`, it connects to each and re-fetches on every
///   `refetchEvaluation` message (passing its `etag` and `lastModified` as `flagConfigEtag` and
///   `flagConfigLastModified`); messages that arrive while a fetch is under way make one more fetch, not one each;
/// - a stream that fails or ends is reconnected after a pause that doubles from
///   ``OFREPOptions/minimumReconnectDelay`` to ``OFREPOptions/maximumReconnectDelay`` (±50 % jitter, at least the
///   server's `retry:`), sending `Last-Event-ID`, and every reconnection is followed by a fetch;
/// - a timer polls (``OFREPOptions/pollInterval``) only when configured and while no stream is offered;
/// - `401`/`403` stop it (the credentials are wrong: asking again would not help); `429` waits for `Retry-After`.
///
/// Reads (``flags``, ``value(forKey:as:)``) take a lock and do no I/O. ``link(to:)`` feeds a registry.
///
/// Every wait runs on ``OFREPOptions/clock``. The provider runs from ``start()`` until ``stop()``.
public final class OFREPProvider: RemoteSource, Sendable {
    /// Why the next bulk evaluation is made: it decides the conditional headers and the query.
    enum Trigger: Sendable, Equatable {
        /// The first fetch after ``start()``: unconditional.
        case start
        /// A timer poll, a reconnected stream, ``refresh()``, a retry.
        case revalidate
        /// A `refetchEvaluation` message.
        case event(OFREPRefetch)
    }

    /// What one bulk evaluation gave.
    enum FetchOutcome: Sendable, Equatable {
        case answered(streams: [URL])
        case unchanged
        case failed
        case retryAfter(Duration)
        case fatal
    }

    struct State {
        var flags: [String: OFREPFlag] = [:]
        var etag: String?
        var lastFetch: Date?
        var lastError: String?
        var answered = false
        var openStreams = 0
        var fetches = 0
        var listeners: [UInt64: @Sendable (Set<String>) -> Void] = [:]
        var nextListener: UInt64 = 0
        var run: Task<Void, Never>?
    }

    /// `OFREP`.
    public let name = "OFREP"
    /// The options it was created with.
    public let options: OFREPOptions
    let transport: RemoteHTTPTransport
    let streamTransport: RemoteHTTPStreamTransport
    let state = AnnotatedMutex(State())

    /// Creates a provider; nothing is requested before ``start()``.
    /// - Parameter options: The server, the context and the timings.
    public init(options: OFREPOptions) {
        self.options = options
        transport = RemoteHTTPTransport(label: "flagstaff.ofrep", maximumResponseBytes: options.maximumResponseBytes)
        streamTransport = RemoteHTTPStreamTransport(label: "flagstaff.ofrep")
    }

    deinit {
        state.withLock { $0.run }?.cancel()
    }

    // MARK: Reading

    /// The last evaluation of every flag, by key (empty before the first answer).
    public var flags: [String: OFREPFlag] { state.withLock { $0.flags } }

    /// A flag's value decoded as a registry value type (`Bool`, `Int`, `Double`, `String`, enums, `Codable`
    /// types), or `nil` when the server has no value for it or the value is not of that type.
    /// - Parameters:
    ///   - key: The flag key.
    ///   - type: The type, e.g. `Int.self`.
    public func value<Value: SettingValue>(forKey key: String, as type: Value.Type) -> Value? {
        guard let value = state.withLock({ $0.flags[key]?.value }) else { return nil }
        return try? Value.decode(stored: value)
    }

    /// The server's `ETag` of the values held, if it sent one.
    public var etag: String? { state.withLock { $0.etag } }

    /// Why the last request failed, or `nil` after a success.
    public var lastError: String? { state.withLock { $0.lastError } }

    /// How many event streams are connected now.
    public var connectedStreamCount: Int { state.withLock { $0.openStreams } }

    /// How many bulk evaluations were requested (for tests and diagnostics).
    public var fetchCount: Int { state.withLock { $0.fetches } }

    /// The status the console and the CLI show.
    public var status: RemoteSourceStatus {
        state.withLock { state in
            let condition: RemoteSourceStatus.State =
                if let error = state.lastError {
                    .failed(error)
                } else if state.lastFetch == nil {
                    .neverFetched
                } else {
                    .ok
                }
            return RemoteSourceStatus(lastFetch: state.lastFetch, state: condition)
        }
    }

    // MARK: Changes

    /// Calls `handler` with the keys whose evaluation changed, after each answer that changed any (on the task
    /// that received it, outside any lock).
    /// - Returns: The subscription; the handler is called until it is cancelled or released.
    public func onChange(_ handler: @escaping @Sendable (Set<String>) -> Void) -> ChangeSubscription {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = handler
            return state.nextListener
        }
        return ChangeSubscription { [weak self] in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
    }

    // MARK: Running

    /// Starts following the server: a first unconditional evaluation, then its event streams (or the poll).
    /// Does nothing while already running.
    public func start() {
        state.withLock { state in
            guard state.run == nil else { return }
            state.run = Task { await self.run() }
        }
    }

    /// Stops following the server: closes the event streams and stops polling. The values are kept; a later
    /// ``start()`` evaluates again, unconditionally (as after a long inactivity, ADR-0008).
    public func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            defer { state.run = nil }
            return state.run
        }
        task?.cancel()
    }

    /// Evaluates now (with `If-None-Match`), outside the streams' rhythm: what the console's `Ctrl-R` calls.
    public func refresh() async {
        _ = await fetch(.revalidate)
    }
}
