import Synchronization

/// An immutable object that many threads read without a lock while writers, one at a time, replace it: how the
/// Unleash engine's state, the Unleash clients' toggles and `RemoteConfig`'s values are published. (Per-flag
/// values replaced a bounded number of times use ``ChainedReference``: one word each instead of this type's 4 KB
/// of reader counts.)
///
/// Readers (``read(_:)``) take no lock and never touch the object's reference count: they load the current object
/// through an atomic pointer and use it in place. Writers (``update(_:)``) are serialised by a lock, publish the new
/// object with one atomic exchange and then free the old one — but only once no reader can still be using it.
///
/// **Reclamation.** Readers announce themselves in striped reader counts, one stripe per thread (see
/// ``ThreadStripe``), each on its own cache line, so two threads reading at once do not write to the same line.
/// There are two counts per stripe, one per parity of a global *epoch*:
///
/// 1. A reader loads the epoch `e`, increments its stripe's count for `e`'s parity, and loads the epoch again. If
///    it changed, the reader undoes the increment and starts over; otherwise the increment is known to precede
///    any later change of the epoch. Only then does it load the object pointer, use the object and decrement.
/// 2. A writer exchanges the pointer (new readers now find the new object), advances the epoch from `e` to
///    `e + 1`, then waits until it has seen every stripe's count for `e`'s parity at zero, and releases the old
///    object. Readers that entered under `e` were counted before the epoch moved, so the writer sees them and
///    waits; readers that enter under `e + 1` load the pointer after the exchange and get the new object. Readers
///    of earlier epochs are all gone: the previous writer waited for them.
///
/// All these atomics are sequentially consistent, which is what makes "the writer did not see my count, so I see
/// its new pointer" hold. A writer's wait lasts as long as the reads that were under way when it published (an
/// evaluation: microseconds); writers are rare (a new Unleash state per poll), readers are the hot path. Cost of a
/// read: two uncontended atomic increments on the thread's own cache line and three loads of lines that only
/// change when a writer publishes.
///
/// A read must not call ``update(_:)`` on the same instance (the writer would wait for its own reader count).
package final class PublishedReference<Value: AnyObject & Sendable>: Sendable {
    /// The current object, retained once by this instance: the bits of an `Unmanaged<Value>`'s opaque pointer,
    /// never zero.
    @usableFromInline let current: Atomic<UInt>
    @usableFromInline let readers = ReaderEpochs()
    /// Serialises writers.
    private let writer = AnnotatedMutex(())

    /// Publishes `initial`.
    /// - Parameter initial: The first object readers see.
    package init(_ initial: Value) {
        current = Atomic(Self.bits(of: initial))
    }

    deinit {
        Self.object(current.load(ordering: .sequentiallyConsistent)).release()
    }

    /// Retains `object` once and returns its pointer's bits.
    private static func bits(of object: Value) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    }

    /// The object whose pointer's bits these are.
    @inlinable @inline(__always)
    static func object(_ bits: UInt) -> Unmanaged<Value> {
        Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// Runs `body` with the current object, without a lock or a retain.
    ///
    /// The object stays alive (and current or recently current) for the duration of `body`; `body` must not keep
    /// it beyond (copying values out of it is fine) and must not call ``update(_:)`` on this instance.
    /// - Parameter body: What to do with the object.
    /// - Returns: What `body` returns.
    @inlinable @inline(__always)
    package func read<Result>(_ body: (Value) -> Result) -> Result {
        let count = readers.enter()
        defer { readers.exit(count) }
        return Self.object(current.load(ordering: .sequentiallyConsistent))._withUnsafeGuaranteedRef(body)
    }

    /// Replaces the object with what `make` builds from the current one; writers run one at a time.
    ///
    /// `make` runs under the writer lock (so it sees the latest object) and may throw, in which case nothing
    /// changes. Returns once the old object is released, after the reads that might still use it have ended.
    /// - Parameter make: Builds the next object from the current one and returns it with a result for the caller.
    /// - Returns: The result `make` returned.
    /// - Throws: What `make` throws.
    @discardableResult
    package func update<Result: Sendable, Failure: Error>(
        _ make: (Value) throws(Failure) -> (Value, Result)
    ) throws(Failure) -> Result {
        try writer.withLock { _ throws(Failure) -> Result in
            // Only writers change `current`, and this one holds the lock: the object cannot go away here.
            let (next, result) = try make(
                Self.object(current.load(ordering: .sequentiallyConsistent)).takeUnretainedValue())
            let old = current.exchange(Self.bits(of: next), ordering: .sequentiallyConsistent)
            readers.advanceEpochAndWait()
            Self.object(old).release()
            return result
        }
    }

    /// Makes `value` the object readers see (``update(_:)`` without looking at the current object).
    /// - Parameter value: The new object.
    package func publish(_ value: Value) {
        update { _ in (value, ()) }
    }
}

/// The striped, two-epoch reader counts of ``PublishedReference`` (see there for the protocol). Not generic, so
/// that a read costs no generic-metadata lookups even in unoptimised builds.
@usableFromInline
final class ReaderEpochs: @unchecked Sendable {
    // @unchecked: `counts` is a pointer to memory this instance owns from `init` to `deinit` and that is only ever
    // accessed through `Atomic` operations; `epoch` is an `Atomic`.

    /// Stripes (a power of two); more threads than this share stripes, correctly but with contention.
    @usableFromInline static var stripeCount: Int { 32 }
    /// `Atomic<Int>` slots per stripe: two counts, then padding up to 128 bytes (two cache lines, so that the
    /// adjacent-line prefetcher does not couple neighbouring stripes either).
    @usableFromInline static var stripeStride: Int { 16 }

    @usableFromInline let epoch = Atomic<Int>(0)
    @usableFromInline let counts: UnsafeMutablePointer<Atomic<Int>>

    @usableFromInline init() {
        let slots = Self.stripeCount * Self.stripeStride
        counts = UnsafeMutableRawPointer.allocate(
            byteCount: slots * MemoryLayout<Atomic<Int>>.stride, alignment: 128
        ).bindMemory(to: Atomic<Int>.self, capacity: slots)
        for slot in 0..<slots { (counts + slot).initialize(to: Atomic(0)) }
    }

    deinit {
        counts.deinitialize(count: Self.stripeCount * Self.stripeStride)
        counts.deallocate()
    }

    /// Announces a reader of the calling thread; returns the count to pass to ``exit(_:)``.
    @inlinable @inline(__always)
    func enter() -> UnsafeMutablePointer<Atomic<Int>> {
        let stripe = counts + (ThreadStripe.current & (Self.stripeCount - 1)) * Self.stripeStride
        while true {
            let seen = epoch.load(ordering: .sequentiallyConsistent)
            let count = stripe + (seen & 1)
            count.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
            // Counted before the epoch moved on: a writer that moves it will see this count and wait.
            if epoch.load(ordering: .sequentiallyConsistent) == seen { return count }
            count.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Ends a read begun by ``enter()``.
    @inlinable @inline(__always)
    func exit(_ count: UnsafeMutablePointer<Atomic<Int>>) {
        count.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Moves the epoch on and waits until every stripe's count for the previous epoch has been seen at zero once;
    /// writers only, one at a time.
    func advanceEpochAndWait() {
        let previous = epoch.load(ordering: .sequentiallyConsistent)
        epoch.store(previous &+ 1, ordering: .sequentiallyConsistent)
        for stripe in 0..<Self.stripeCount {
            let count = counts + stripe * Self.stripeStride + (previous & 1)
            var spins = 0
            while count.pointee.load(ordering: .sequentiallyConsistent) != 0 {
                spins += 1
                // A reader that was preempted mid-read needs its thread scheduled again to finish.
                if spins > 64 { Platform.yieldThread() }
            }
        }
    }
}
