import Flagstaff

/// Which flags changed since the console last looked.
package enum ChangedFlags: Sendable, Equatable {
    /// These keys.
    case keys(Set<String>)
    /// More than ``ConsoleFeed/listedChangeLimit`` keys: not listed (a set of 100,000 keys costs more to make than
    /// a pass over every flag).
    case many
}

/// What arrives from other threads (registry change callbacks, remote refreshes finishing, writes landing),
/// queued for the console's loop. Changes of flags are merged into one ``ChangedFlags``.
///
/// Thread safety: ``post(_:)-(FeatureChange)`` and ``post(_:)-(ConsoleEvent)`` may be called from any thread;
/// ``drain()`` from the loop.
package final class ConsoleInbox: Sendable {
    private struct Queue {
        var changes: ChangedFlags?
        var others: [ConsoleEvent] = []
    }

    private let queue = AnnotatedMutex(Queue())

    /// Creates an empty inbox.
    package init() {}

    /// Queues a registry change, merged with those already queued.
    package func post(_ change: FeatureChange) {
        let many = change.keyCount > ConsoleFeed.listedChangeLimit
        queue.withLock { queue in
            switch queue.changes {
            case .many?: break
            case _ where many: queue.changes = .many
            case nil: queue.changes = .keys(change.keys)
            case .keys(var keys)?:
                keys.formUnion(change.keys)
                queue.changes = keys.count > ConsoleFeed.listedChangeLimit ? .many : .keys(keys)
            }
        }
    }

    /// Queues an event.
    package func post(_ event: ConsoleEvent) {
        queue.withLock { $0.others.append(event) }
    }

    /// Takes everything queued: the merged flag changes, and the other events in order.
    package func drain() -> (changes: ChangedFlags?, events: [ConsoleEvent]) {
        queue.withLock { queue in
            defer { queue = Queue() }
            return (queue.changes, queue.others)
        }
    }
}
