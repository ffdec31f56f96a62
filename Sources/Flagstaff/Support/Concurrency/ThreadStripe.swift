import Synchronization

/// A small number that tells threads apart, for data split into per-thread stripes (reader counts, metrics
/// counts): threads that read at the same time then write to different cache lines instead of fighting over one.
///
/// Each thread gets the next number the first time it asks (kept in a `pthread` key, so asking again costs one
/// `pthread_getspecific`). Numbers are never reused, so callers reduce them modulo their stripe count; two threads
/// may then share a stripe, which stays correct (stripes are atomics or locked) and only costs the sharing.
@usableFromInline
package enum ThreadStripe {
    private static let slot = Platform.ThreadSlot()

    private static let next = Atomic<Int>(0)

    /// The calling thread's number (0, 1, 2, … in the order threads first asked).
    @usableFromInline
    package static var current: Int {
        guard let slot else { return 0 }
        if let value = slot.value { return Int(bitPattern: value) &- 1 }
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
        // Stored plus one: a null value means "not assigned yet".
        slot.set(UnsafeRawPointer(bitPattern: number &+ 1))
        return number
    }
}
