import Synchronization

/// Lock-free keyed lookup: an immutable key → flag table published through an atomic pointer.
///
/// Readers load the pointer and look the key up without a lock or a retain. A table is replaced (not
/// changed) when flags are registered; every table ever published stays alive until the registry is
/// deallocated, so a reader that loaded an older pointer can never see freed memory. Tables are published
/// once after discovery or a manifest load, and once per runtime registration call, so the number kept is the
/// number of registration calls made while the registry lives (a handful in practice; use the batch
/// `register(_:in:)` overload for many flags).
final class KeyTable: Sendable {
    let features: [String: AnyFeature]

    init(_ features: [String: AnyFeature]) {
        self.features = features
    }
}

/// The current `KeyTable` and every table published before it.
final class PublishedKeyTable: Sendable {
    private let current = Atomic<UInt>(0)
    private let retained = AnnotatedMutex<[KeyTable]>([])

    /// Publishes a new table; earlier ones stay alive.
    func publish(_ features: [String: AnyFeature]) {
        let table = KeyTable(features)
        retained.withLock { $0.append(table) }
        current.store(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
    }

    /// Looks a key up in the current table: one atomic load and one dictionary lookup.
    func lookup(_ key: String) -> AnyFeature? {
        let bits = current.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<KeyTable>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.features[key] }
    }

    /// How many tables have been published (for tests).
    var publishedCount: Int { retained.withLock { $0.count } }
}
