import Observation
import Synchronization

/// Whether the `onChange` of one `withObservationTracking` was called (it is called at most once): the reads a test
/// makes in `read` are tracked, and ``fired`` says whether any of them changed since.
package final class ObservedCalls: Sendable {
    private final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    private let calls = Calls()
    /// Whether a tracked read changed.
    package var fired: Bool { calls.count.load(ordering: .acquiring) > 0 }

    /// Tracks the reads `read` makes.
    package init(_ read: () -> Void) {
        let calls = self.calls
        withObservationTracking(read) { calls.count.add(1, ordering: .releasing) }
    }
}
