import Foundation

/// Something the store doctor found wrong or worth knowing about an override store and its registry.
///
/// Findings come from ``StoreDoctor/examine(_:overrides:expired:)`` (or ``RegistryDoctor/diagnose()``). A
/// finding with a ``fix`` can be repaired by a store change (``AnyRegistryDoctor/fix()`` applies every fix at
/// once); the others say what a person has to do in ``advice``.
package struct DoctorFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    package var kind: Kind
    /// How much it matters.
    package var severity: DoctorSeverity
    /// The store key concerned, or `nil` for a registry problem that names no single key.
    package var key: String?
    /// The value stored under ``key``, when the finding is about a store entry.
    package var storedValue: OverrideValue?
    /// One sentence saying what is wrong, e.g. `no flag or setting "oldFlag" in Shop`.
    package var message: String
    /// The store change that repairs it, or `nil` when only a person can (see ``advice``).
    package var fix: DoctorFix?
    /// What to do when there is no automatic fix, e.g. `set a valid value or reset it`.
    package var advice: String?
    /// When the override expired (``Kind/expired`` findings).
    package var expiredAt: Date?

    /// Creates a finding.
    package init(
        kind: Kind, severity: DoctorSeverity, key: String?, storedValue: OverrideValue? = nil, message: String,
        fix: DoctorFix? = nil, advice: String? = nil, expiredAt: Date? = nil
    ) {
        self.kind = kind
        self.severity = severity
        self.key = key
        self.storedValue = storedValue
        self.message = message
        self.fix = fix
        self.advice = advice
        self.expiredAt = expiredAt
    }

    /// `orphan "oldFlag": no flag or setting "oldFlag" in Shop`.
    package var description: String {
        let subject = key.map { " " + JSONText.quoted($0, alsoEscaping: TextSanitizer.isUnsafe) } ?? ""
        return "\(kind.rawValue)\(subject): \(message)"
    }

    /// The kind of a finding. New kinds may be added: switch with a `default`.
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The word used in reports and JSON, e.g. `orphan`.
        package let rawValue: String

        /// Creates a kind from its word.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// An override whose expiry has passed: applied by no one, removed at the next write.
        package static let expired = Kind(rawValue: "expired")
        /// An override for a key the registry declares no flag or setting for.
        package static let orphan = Kind(rawValue: "orphan")
        /// An override equal to the value its member has anyway, from a source that cannot change (a static
        /// default): removing it changes nothing.
        package static let noOp = Kind(rawValue: "no-op")
        /// An override equal to the member's current value without it, which comes from a source that can
        /// change (a remote value, a dynamic rule, a build target): it pins today's value. Information only.
        package static let pinsCurrentValue = Kind(rawValue: "pins-current-value")
        /// A stored value not valid for the member declared under its key (type, range, choices, JSON shape):
        /// ignored and left in the file.
        package static let wrongType = Kind(rawValue: "wrong-type")
        /// A store entry the store cannot read (an expiry time that is not a time, or outside the years 0000–9999):
        /// while it is there every read refuses the store as corrupt. ``RegistryDoctor/fix()`` removes it.
        package static let unreadableEntry = Kind(rawValue: "unreadable-entry")
        /// A declaration problem of the registry (a duplicate or unusable key): see ``RegistryProblem``.
        package static let registryProblem = Kind(rawValue: "registry-problem")

        /// The word.
        package var description: String { rawValue }
    }
}

/// How much a finding matters.
package enum DoctorSeverity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Worth knowing; the store is still clean.
    case info
    /// An override that does nothing useful (orphan, no-op, expired): safe to remove.
    case warning
    /// Something that is wrong and needs a person: a value that is ignored, a registry that declares a key twice.
    case error

    /// `info` < `warning` < `error`.
    package static func < (lhs: DoctorSeverity, rhs: DoctorSeverity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }
}

/// A store change that repairs a finding.
package struct DoctorFix: Sendable, Hashable {
    /// The change to make: key → what to do to its entry.
    package var changes: [String: OverrideEdit]
    /// What the change does, e.g. `remove the override`.
    package var summary: String

    /// Creates a fix.
    package init(changes: [String: OverrideEdit], summary: String) {
        self.changes = changes
        self.summary = summary
    }

    /// Removes the store entry under `key`.
    /// - Parameter key: the store key.
    package static func removeOverride(_ key: String) -> DoctorFix {
        DoctorFix(changes: [key: .remove], summary: "remove the override")
    }
}
