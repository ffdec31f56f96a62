import Flagstaff

/// Events that arrive from other threads (registry change callbacks, remote refreshes finishing), queued for
/// the console's loop. Changes of flags are merged into one ``ConsoleEvent/registryChanged(keys:)`` (or one
/// ``ConsoleEvent/registryChangedInBulk(count:)`` when any of them was a bulk change).
///
/// Thread safety: ``post(_:)`` may be called from any thread; ``drain()`` from the loop.
package final class ConsoleInbox: Sendable {
    private struct Queue {
        var changedKeys: Set<String> = []
        /// The number of keys changed in bulk (``ConsoleEvent/registryChangedInBulk(count:)``), if any: then
        /// every change queued is counted here instead.
        var bulkCount = 0
        var others: [ConsoleEvent] = []
    }

    private let queue = AnnotatedMutex(Queue())

    /// Creates an empty inbox.
    package init() {}

    /// Queues an event (flag changes are merged with those already queued).
    package func post(_ event: ConsoleEvent) {
        queue.withLock { queue in
            switch event {
            case .registryChanged(let keys) where queue.bulkCount > 0:
                queue.bulkCount += keys.count
            case .registryChanged(let keys):
                // The first change is taken as it is (no rehashing).
                if queue.changedKeys.isEmpty { queue.changedKeys = keys } else { queue.changedKeys.formUnion(keys) }
            case .registryChangedInBulk(let count):
                queue.bulkCount += count + queue.changedKeys.count
                queue.changedKeys = []
            default:
                queue.others.append(event)
            }
        }
    }

    /// Takes every queued event: the merged flag change first, then the others in order.
    package func drain() -> [ConsoleEvent] {
        queue.withLock { queue in
            var events: [ConsoleEvent] =
                queue.bulkCount > 0
                ? [.registryChangedInBulk(count: queue.bulkCount)]
                : queue.changedKeys.isEmpty ? [] : [.registryChanged(keys: queue.changedKeys)]
            events += queue.others
            queue = Queue()
            return events
        }
    }
}
