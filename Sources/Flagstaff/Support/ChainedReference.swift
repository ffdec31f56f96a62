import Synchronization

/// An immutable object that is replaced rarely and read often, published through an atomic pointer so
/// that readers take no lock and no retain.
///
/// Safe reclamation without a lock: a replaced object is never freed while this cell lives, because every
/// new object must keep the one it replaces alive (``replace(_:)`` hands the current object to `make`, which
/// stores it). Use it only for values replaced a bounded number of times (a flag's identity is replaced once,
/// when its registry discovers it).
struct ChainedReference<Object: AnyObject & Sendable>: ~Copyable, @unchecked Sendable {
    // @unchecked: the cell owns one retain of the current object; objects are immutable and Sendable.
    private let cell = Atomic<UInt>(0)

    /// Creates an empty cell.
    init() {}

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: cell.load(ordering: .acquiring)) {
            Unmanaged<Object>.fromOpaque(pointer).release()
        }
    }

    /// Calls `body` with the current object (`nil` before the first ``replace(_:)``), without a lock or a retain.
    func withCurrent<Result>(_ body: (Object?) throws -> Result) rethrows -> Result {
        guard let pointer = UnsafeRawPointer(bitPattern: cell.load(ordering: .acquiring)) else { return try body(nil) }
        return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
    }

    /// Publishes the object `make` builds from the current one; `make` may run more than once if writers race.
    /// - Parameter make: builds the new object from the current one, and must keep a strong reference to the
    ///   current one (readers may still be using it).
    func replace(_ make: (Object?) -> Object) {
        while true {
            let old = cell.load(ordering: .acquiring)
            let current = UnsafeRawPointer(bitPattern: old).map {
                Unmanaged<Object>.fromOpaque($0).takeUnretainedValue()
            }
            let new = Unmanaged.passRetained(make(current))
            let desired = UInt(bitPattern: new.toOpaque())
            if cell.compareExchange(expected: old, desired: desired, ordering: .acquiringAndReleasing).exchanged {
                // The new object keeps the old one alive; drop the cell's own reference to it.
                if let pointer = UnsafeRawPointer(bitPattern: old) { Unmanaged<Object>.fromOpaque(pointer).release() }
                return
            }
            new.release()
        }
    }
}
