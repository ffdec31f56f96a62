import Foundation

/// The operation queue a ``RemoteHTTPTransport`` session calls its delegate on. It holds back the thread that hands
/// it work once ``backlogLimit`` operations wait: with FoundationNetworking that thread is the one libcurl reads
/// and inflates bodies on, so a body arriving faster than the delegate takes it stops being read (TCP tells the
/// server to wait) instead of piling up in this queue. Without it, a 200 MB chunked body or a gzip body inflating
/// to 1 GiB was read whole into memory before the delegate saw the limit pass (docs/performance.md, "Hostile
/// servers").
///
/// Work added from this queue's own operations is never held back (it would wait for itself).
final class RemoteHTTPDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: `backlog` is only touched with `condition` locked.
    /// The most operations waiting before the thread adding one waits: at most 1 MiB of body in libcurl's 16 KiB
    /// pieces.
    static let backlogLimit = 64

    private let condition = NSCondition()
    private var backlog = 0
    private var deepest = 0

    /// The most operations that were ever waiting at once (for tests and diagnostics).
    var deepestBacklog: Int {
        condition.lock()
        defer { condition.unlock() }
        return deepest
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let holdsBack = OperationQueue.current !== self
        if holdsBack {
            condition.lock()
            // Bounded: an operation that never ran (none is ever cancelled here) could not hold a session forever.
            let deadline = Date(timeIntervalSinceNow: 10)
            while backlog >= Self.backlogLimit, condition.wait(until: deadline) {}
            backlog += 1
            deepest = max(deepest, backlog)
            condition.unlock()
        }
        super.addOperation { [condition = self.condition, weak self] in
            block()
            guard holdsBack else { return }
            condition.lock()
            self?.backlog -= 1
            condition.signal()
            condition.unlock()
        }
    }
}
