import Flagstaff
import FlagstaffServerBodies
import Foundation
import NIOCore

/// Counts who talks to the server: one entry per client name (requests, register and metrics calls, last seen)
/// and the per-flag evaluation counts that metrics calls report. Thread-safe.
///
/// Bounded, since names come from clients: at most ``maximumClients`` names are kept (a new one beyond that
/// replaces the one seen longest ago), and the server counts evaluations only of flags it serves.
package final class ClientTracker: Sendable {
    /// The most client names kept.
    package static let maximumClients = 1_000

    private struct State {
        var clients: [String: ServedClient] = [:]
        var evaluations: [String: EvaluationCount] = [:]
    }

    /// What kind of request a client made.
    package enum Call: Sendable {
        /// A fetch or an evaluation.
        case request
        /// `POST …/client/register`.
        case register
        /// `POST …/client/metrics`.
        case metrics
    }

    private let state = AnnotatedMutex(State())
    private let now: @Sendable () -> Date
    private let onFirstSeen: @Sendable (ServedClient) -> Void

    /// Creates a tracker.
    /// - Parameters:
    ///   - now: the wall clock (`Date.init` by default; tests pass a fixed one).
    ///   - onFirstSeen: called once per new client name, outside the lock (the headless server logs a line).
    package init(
        now: @escaping @Sendable () -> Date = { Date() },
        onFirstSeen: @escaping @Sendable (ServedClient) -> Void = { _ in }
    ) {
        self.now = now
        self.onFirstSeen = onFirstSeen
    }

    /// The clients seen, most recently seen first.
    package var clients: [ServedClient] {
        state.withLock { $0.clients.values.sorted { ($0.lastSeen, $1.name) > ($1.lastSeen, $0.name) } }
    }

    /// The evaluation count reported for a flag (zero when none was).
    package func evaluations(forKey key: String) -> EvaluationCount {
        state.withLock { $0.evaluations[key] ?? EvaluationCount() }
    }

    /// Every flag's reported evaluation count.
    package var allEvaluations: [String: EvaluationCount] { state.withLock { $0.evaluations } }

    /// Notes a call from a client.
    /// - Parameters:
    ///   - name: the client's name (see ``ServedClient/name``).
    ///   - sdk: the SDK, if known.
    ///   - call: what it did.
    ///   - address: where the call came from, if known.
    ///   - servedETag: the ETag of the values a fetch was answered with (what the client has now).
    package func record(
        name: String, sdk: String?, call: Call, address: SocketAddress? = nil, servedETag: String? = nil
    ) {
        let time = now()
        let first: ServedClient? = state.withLock { state in
            var client =
                state.clients[name]
                ?? ServedClient(
                    name: name, sdk: sdk, firstSeen: time, lastSeen: time, requests: 0, registrations: 0,
                    metricsReports: 0)
            let isNew = state.clients[name] == nil
            client.lastSeen = time
            client.requests += 1
            if let sdk { client.sdk = sdk }
            if let address { client.address = address }
            if let servedETag { client.servedETag = servedETag }
            switch call {
            case .request: break
            case .register: client.registrations += 1
            case .metrics: client.metricsReports += 1
            }
            if isNew, state.clients.count >= Self.maximumClients,
                let oldest = state.clients.values.min(by: { ($0.lastSeen, $0.name) < ($1.lastSeen, $1.name) })
            {
                state.clients[oldest.name] = nil
            }
            state.clients[name] = client
            return isNew ? client : nil
        }
        if let first { onFirstSeen(first) }
    }

    /// Adds the counts of a metrics report.
    /// - Parameter counts: per flag key, yes and no counts.
    package func add(_ counts: [String: EvaluationCount]) {
        guard !counts.isEmpty else { return }
        state.withLock { state in
            for (key, count) in counts {
                var total = state.evaluations[key] ?? EvaluationCount()
                total.add(count)
                state.evaluations[key] = total
            }
        }
    }
}
