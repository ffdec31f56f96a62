#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Platform {
    /// `memcmp`: negative, zero or positive as the first `count` bytes at `a` order before, equal to or after those
    /// at `b`.
    @inline(__always)
    package static func compareBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int32 {
        memcmp(a, b, count)
    }

    /// `memchr`: the address of the first byte equal to `byte` among the `count` at `start`, or `nil`.
    @inline(__always)
    package static func findByte(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(memchr(start, Int32(byte), count))
    }

    /// A per-thread value slot (`pthread_key_t`): each thread sees its own pointer, `nil` until it sets one.
    package struct ThreadSlot: @unchecked Sendable {
        // @unchecked: a pthread key is an integer handle the C library makes safe to use from any thread.
        private let key: pthread_key_t

        /// A new slot, or `nil` when the process has no keys left.
        package init?() {
            var key = pthread_key_t()
            guard pthread_key_create(&key, nil) == 0 else { return nil }
            self.key = key
        }

        /// The calling thread's value.
        package var value: UnsafeRawPointer? { UnsafeRawPointer(pthread_getspecific(key)) }

        /// Sets the calling thread's value.
        package func set(_ value: UnsafeRawPointer?) {
            _ = pthread_setspecific(key, value)
        }
    }
}
