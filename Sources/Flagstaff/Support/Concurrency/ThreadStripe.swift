import Synchronization

/// A small number that tells threads apart, for data split into per-thread stripes (reader counts, metrics
/// counts): threads that run at the same time then write to different cache lines instead of fighting over one.
///
/// Each thread gets the next number the first time it asks a numbering (kept in a `pthread` key, so asking again
/// costs one `pthread_getspecific`). Numbers are never reused, so callers reduce them modulo their stripe count; two
/// threads may then share a stripe, which stays correct (stripes are atomics or locked) and only costs the sharing.
/// A numbering is kept inside its user (``ReaderEpochs`` has one) so that asking costs no lazy-global check.
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
}
