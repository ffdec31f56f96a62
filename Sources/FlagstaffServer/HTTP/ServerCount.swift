import Synchronization

/// A count the server keeps for tests and the benchmark (relaxed: no order with anything else): the polls
/// ``NotModifiedHandler`` answered, the connections ``WriteTimeoutHandler`` closed.
package final class ServerCount: Sendable {
    let count = Atomic<Int>(0)

    /// The count so far.
    package var value: Int { count.load(ordering: .relaxed) }

    /// Adds one.
    func add() { count.add(1, ordering: .relaxed) }
}
