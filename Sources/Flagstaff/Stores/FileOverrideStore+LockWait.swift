import Foundation

extension FileOverrideStore {
    /// How a writer waits for the lock another writer holds.
    public struct LockWait: Sendable {
        /// How long to wait before giving up with ``OverrideStoreError/lockTimeout(path:holder:waited:)``
        /// (nothing is changed); `nil` waits as long as it takes.
        public var timeout: Duration?
        /// How long to wait before calling ``onWaiting``.
        public var noticeAfter: Duration
        /// The clock the wait is measured on.
        public var clock: any Clock<Duration>
        /// Called once, from the writing thread, when the wait has lasted ``noticeAfter``: who holds the lock
        /// and how long the writer has waited.
        public var onWaiting: (@Sendable (LockHolder, Duration) -> Void)?

        /// Creates a policy.
        /// - Parameters:
        ///   - timeout: the longest wait (`nil`: no limit); default 10 s.
        ///   - noticeAfter: when to call `onWaiting`; default 1 s.
        ///   - clock: the clock the wait is measured on; `ContinuousClock()` by default, a `ManualClock` in tests.
        ///   - onWaiting: called once when the wait has lasted `noticeAfter`.
        public init(
            timeout: Duration? = .seconds(10), noticeAfter: Duration = .seconds(1),
            clock: any Clock<Duration> = ContinuousClock(),
            onWaiting: (@Sendable (LockHolder, Duration) -> Void)? = nil
        ) {
            self.timeout = timeout
            self.noticeAfter = noticeAfter
            self.clock = clock
            self.onWaiting = onWaiting
        }
    }

    /// The process holding a store's lock, as it recorded itself in the lock file.
    public struct LockHolder: Sendable, Hashable, CustomStringConvertible {
        /// Its process id, if it recorded one.
        public var pid: Int32?
        /// Its command line (program name and arguments, sanitised for printing), if it recorded one.
        public var command: String?

        /// Creates a holder.
        public init(pid: Int32?, command: String?) {
            self.pid = pid
            self.command = command
        }

        /// `pid 4242 (flagstaff set blueText on)`, or `another process` when nothing was recorded.
        public var description: String {
            guard let pid else { return "another process" }
            return "pid \(pid)" + (command.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        }
    }
}
