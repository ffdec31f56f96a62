import Foundation

/// Runs blocking work (waiting for a child process, sleeping between polls) on its own thread and awaits
/// it, so the test does not hold one of Swift concurrency's few cooperative threads (two on a 2-core
/// machine) while it waits: tests that block those threads starve every async test running beside them.
/// - Parameter body: the blocking work.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
