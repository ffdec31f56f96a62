import Synchronization

/// A small number that tells threads apart, for data split into per-thread stripes (reader counts, metrics
/// counts): threads that run at the same time then write to different cache lines instead of fighting over one.
///
/// Each thread gets the next number the first time it asks a numbering (kept in a `pthread` key, so asking again
/// costs one `pthread_getspecific`). Numbers are never reused, so callers reduce them modulo their stripe count; two
/// threads may then share a stripe, which stays correct (stripes are atomics or locked) and only costs the sharing.
/// Where even one `pthread_getspecific` per use is too much (a ``PublishedReference`` read), ``stackStripe(count:)``
/// picks a stripe from the stack address instead.
package struct ThreadStripe: ~Copyable, Sendable {
    /// `nil` when the process has no `pthread` keys left: every thread is then number 0.
    private let slot = Platform.ThreadSlot()
    private let next = Atomic<Int>(0)

    /// A numbering of its own (each one uses a `pthread` key, a limited resource: keep one per purpose).
    package init() {}

    /// The numbering of callers that keep none of their own.
    package static let shared = ThreadStripe()

    /// The calling thread's number (0, 1, 2, … in the order threads first asked this numbering).
    package var current: Int {
        guard let slot else { return 0 }
        if let value = slot.value { return Int(bitPattern: value) &- 1 }
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
        // Stored plus one: a null value means "not assigned yet".
        slot.set(UnsafeRawPointer(bitPattern: number &+ 1))
        return number
    }

    /// A stripe in `0..<count` (a power of two) for the calling thread, from the address of its stack: no call, no
    /// thread-local, no lazy global. Not a numbering: two threads may share a stripe, and a thread deep in its stack
    /// may use another one, so it only suits stripes that stay correct when shared.
    @inline(__always)
    static func stackStripe(count: Int) -> Int {
        var marker: UInt8 = 0
        return stripe(ofStackAddress: withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }, count: count)
    }

    /// The stripe of a thread whose stack holds `address`. Each thread's stack is a mapping of its own, one stack size
    /// from the next (8 MiB by default on Linux, 512 KiB for secondary threads on Apple platforms): the sum of the
    /// address in 512 KiB and in 8 MiB units differs between neighbouring stacks of any size from 512 KiB to 16 MiB,
    /// by 1, 2, 16 or 17 units, so eight stacks in a row get eight stripes.
    @inline(__always)
    static func stripe(ofStackAddress address: UInt, count: Int) -> Int {
        Int(truncatingIfNeeded: (address >> 19) &+ (address >> 23)) & (count - 1)
    }
}
