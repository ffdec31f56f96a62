import Flagstaff
import Foundation

/// The open event streams: counted against a limit and listed with what each was last sent. Thread-safe. (A client
/// that stops reading is dropped like any connection: ``WriteTimeoutHandler``.)
package final class StreamConnections: Sendable {
    private struct State {
        var entries: [UInt64: StreamClient] = [:]
        var nextID: UInt64 = 0
        var refused = 0
    }

    /// The most streams open at once.
    package let limit: Int
    private let state = AnnotatedMutex(State())
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void

    /// Creates the list.
    /// - Parameters:
    ///   - limit: the most streams open at once.
    ///   - now: the wall clock.
    ///   - log: where connects and disconnects are said (the server's log, on standard error).
    package init(
        limit: Int, now: @escaping @Sendable () -> Date = { Date() },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.limit = limit
        self.now = now
        self.log = log
    }

    /// The streams open now, the longest connected first.
    package var clients: [StreamClient] {
        state.withLock { Array($0.entries.values) }.sorted { $0.id < $1.id }
    }

    /// How many streams are open.
    package var count: Int { state.withLock { $0.entries.count } }

    /// How many streams were refused for the limit since the server started.
    package var refusedCount: Int { state.withLock { $0.refused } }

    /// Counts a new stream: its id, or `nil` when ``limit`` streams are open already.
    func open(
        name: String, sdk: String?, address: String?, kind: StreamClient.Kind
    ) -> UInt64? {
        let time = now()
        let id: UInt64? = state.withLock { state in
            guard state.entries.count < limit else {
                state.refused += 1
                return nil
            }
            state.nextID += 1
            state.entries[state.nextID] = StreamClient(
                id: state.nextID, name: name, sdk: sdk, address: address, kind: kind, connectedAt: time,
                lastSeen: time, revision: nil)
            return state.nextID
        }
        if id != nil {
            log(
                "\(kind.rawValue): \(name)\(sdk.map { " (\($0))" } ?? "") connected from \(address ?? "an unknown address")"
            )
        }
        return id
    }

    /// Notes that a write to stream `id` went out (with revision `revision`, if it carried one).
    func wrote(_ id: UInt64, revision: UInt32?) {
        let time = now()
        state.withLock { state in
            state.entries[id]?.lastSeen = time
            if let revision { state.entries[id]?.revision = revision }
        }
    }

    /// Removes a stream that ended.
    /// - Parameter reason: why, for the log.
    func close(_ id: UInt64, reason: String) {
        guard let client = state.withLock({ $0.entries.removeValue(forKey: id) }) else { return }
        log("\(client.kind.rawValue): \(client.name) disconnected (\(reason))")
    }
}
