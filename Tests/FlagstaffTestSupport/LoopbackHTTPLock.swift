#if canImport(Glibc)
import Flagstaff
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The loopback server's lock: a `Synchronization.Mutex` whose lock/unlock ThreadSanitizer can see.
///
/// On Linux `Mutex` uses raw futexes that ThreadSanitizer does not intercept, so tests run with
/// `--sanitize=thread` would report false races inside the server. When the sanitizer runtime is loaded this
/// wrapper reports the happens-before edges (`__tsan_acquire` / `__tsan_release`); otherwise it costs one branch.
/// (FlagstaffRemote has the same helper as `AnnotatedMutex`; this target cannot depend on it.)
struct LoopbackHTTPLock<Value: ~Copyable>: ~Copyable, Sendable {
    private typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private final class Anchor: Sendable {}

    private static var hooks: (acquire: Hook, release: Hook)? {
        guard let handle = dlopen(nil, RTLD_NOW),
              let acquire = dlsym(handle, "__tsan_acquire"),
              let release = dlsym(handle, "__tsan_release")
        else { return nil }
        return (unsafeBitCast(acquire, to: Hook.self), unsafeBitCast(release, to: Hook.self))
    }

    private let mutex: Mutex<Value>
    private let anchor = Anchor()
    private let hooks: (acquire: Hook, release: Hook)?

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
        hooks = Self.hooks
    }

    borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let address = Unmanaged.passUnretained(anchor).toOpaque()
        let hooks = self.hooks
        return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            hooks?.acquire(address)
            defer { hooks?.release(address) }
            return try body(&value)
        }
    }
}
