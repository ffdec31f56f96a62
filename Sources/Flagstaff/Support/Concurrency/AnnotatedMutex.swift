import Synchronization

/// A `Synchronization.Mutex` whose lock and unlock ThreadSanitizer can see.
///
/// On Linux, `Mutex` is built on raw futex system calls, which ThreadSanitizer does not intercept, so every
/// access it protects is reported as a data race under `--sanitize=thread`. This wrapper tells the sanitizer
/// about the happens-before edge (`__tsan_acquire` after locking, `__tsan_release` before unlocking) when
/// the sanitizer runtime is loaded, and costs one well-predicted branch (and no allocation) otherwise. Semantics
/// are exactly `Mutex`'s. It is the package's one lock type (`package` access, so every target of the package,
/// tests and test support included, uses it instead of `Mutex` or `NSLock`), so `--sanitize=thread` runs are
/// meaningful. One of the package's three ways to share state (docs/performance.md, "Sharing state between
/// threads").
///
/// **Correctness.** Mutual exclusion is `Mutex`'s. The annotations add nothing to it: `acquire` runs after the lock
/// is taken and `release` before it is given up, so the edge they report to the sanitizer is one the futex
/// already provides, on an address (`anchor`) that lives as long as the lock.
package struct AnnotatedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    /// A heap object whose address names this lock for the sanitizer; only allocated under the sanitizer
    /// (a registry has a lock per flag).
    private let anchor: SanitizerAnchor? = ThreadSanitizerHooks.shared == nil ? nil : SanitizerAnchor()

    /// Creates a mutex holding `value`.
    ///
    /// - Parameter value: The initial protected value.
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: The critical section; keep it short and free of I/O and `await`.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        guard let anchor, let hooks = ThreadSanitizerHooks.shared else {
            return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
                try body(&value)
            }
        }
        let address = Unmanaged.passUnretained(anchor).toOpaque()
        return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

/// An empty object used only for its address.
package final class SanitizerAnchor: Sendable {
    /// Creates an anchor.
    package init() {}
}

/// The ThreadSanitizer annotation entry points, if the sanitizer runtime is present in the process.
package struct ThreadSanitizerHooks: Sendable {
    /// The C signature of `__tsan_acquire` / `__tsan_release`.
    package typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Marks an acquire (lock) of the synchronisation object at the address.
    package let acquire: Hook
    /// Marks a release (unlock) of the synchronisation object at the address.
    package let release: Hook

    /// The hooks, looked up once with `dlsym`; `nil` when not running under ThreadSanitizer.
    package static let shared: ThreadSanitizerHooks? = {
        guard let acquire = Platform.loadedSymbol(named: "__tsan_acquire"),
            let release = Platform.loadedSymbol(named: "__tsan_release")
        else { return nil }
        return ThreadSanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Hook.self),
            release: unsafeBitCast(release, to: Hook.self))
    }()
}
