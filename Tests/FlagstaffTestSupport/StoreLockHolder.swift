import Flagstaff
import Foundation
import Synchronization

/// Holds a file store's lock until ``release()``, for the tests of lock waits and timeouts: the one lock holder of
/// the tests.
///
/// ``onThread(path:)`` holds it on a thread of this process (an `flock` on a descriptor of its own conflicts like
/// another process's; the lock names this process). ``inAnotherProcess(tool:path:)`` runs `StoreStressTool hold`,
/// for tests that check how another program is named. Either way the holder returns only once the lock is held.
package final class StoreLockHolder: Sendable {
    /// The process recorded as the lock's holder.
    package let pid: pid_t
    private let releaseOnce: Atomic<Bool> = Atomic(false)
    private let letGo: @Sendable () -> Void

    private init(pid: pid_t, letGo: @escaping @Sendable () -> Void) {
        self.pid = pid
        self.letGo = letGo
    }

    deinit { release() }

    /// Holds the lock of the store at `path` on a thread of its own.
    /// - Parameter path: the store file.
    /// - Returns: the holder, once the lock is held.
    /// - Throws: the store's error when the lock cannot be taken.
    package static func onThread(path: String) async throws -> StoreLockHolder {
        let store = try FileOverrideStore(url: URL(fileURLWithPath: path))
        let held = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let failure = AnnotatedMutex<OverrideStoreError?>(nil)
        Thread.detachNewThread {
            do {
                try store.holdingLock {
                    held.signal()
                    released.wait()
                }
            } catch {
                let error = error as? OverrideStoreError ?? .unwritable(path: path, reason: "\(error)")
                failure.withLock { $0 = error }
                held.signal()
            }
        }
        try await offCooperativePool { held.wait() }
        if let error = failure.withLock({ $0 }) { throw error }
        return StoreLockHolder(pid: getpid(), letGo: { released.signal() })
    }

    /// Holds the lock of the store at `path` from a `StoreStressTool hold` process.
    /// - Parameters:
    ///   - tool: the built `StoreStressTool`.
    ///   - path: the store file.
    /// - Returns: the holder, once the lock is held; ``release()`` kills the process.
    /// - Throws: when the tool cannot be started or does not report holding the lock.
    package static func inAnotherProcess(tool: URL, path: String) async throws -> StoreLockHolder {
        let running = try CommandRunner.start(tool, ["hold", path])
        guard try await running.waitForOutput(containing: "locked\n", timeout: .seconds(120)) else {
            let result = running.stop()
            throw StoreLockHolderError(output: result.standardOutput + result.standardError)
        }
        return StoreLockHolder(pid: running.pid, letGo: { running.stop() })
    }

    /// Lets the lock go (the first call; later ones do nothing). A holding process is killed and reaped, which
    /// takes no time to speak of: it never waits for a child to notice the end of its input.
    package func release() {
        guard !releaseOnce.exchange(true, ordering: .relaxed) else { return }
        letGo()
    }
}

/// `StoreStressTool hold` did not report holding the lock.
package struct StoreLockHolderError: Error, CustomStringConvertible {
    /// What it printed instead of `locked`.
    package let output: String

    package var description: String {
        "StoreStressTool hold did not report the lock (printed \(output.debugDescription))"
    }
}
