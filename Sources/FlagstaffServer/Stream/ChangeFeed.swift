import Flagstaff
import Foundation

/// The numbered changes of the served values, for the event streams and the delta API: the latest revision, a
/// short history of the ones before (so that a client resuming with `Last-Event-ID` or polling the delta API gets
/// only what it missed), and the streams waiting for the next one.
///
/// A change is seen when the live snapshot's ETag changes: at once for a change in this process (the registry's
/// change handler nudges the feed) and for a write by another process that the store's folder watch reports
/// (``LiveSnapshot``), else within ``FlagServerConfiguration/changePollInterval``, and on any request. The poll
/// stays beside the watch because the watch is a hint (``FolderWatch`` misses a store linked into another folder). Thread-safe. Each subscriber costs one
/// wake-up slot (the newest only): a client that is behind is sent what it missed from the history, so nothing
/// is queued per client.
package final class ChangeFeed: Sendable {
    /// The most revisions kept for resuming clients.
    package static let historyLimit = 100
    /// The most bytes of delta events kept for resuming clients.
    static let historyByteLimit = 4 << 20

    private struct State {
        var history: [FeedRevision]
        var historyBytes = 0
        var subscribers: [UInt64: AsyncStream<Void>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
    }

    /// The values served.
    package let live: LiveSnapshot
    private let state: AnnotatedMutex<State>
    private let now: @Sendable () -> Date
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    private let subscription: ChangeSubscription

    /// Starts numbering the changes of a live snapshot.
    /// - Parameters:
    ///   - live: the values served.
    ///   - firstID: the first revision's id (default: now in Unix seconds).
    ///   - now: the wall clock.
    package init(live: LiveSnapshot, firstID: UInt32? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.live = live
        self.now = now
        let time = now()
        let first = FeedRevision(
            id: firstID ?? UInt32(clamping: Int(time.timeIntervalSince1970)),
            lastModified: Int(time.timeIntervalSince1970),
            snapshot: live.current(), events: nil)
        state = AnnotatedMutex(State(history: [first]))
        (nudges, nudger) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let nudger = self.nudger
        subscription = live.registry.onChange { _ in nudger.yield() }
    }

    deinit {
        subscription.cancel()
        nudger.finish()
    }

    /// The newest revision known (without looking for a change).
    package var latest: FeedRevision { state.withLock { $0.history[$0.history.count - 1] } }

    /// Looks for a change now and numbers it: the newest revision.
    @discardableResult
    package func refresh() -> FeedRevision {
        var wake: [AsyncStream<Void>.Continuation] = []
        let revision = state.withLock { state -> FeedRevision in
            // Under the lock: two refreshes cannot number an older snapshot after a newer one.
            let snapshot = live.current()
            let latest = state.history[state.history.count - 1]
            guard snapshot.etag != latest.etag else { return latest }
            let id = latest.id &+ 1
            let revision = FeedRevision(
                id: id, lastModified: Int(now().timeIntervalSince1970), snapshot: snapshot,
                events: FeedRevision.deltaEvents(from: latest.snapshot, to: snapshot, id: id))
            // Older revisions are kept for their delta events only: not a snapshot (and its bodies) each.
            state.history[state.history.count - 1] = latest.withoutSnapshot
            state.history.append(revision)
            state.historyBytes += revision.events?.count ?? 0
            while state.history.count > Self.historyLimit
                || (state.history.count > 1 && state.historyBytes > Self.historyByteLimit)
            {
                state.historyBytes -= state.history.removeFirst().events?.count ?? 0
            }
            wake = Array(state.subscribers.values)
            return revision
        }
        for continuation in wake { continuation.yield() }
        return revision
    }

    /// The revisions after `id`, oldest first: empty when `id` is the latest, `nil` when `id` is not known (too
    /// old for the history, from another run of the server, or never sent).
    package func revisions(after id: UInt32) -> [FeedRevision]? {
        state.withLock { state in
            guard let index = state.history.firstIndex(where: { $0.id == id }) else { return nil }
            return Array(state.history[(index + 1)...])
        }
    }

    /// How many changes a client that has `id` misses: `nil` when `id` is not known.
    package func changesBehind(_ id: UInt32) -> Int? {
        revisions(after: id)?.count
    }

    /// How many changes a client misses that was last answered with the values of ETag `etag` (a poller): `0` when
    /// they are the latest, `nil` when no revision kept has them (older than the history).
    package func changesBehind(etag: String) -> Int? {
        state.withLock { state in
            state.history.lastIndex { $0.etag == etag }.map { state.history.count - 1 - $0 }
        }
    }

    /// Registers a stream: the sequence wakes it for each new revision and each keep-alive tick (only the newest
    /// wake-up is kept).
    func subscribe() -> (id: UInt64, wakes: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        return (id, stream)
    }

    /// Ends a stream's wake-ups.
    func unsubscribe(_ id: UInt64) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.finish()
    }

    /// Wakes every stream (a keep-alive tick).
    func wakeAll() {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield() }
    }

    /// Stops following (``run(pollInterval:tickInterval:tick:)`` returns) and ends every stream's wake-ups: the
    /// server stops.
    func stop() {
        nudger.finish()
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.finish() }
    }

    /// Asks the feed to look for a change now (a file notification, a write in this process).
    package func nudge() { nudger.yield() }

    /// Follows the values until cancelled: looks for a change on each nudge and every `pollInterval`, and calls
    /// `tick` about every `tickInterval` (keep-alives).
    func run(pollInterval: Duration, tickInterval: Duration, tick: @escaping @Sendable () -> Void) async {
        let nudger = self.nudger
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    nudger.yield()
                }
            }
            var lastTick = ContinuousClock.now
            for await _ in nudges {
                if Task.isCancelled { break }
                let previous = latest
                let revision = refresh()
                // The streams are told: make the bodies their clients will ask for while the requests travel.
                if revision.id != previous.id { revision.snapshot.prepareBodies(like: previous.snapshot) }
                if lastTick.duration(to: .now) >= tickInterval {
                    lastTick = .now
                    tick()
                }
            }
            group.cancelAll()
        }
    }
}
