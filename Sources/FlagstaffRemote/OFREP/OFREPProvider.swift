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
/// - when the answer offers `eventStreams` of type `sse`, it connects to the first (one tells of every change) and
///   re-fetches on every `refetchEvaluation` message (passing its `etag` and `lastModified` as `flagConfigEtag` and
///   `flagConfigLastModified`); messages that arrive while a fetch is under way make one more fetch, not one each;
///   a stream on another origin than ``OFREPOptions/baseURL`` gets none of ``OFREPOptions/headers``;
/// - a stream that fails or ends is reconnected after a pause that doubles from
///   ``OFREPOptions/minimumReconnectDelay`` to ``OFREPOptions/maximumReconnectDelay`` (±50 % jitter, at least the
///   server's `retry:`), sending `Last-Event-ID`, and every reconnection is followed by a fetch;
/// - a timer polls (``OFREPOptions/pollInterval``) only when configured and while no stream is offered;
/// - while the app is inactive (``applicationBecameInactive()``) for longer than the inactivity delay, the streams
///   are closed; when it is active again they reopen after an unconditional evaluation
///   (``applicationBecameActive()``);
/// - bulk evaluations never overlap: each answer is applied before the next request is sent;
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
        case answered
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
        /// Why the last stream connection was closed for what the server sent (too long a line, too fast), until a
        /// stream opens again: a fetch's success does not hide it.
        var streamError: String?
        var answered = false
        var openStreams = 0
        var fetches = 0
        var refetchMessages = 0
        var listeners: [UInt64: @Sendable (Set<String>) -> Void] = [:]
        var nextListener: UInt64 = 0
        var run: Task<Void, Never>?
        /// Where the running loop takes its triggers (a foreground revalidation is sent there).
        var triggers: AsyncStream<Trigger>.Continuation?
        /// The event streams the last answer offered, and the `inactivityDelaySec` it gave.
        var offeredStreams: [URL] = []
        var serverInactivityDelay: Duration?
        /// The app's activity (``applicationBecameInactive()``), the timer that closes the streams, and whether it
        /// did (then ``applicationBecameActive()`` starts again).
        var active = true
        var inactivity: UInt64 = 0
        var inactivityTimer: Task<Void, Never>?
        var closedForInactivity = false
        /// The linked registry's manifest for the server (``announce(_:)``), whether it is due, and what the last
        /// attempt did.
        var announcementBody: (@Sendable () -> Data?)?
        var announcementDue = false
        var announcement: AnnouncementState = .none
    }

    /// `OFREP`.
    public let name = "OFREP"
    /// The options it was created with.
    public let options: OFREPOptions
    let transport: RemoteHTTPTransport
    let state = AnnotatedMutex(State())
    /// One bulk evaluation at a time, in the order asked: an answer read earlier can never replace a later one,
    /// however the tasks are scheduled (the loop's fetches, ``refresh()``, an old run's last fetch).
    let fetchGate = AsyncSerialGate()

    /// Creates a provider; nothing is requested before ``start()``.
    /// - Parameter options: The server, the context and the timings.
    public init(options: OFREPOptions) {
        self.options = options
        transport = RemoteHTTPTransport(label: "flagstaff.ofrep", maximumResponseBytes: options.maximumResponseBytes)
    }

    deinit {
        let (run, timer) = state.withLock { ($0.run, $0.inactivityTimer) }
        run?.cancel()
        timer?.cancel()
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

    /// Why the last request failed, or `nil` after a success; else why the event stream was last closed for what
    /// its server sent, until it opens again.
    public var lastError: String? { state.withLock { $0.lastError ?? $0.streamError } }

    /// How many event streams are connected now.
    public var connectedStreamCount: Int { state.withLock { $0.openStreams } }

    /// How many bulk evaluations were requested (for tests and diagnostics).
    public var fetchCount: Int { state.withLock { $0.fetches } }

    /// How many `refetchEvaluation` messages the streams delivered (for tests and diagnostics).
    package var refetchMessageCount: Int { state.withLock { $0.refetchMessages } }

    /// The status the console and the CLI show.
    public var status: RemoteSourceStatus {
        state.withLock { state in
            let condition: RemoteSourceStatus.State =
                if let error = state.lastError ?? state.streamError {
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
            state.closedForInactivity = false
            launch(&state)
            if !state.active { armInactivityTimer(&state) }
        }
    }

    /// Stops following the server: closes the event streams and stops polling. The values are kept; a later
    /// ``start()`` evaluates again, unconditionally.
    public func stop() {
        let (run, timer) = state.withLock { state -> (Task<Void, Never>?, Task<Void, Never>?) in
            defer {
                state.run = nil
                state.triggers = nil
                state.inactivityTimer = nil
                state.closedForInactivity = false
            }
            return (state.run, state.inactivityTimer)
        }
        run?.cancel()
        timer?.cancel()
    }

    /// Starts the loop, with the first (unconditional) fetch waiting in its triggers.
    func launch(_ state: inout State) {
        // Newest only: messages that come while a fetch is under way make one more fetch, not one each.
        let (triggers, continuation) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(.start)
        state.triggers = continuation
        // A new run may meet a new server: what a link announces is sent again after its first answer.
        state.announcementMayBeForgotten()
        state.run = Task { await self.run(triggers: triggers, continuation: continuation) }
    }

    /// Evaluates now (with `If-None-Match`), outside the streams' rhythm: what the console's `Ctrl-R` calls.
    public func refresh() async {
        _ = await fetch(.revalidate)
    }

    /// The app went to the background (or its window was hidden): after the inactivity delay
    /// (``OFREPOptions/inactivityDelay``, else the server's `inactivityDelaySec`, else 120 s, timed on
    /// ``OFREPOptions/clock``) the event streams are closed, as ADR-0008 asks. A shorter inactivity changes nothing.
    /// Timer polling (no stream offered) goes on. Call it from the app's scene phase or lifecycle notification; it
    /// returns at once.
    public func applicationBecameInactive() {
        state.withLock { state in
            guard state.active else { return }
            state.active = false
            armInactivityTimer(&state)
        }
    }

    /// The app is active again: when the streams were closed for inactivity, the provider evaluates again
    /// unconditionally (no `If-None-Match`, as ADR-0008 asks after an unknown time away) and reopens them;
    /// when no stream is open (the server offers none), it revalidates with `If-None-Match` (ADR-0010's
    /// foreground refresh); an open stream needs nothing. Returns at once.
    public func applicationBecameActive() {
        let (timer, revalidate) = state.withLock {
            state -> (Task<Void, Never>?, AsyncStream<Trigger>.Continuation?) in
            guard !state.active else { return (nil, nil) }
            state.active = true
            state.inactivity &+= 1
            defer { state.inactivityTimer = nil }
            if state.closedForInactivity {
                state.closedForInactivity = false
                launch(&state)
                return (state.inactivityTimer, nil)
            }
            return (state.inactivityTimer, state.run != nil && state.openStreams == 0 ? state.triggers : nil)
        }
        timer?.cancel()
        revalidate?.yield(.revalidate)
    }

    /// Starts the timer that closes the streams unless the app is active again first.
    private func armInactivityTimer(_ state: inout State) {
        state.inactivityTimer?.cancel()
        state.inactivityTimer = nil
        guard state.run != nil else { return }
        state.inactivity &+= 1
        let (inactivity, clock) = (state.inactivity, options.clock)
        let delay = options.inactivityDelay ?? state.serverInactivityDelay ?? .seconds(120)
        state.inactivityTimer = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            self?.closeStreamsAfterInactivity(inactivity)
        }
    }

    /// Stops the loop (its streams close) when the app is still inactive and the server offers streams.
    private func closeStreamsAfterInactivity(_ inactivity: UInt64) {
        let run = state.withLock { state -> Task<Void, Never>? in
            guard !state.active, state.inactivity == inactivity, !state.offeredStreams.isEmpty,
                let run = state.run
            else {
                return nil
            }
            state.run = nil
            state.triggers = nil
            state.inactivityTimer = nil
            state.closedForInactivity = true
            return run
        }
        run?.cancel()
    }
}
