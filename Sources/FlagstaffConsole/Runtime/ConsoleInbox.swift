import Flagstaff

/// Events that arrive from other threads (registry change callbacks, remote refreshes finishing), queued for
/// the console's loop. Changes of flags are merged into one ``ConsoleEvent/registryChanged(keys:)``.
///
/// Thread safety: ``post(_:)`` may be called from any thread; ``drain()`` from the loop.
package final class ConsoleInbox: Sendable {
    private struct Queue {
        var changedKeys: Set<String> = []
        var others: [ConsoleEvent] = []
    }

    private let queue = AnnotatedMutex(Queue())

    /// Creates an empty inbox.
    package init() {}

    /// Queues an event (flag changes are merged with those already queued).
    package func post(_ event: ConsoleEvent) {
        queue.withLock { queue in
            if case .registryChanged(let keys) = event {
                // The first change is taken as it is (a bulk change posts 100,000 keys: no rehashing).
                if queue.changedKeys.isEmpty { queue.changedKeys = keys } else { queue.changedKeys.formUnion(keys) }
            } else {
                queue.others.append(event)
            }
        }
    }

    /// Takes every queued event: the merged flag change first, then the others in order.
    package func drain() -> [ConsoleEvent] {
        queue.withLock { queue in
            var events: [ConsoleEvent] = queue.changedKeys.isEmpty ? [] : [.registryChanged(keys: queue.changedKeys)]
            events += queue.others
            queue = Queue()
            return events
        }
    }
}
