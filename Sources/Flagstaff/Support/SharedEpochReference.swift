import Synchronization

/// An immutable object replaced now and then and read often, like ``PublishedReference``, but one word per
/// instance: every instance shares one set of striped reader counts and one writer lock. For per-setting state
/// (a `Setting`'s override and cached remote value), where 100,000 settings must not cost 100,000 × 4 KB of
/// reader counts.
///
/// The reclamation protocol is ``PublishedReference``'s (see there), with one epoch for the whole process:
/// a writer of any instance publishes, advances the shared epoch and waits for the reads that were under way in
/// any instance. Writers are serialised process-wide, which is fine for values written when a person or a
/// store changes them. A read must not write any instance.
@usableFromInline package final class SharedEpochReference<Value: AnyObject & Sendable>: Sendable {
    @usableFromInline let current: Atomic<UInt>

    /// Publishes `initial`.
    /// - Parameter initial: the first object readers see.
    package init(_ initial: Value) {
        current = Atomic(UInt(bitPattern: Unmanaged.passRetained(initial).toOpaque()))
    }

    deinit {
        Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: current.load(ordering: .sequentiallyConsistent))!)
            .release()
    }

    /// Runs `body` with the current object, without a lock or a retain; `body` must not keep the object and must
    /// not write any `SharedEpochReference`.
    @inlinable @inline(__always)
    package func read<Result>(_ body: (Value) -> Result) -> Result {
        let readers = SharedEpochs.readers
        let count = readers.enter()
        defer { readers.exit(count) }
        let bits = current.load(ordering: .sequentiallyConsistent)
        return Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef(body)
    }

    /// Replaces the object with what `make` builds from the current one (writers run one at a time, process-wide).
    /// - Returns: what `make` returned.
    @discardableResult
    package func update<Result>(_ make: (Value) -> (Value, Result)) -> Result {
        SharedEpochs.writer.withLock { _ in
            let old = current.load(ordering: .sequentiallyConsistent)
            let (next, result) = make(
                Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: old).unsafelyUnwrapped).takeUnretainedValue())
            current.store(UInt(bitPattern: Unmanaged.passRetained(next).toOpaque()), ordering: .sequentiallyConsistent)
            SharedEpochs.readers.advanceEpochAndWait()
            Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: old).unsafelyUnwrapped).release()
            return result
        }
    }
}

/// The reader counts and writer lock every ``SharedEpochReference`` shares.
@usableFromInline enum SharedEpochs {
    @usableFromInline static let readers = ReaderEpochs()
    static let writer = AnnotatedMutex(())
}
