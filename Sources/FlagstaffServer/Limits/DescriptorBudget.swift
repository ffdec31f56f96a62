import Flagstaff

/// How many event streams the process's open-file limit leaves room for. Every connection holds a descriptor,
/// and a stream holds its connection for as long as it is open: with the common soft limit of 1,024 and the default
/// 1,000 streams, 24 of 30 new pollers timed out (the server could not accept them). So the stream limit is kept
/// below what the descriptors allow, with room for polling.
struct DescriptorBudget: Equatable {
    /// Descriptors kept for what is not a connection: the standard streams, the listening socket, the event loops'
    /// own (three each), the store, its lock and its folder watch, a manifest being read, and some margin.
    static let reserved = 64
    /// The part of the connections the limit allows that is kept for polling and one-off requests (at least 16).
    static let pollingShare = 4

    /// The connections the limit allows.
    let connections: Int
    /// Of those, the ones kept for polling.
    let polling: Int
    /// The most streams: the requested limit, or fewer when the descriptors do not allow it.
    let streams: Int

    /// The budget for an open-file limit of `openFiles` and `requested` streams (`--max-streams`).
    init(openFiles: Int, requested: Int) {
        connections = max(0, openFiles - Self.reserved)
        polling = min(connections, max(16, connections / Self.pollingShare))
        streams = min(requested, connections - polling)
    }

    /// Raises this process's soft open-file limit as far as allowed (``Platform/raiseOpenFileLimit()``) and makes the
    /// budget for the limit in force; `nil` when the system does not say (the requested limit then holds).
    static func raisingLimit(requested: Int) -> (budget: DescriptorBudget, limit: Platform.OpenFileLimit)? {
        guard let limit = Platform.raiseOpenFileLimit() else { return nil }
        return (DescriptorBudget(openFiles: limit.soft, requested: requested), limit)
    }
}
