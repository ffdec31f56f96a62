import Flagstaff
import Foundation
import NIOCore

/// The open event streams: counted against a limit, listed with what each was last sent, and watched for clients
/// that stop reading (a write that waits longer than the write timeout closes the connection, so the server
/// holds nothing for a client that does not read). Thread-safe.
package final class StreamConnections: Sendable {
    private struct Entry {
        var client: StreamClient
        var channel: any Channel
        var writeStarted: ContinuousClock.Instant?
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var refused = 0
    }

    /// The most streams open at once.
    package let limit: Int
    /// How long a write may wait for the client.
    package let writeTimeout: Duration
    private let state = AnnotatedMutex(State())
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void

    /// Creates the list.
    /// - Parameters:
    ///   - limit: the most streams open at once.
    ///   - writeTimeout: how long a write may wait for a client that does not read.
    ///   - now: the wall clock.
    ///   - log: where connects and disconnects are said (the server's log, on standard error).
    package init(
        limit: Int, writeTimeout: Duration, now: @escaping @Sendable () -> Date = { Date() },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.limit = limit
        self.writeTimeout = writeTimeout
        self.now = now
        self.log = log
    }

    /// The streams open now, the longest connected first.
    package var clients: [StreamClient] {
        state.withLock { $0.entries.values.map(\.client) }.sorted { $0.id < $1.id }
    }

    /// How many streams are open.
    package var count: Int { state.withLock { $0.entries.count } }

    /// How many streams were refused for the limit since the server started.
    package var refusedCount: Int { state.withLock { $0.refused } }

    /// Counts a new stream: its id, or `nil` when ``limit`` streams are open already.
    func open(
        name: String, sdk: String?, address: String?, kind: StreamClient.Kind, channel: any Channel
    ) -> UInt64? {
        let time = now()
        let id: UInt64? = state.withLock { state in
            guard state.entries.count < limit else {
                state.refused += 1
                return nil
            }
            state.nextID += 1
            state.entries[state.nextID] = Entry(
                client: StreamClient(
                    id: state.nextID, name: name, sdk: sdk, address: address, kind: kind, connectedAt: time,
                    lastSeen: time, revision: nil),
                channel: channel)
            return state.nextID
        }
        if id != nil {
            log(
                "\(kind.rawValue): \(name)\(sdk.map { " (\($0))" } ?? "") connected from \(address ?? "an unknown address")"
            )
        }
        return id
    }

    /// Notes that a write to stream `id` begins.
    func writing(_ id: UInt64) {
        state.withLock { $0.entries[id]?.writeStarted = .now }
    }

    /// Notes that a write to stream `id` went out (with revision `revision`, if it carried one).
    func wrote(_ id: UInt64, revision: UInt32?) {
        let time = now()
        state.withLock { state in
            state.entries[id]?.writeStarted = nil
            state.entries[id]?.client.lastSeen = time
            if let revision { state.entries[id]?.client.revision = revision }
        }
    }

    /// Removes a stream that ended.
    /// - Parameter reason: why, for the log.
    func close(_ id: UInt64, reason: String) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: id) }) else { return }
        let client = entry.client
        log("\(client.kind.rawValue): \(client.name) disconnected (\(reason))")
    }

    /// Closes the connection of every stream whose write has waited longer than ``writeTimeout``: the client
    /// stopped reading. The stream's task then fails its write and ends.
    func dropStalled() {
        let stalled = state.withLock { state in
            state.entries.values.filter { entry in
                entry.writeStarted.map { $0.duration(to: .now) > writeTimeout } ?? false
            }.map(\.channel)
        }
        for channel in stalled { channel.close(promise: nil) }
    }
}
