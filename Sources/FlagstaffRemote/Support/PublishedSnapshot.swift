#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Flagstaff
import Synchronization

/// An immutable object published through an atomic reference: readers take no lock, and replaced objects are
/// freed once no reader can still be using them.
///
/// A read announces itself on one of 16 reader counters (picked by thread, each on its own cache line, so readers
/// on different threads do not contend), loads the current reference and uses it without retaining it. A publish
/// swaps the reference and frees the replaced objects only when every counter reads zero; otherwise they wait for
/// a later publish (or the cell's deinit). All four steps are sequentially consistent, so a reader that still
/// holds an old object is always seen by the publisher (the store-buffer case cannot happen).
///
/// Cost of a read: two uncontended atomic adds and one atomic load.
final class PublishedSnapshot<Snapshot: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: `current` and the counters are atomics; `counters` itself is never reassigned; the retired list
    // is behind a lock; snapshots are immutable and `Sendable`.
    private static var counterCount: Int { 16 }
    /// Atomics per counter slot: 16 × 8 bytes, two cache lines, so adjacent-line prefetch does not share them.
    private static var slotStride: Int { 16 }

    private let current: Atomic<UInt>
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let retired = AnnotatedMutex<[Unmanaged<Snapshot>]>([])

    /// Creates a cell publishing `initial`.
    init(_ initial: Snapshot) {
        current = Atomic(UInt(bitPattern: Unmanaged.passRetained(initial).toOpaque()))
        let count = Self.counterCount * Self.slotStride
        counters = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        Self.unmanaged(current.load(ordering: .acquiring)).release()
        for snapshot in retired.withLock({ $0 }) { snapshot.release() }
        counters.deinitialize(count: Self.counterCount * Self.slotStride)
        counters.deallocate()
    }

    /// Runs `body` with the current snapshot. The snapshot is valid only inside `body`: copy out what you need.
    func read<Result>(_ body: (Snapshot) -> Result) -> Result {
        let counter = counters + Self.slotStride * Self.counterIndex()
        counter.pointee.add(1, ordering: .sequentiallyConsistent)
        defer { counter.pointee.subtract(1, ordering: .releasing) }
        return Self.unmanaged(current.load(ordering: .sequentiallyConsistent))._withUnsafeGuaranteedRef(body)
    }

    /// Makes `snapshot` the one readers see. Callers serialise their publishes (the newest must be published last).
    func publish(_ snapshot: Snapshot) {
        let replaced = current.exchange(UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque()),
                                        ordering: .sequentiallyConsistent)
        let freed = retired.withLock { retired -> [Unmanaged<Snapshot>] in
            retired.append(Self.unmanaged(replaced))
            for index in 0..<Self.counterCount
            where counters[Self.slotStride * index].load(ordering: .sequentiallyConsistent) != 0 {
                return []
            }
            defer { retired.removeAll() }
            return retired
        }
        for snapshot in freed { snapshot.release() }
    }

    /// How many replaced snapshots are still kept (for tests).
    var retiredCount: Int { retired.withLock { $0.count } }

    private static func unmanaged(_ bits: UInt) -> Unmanaged<Snapshot> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// The calling thread's counter: a hash of its thread identity.
    private static func counterIndex() -> Int {
        #if canImport(Darwin)
        let thread = UInt64(UInt(bitPattern: pthread_self()))
        #else
        let thread = UInt64(pthread_self())
        #endif
        return Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60)
    }
}
