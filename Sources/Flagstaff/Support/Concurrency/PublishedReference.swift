import Synchronization

/// An immutable object that threads read without a lock while writers replace it: the package's one way to publish
/// a reference. Used for a member's identity and a setting's state, the registry's key table, the Unleash engine's
/// state and the remote configs' values. Inline and one word wide, so 100,000 members can each have one.
///
/// ```swift
/// let table = PublishedReference(KeyTable(adding: [:]))
/// table.read { $0.lookup(key) }                        // no lock, no retain
/// table.update { current in (current.adding(flags), ()) }
/// ```
///
/// **Correctness.** The word holds a retained pointer (0 while empty). A reader enters the process-wide
/// ``ReaderEpochs`` (a count on its stripe, tagged with the epoch's parity) before it loads the pointer and leaves after
/// its body. A writer swaps the pointer with a compare-and-exchange, then, under the epochs' lock, advances the epoch
/// and waits until the previous parity's counts have been seen at zero; only then does it release the old object.
/// A reader that could have loaded the old pointer was counted before the swap, hence before the advance: either
/// under the epoch this writer advances (it waits for that reader) or under an earlier one (an earlier writer, which
/// held the same lock before, waited for it to leave). So no object is freed while a body uses it. All the
/// operations involved are sequentially consistent, which is what this argument needs.
///
/// **Rules for callers.** A `read` body must be short and must neither block nor write any `PublishedReference`:
/// writers of every reference wait for every reader in the process. To keep an object beyond the body, return it
/// (`read { $0 }` retains it before leaving). `update`'s `make` may run more than once when writers race, so it must
/// be free of side effects.
///
/// Objects published with ``publishIfEmpty(_:_:)`` are never replaced, so never retired, and
/// ``readIfPublishedOnce(_:)`` reads them with one acquire load: for state made on first use on a hot path (a
/// member's Observation state). Never mix those two methods with ``update(_:)`` or ``replace(_:)`` on one reference.
@usableFromInline
package struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, @unchecked Sendable {
    // @unchecked: the word owns one retain of an immutable, Sendable object and is only accessed atomically.
    @usableFromInline let word: Atomic<UInt>

    /// Creates an empty reference: ``readIfPublished(_:)`` returns `nil` until something is published.
    package init() {
        word = Atomic(0)
    }

    /// Creates a reference publishing `object`.
    package init(_ object: Object) {
        word = Atomic(Self.retainedBits(object))
    }

    deinit {
        if let object = Self.objectIfAny(word.load(ordering: .sequentiallyConsistent)) { object.release() }
    }

    /// The object whose retained pointer `bits` are (never 0). No `Optional.map` on the read path: where a read is
    /// not specialised, a generic closure over `Unmanaged<Object>` instantiates its metadata on every call
    /// (docs/performance.md, "Read floor").
    @inlinable @inline(__always)
    static func object(_ bits: UInt) -> Unmanaged<Object> {
        Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// ``object(_:)``, or `nil` for 0.
    @inlinable @inline(__always)
    static func objectIfAny(_ bits: UInt) -> Unmanaged<Object>? {
        bits == 0 ? nil : object(bits)
    }

    private static func retainedBits(_ object: Object) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    }

    // MARK: Reading

    /// Runs `body` with the current object, without a lock or a retain. The reference must not be empty.
    @inlinable @inline(__always)
    package func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        let count = ReaderEpochs.enter()
        defer { ReaderEpochs.exit(count) }
        return try Self.object(word.load(ordering: .sequentiallyConsistent))._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` with the current object, or returns `nil` when nothing has been published.
    @inlinable @inline(__always)
    package func readIfPublished<Result>(_ body: (Object) throws -> Result) rethrows -> Result? {
        let count = ReaderEpochs.enter()
        defer { ReaderEpochs.exit(count) }
        let bits = word.load(ordering: .sequentiallyConsistent)
        if bits == 0 { return nil }
        return try Self.object(bits)._withUnsafeGuaranteedRef(body)
    }

    // MARK: Writing

    /// Replaces the object with what `make` builds from the current one (which must exist).
    /// - Parameter make: Builds the next object and a result for the caller; may run more than once if writers race.
    /// - Returns: The result of the `make` call whose object was published.
    /// - Throws: What `make` throws; nothing changes then.
    @discardableResult
    package func update<Result, Failure: Error>(
        _ make: (Object) throws(Failure) -> (Object, Result)
    ) throws(Failure) -> Result {
        try swap { (current: Object?) throws(Failure) -> (Object, Result) in try make(current.unsafelyUnwrapped) }
    }

    /// Replaces the object (or publishes the first one) with what `make` builds from the current one.
    /// - Parameter make: Builds the next object from the current one, `nil` when empty; may run more than once.
    package func replace(_ make: (Object?) -> Object) {
        swap { (current: Object?) -> (Object, Void) in (make(current), ()) }
    }

    /// Makes `object` the one readers see.
    package func publish(_ object: Object) {
        swap { (_: Object?) -> (Object, Void) in (object, ()) }
    }

    private func swap<Result, Failure: Error>(
        _ make: (Object?) throws(Failure) -> (Object, Result)
    ) throws(Failure) -> Result {
        while true {
            // A retain taken inside a read: the object cannot be freed before it, nor its address reused for another
            // object before the exchange below (which could otherwise succeed against a different object).
            let count = ReaderEpochs.enter()
            let old = word.load(ordering: .sequentiallyConsistent)
            let current = Self.objectIfAny(old)?.retain()
            ReaderEpochs.exit(count)
            defer { current?.release() }
            let (next, result) = try make(current?.takeUnretainedValue())
            let bits = Self.retainedBits(next)
            if word.compareExchange(expected: old, desired: bits, ordering: .sequentiallyConsistent).exchanged {
                if let retired = Self.objectIfAny(old) { ReaderEpochs.retire(retired) }
                return result
            }
            Self.object(bits).release()
        }
    }

    // MARK: Published once

    /// Publishes what `make` builds if nothing is published yet (if two threads race, one object is kept) and runs
    /// `body` with the published object. Such an object is never replaced.
    package func publishIfEmpty<Result>(_ make: @autoclosure () -> Object, _ body: (Object) -> Result) -> Result {
        var bits = word.load(ordering: .acquiring)
        if bits == 0 {
            let made = Self.retainedBits(make())
            let (exchanged, original) = word.compareExchange(
                expected: 0, desired: made, ordering: .acquiringAndReleasing)
            if exchanged {
                bits = made
            } else {
                Self.object(made).release()
                bits = original
            }
        }
        return Self.object(bits)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` with the object published by ``publishIfEmpty(_:_:)``, if any, with one acquire load: it is never
    /// replaced, so it lives as long as this reference.
    @inlinable @inline(__always)
    package func readIfPublishedOnce<Result>(_ body: (Object) -> Result) -> Result? {
        let bits = word.load(ordering: .acquiring)
        if bits == 0 { return nil }
        return Self.object(bits)._withUnsafeGuaranteedRef(body)
    }

    /// Whether an object has been published (one relaxed load).
    package var isPublished: Bool { word.load(ordering: .relaxed) != 0 }
}

/// A ``PublishedReference`` in a class, for owners that share one reference between objects.
package final class PublishedReferenceBox<Object: AnyObject & Sendable>: Sendable {
    @usableFromInline let reference: PublishedReference<Object>

    /// Publishes `initial`.
    package init(_ initial: Object) {
        reference = PublishedReference(initial)
    }

    /// ``PublishedReference/read(_:)``.
    @inlinable @inline(__always)
    package func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference.read(body)
    }

    /// ``PublishedReference/update(_:)``.
    @discardableResult
    package func update<Result, Failure: Error>(
        _ make: (Object) throws(Failure) -> (Object, Result)
    ) throws(Failure) -> Result {
        try reference.update(make)
    }

    /// ``PublishedReference/publish(_:)``.
    package func publish(_ object: Object) {
        reference.publish(object)
    }
}

/// The process-wide reader counts behind every ``PublishedReference`` (see there for the protocol): stripes, each on
/// its own pair of cache lines, with two counts, one per parity of the epoch. A reader counts itself on the stripe of
/// its thread (``stripeOfCallingThread``); which stripe only decides contention, never correctness, since ``exit(_:)``
/// takes back the very count ``enter()`` added to.
///
/// Static storage, not an instance: the epoch and the address of the counts are initialised statically, so a read
/// costs no lazy-global check (docs/performance.md, "Settings read budget, second pass").
@usableFromInline
package enum ReaderEpochs {
    /// Stripes (a power of two); threads that share one stay correct, at the cost of contention.
    static var stripeCount: Int { 32 }
    /// `Atomic<Int>` slots per stripe: two counts and padding up to 128 bytes.
    static var stripeStride: Int { 16 }

    private static let epoch = Atomic<Int>(0)
    /// The address of the counts, allocated by the first reader and never freed (0 until then).
    private static let countsAddress = Atomic<UInt>(0)
    /// Serialises advancing the epoch and waiting (see ``PublishedReference``'s correctness argument).
    private static let reclaimer = AnnotatedMutex(())

    /// Counts a reader on the calling thread's stripe; returns the count to pass to ``exit(_:)``. One call, not
    /// inlined into every read.
    @usableFromInline
    static func enter() -> UnsafeMutablePointer<Atomic<Int>> {
        let stripe = counts + stripeOfCallingThread * stripeStride
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
    static func exit(_ count: UnsafeMutablePointer<Atomic<Int>>) {
        count.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// The calling thread's stripe.
    @inline(__always)
    static var stripeOfCallingThread: Int { ThreadStripe.stackStripe(count: stripeCount) }

    /// The counts: `stripeCount * stripeStride` slots.
    @inline(__always)
    private static var counts: UnsafeMutablePointer<Atomic<Int>> {
        let address = countsAddress.load(ordering: .acquiring)
        if address != 0 { return UnsafeMutablePointer(bitPattern: address).unsafelyUnwrapped }
        return allocateCounts()
    }

    /// Allocates the counts (if two threads race, one allocation is kept).
    @inline(never)
    private static func allocateCounts() -> UnsafeMutablePointer<Atomic<Int>> {
        let slots = stripeCount * stripeStride
        let made = UnsafeMutableRawPointer.allocate(byteCount: slots * MemoryLayout<Atomic<Int>>.stride, alignment: 128)
            .bindMemory(to: Atomic<Int>.self, capacity: slots)
        for slot in 0..<slots { (made + slot).initialize(to: Atomic(0)) }
        let (exchanged, original) = countsAddress.compareExchange(
            expected: 0, desired: UInt(bitPattern: made), ordering: .acquiringAndReleasing)
        if exchanged { return made }
        made.deinitialize(count: slots)
        made.deallocate()
        return UnsafeMutablePointer(bitPattern: original).unsafelyUnwrapped
    }

    /// Releases `object` once no reader that may have loaded it is still reading: advances the epoch and waits for
    /// every stripe's count of the previous parity to be seen at zero.
    static func retire<Object: AnyObject>(_ object: Unmanaged<Object>) {
        let counts = counts
        reclaimer.withLock { _ in
            let previous = epoch.load(ordering: .sequentiallyConsistent)
            epoch.store(previous &+ 1, ordering: .sequentiallyConsistent)
            for stripe in 0..<stripeCount {
                let count = counts + stripe * stripeStride + (previous & 1)
                var spins = 0
                while count.pointee.load(ordering: .sequentiallyConsistent) != 0 {
                    spins += 1
                    // A reader preempted mid-read needs its thread scheduled again to finish.
                    if spins > 64 { Platform.yieldThread() }
                }
            }
        }
        object.release()
    }
}
