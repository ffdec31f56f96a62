/// Reading a store whose only problem is entries it cannot read, in order to remove them (`flagstaff reset`,
/// ``RegistryDoctor/fix()``).
///
/// A store file with an unreadable entry (an expiry time outside the years 0000–9999, or not a time) is refused
/// as corrupt by every read. A write given a repair (``WriteParameters/repair``) that covers the keys of every such
/// entry reads those overrides without their expiry instead and notes each entry here; the write's change then
/// removes them. Anything else wrong with the file is still refused.
package final class StoreRepair: Sendable {
    /// Which keys' unreadable entries may be read for removal.
    package enum Scope: Sendable {
        /// Every key (the doctor removes every unreadable entry).
        case all
        /// These keys only (the keys a reset removes).
        case keys(Set<String>)
    }

    private let scope: Scope
    private let found = AnnotatedMutex<[String: String]>([:])

    /// Creates a repair of the entries of `scope`.
    package init(_ scope: Scope) {
        self.scope = scope
    }

    /// Whether the unreadable entry of `key` may be read for removal.
    package func covers(_ key: String) -> Bool {
        switch scope {
        case .all: true
        case .keys(let keys): keys.contains(key)
        }
    }

    /// Notes an unreadable entry a read took for removal.
    package func note(key: String, problem: String) {
        found.withLock { $0[key] = problem }
    }

    /// The unreadable entries read so far, by key, with what is wrong with each (the JSON path and the problem).
    package var entries: [(key: String, problem: String)] {
        found.withLock { $0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
