#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// The engine uses this rather than the standard library's `Mutex` because the thread sanitizer intercepts
/// `pthread_mutex_lock` and so sees the happens-before edge between a writer publishing a state and a reader
/// picking it up; it does not see the standard library's futex-based lock and reports false races.
///
/// `@unchecked Sendable` is safe because `value` is only ever read or written between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on the one mutex this object owns, and `Value` itself is `Sendable`.
final class Protected<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
