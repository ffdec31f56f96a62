/// Why an override store could not be read or written. Every error names the file.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``isLockTimeout``, ``isCorrupt``, ``holder``, …) instead of matching cases.
/// The static members (``corrupt(path:reason:)``, …) make the errors, as the cases of an enum would.
public struct OverrideStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unreadable
        case corrupt
        case unwritable
        case invalidLocation
        case lockTimeout(holder: FileOverrideStore.LockHolder, waited: Duration)
    }

    private let code: Code
    /// The store file's path; for an unusable location, the location as given.
    public let path: String
    /// What went wrong (empty for a lock timeout: ``holder`` and ``waited`` say it).
    public let reason: String

    private init(_ code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// The file exists but cannot be read (permissions, I/O error).
    public static func unreadable(path: String, reason: String) -> OverrideStoreError {
        OverrideStoreError(.unreadable, path: path, reason: reason)
    }

    /// The file is not a valid override file; it is left untouched until repaired.
    public static func corrupt(path: String, reason: String) -> OverrideStoreError {
        OverrideStoreError(.corrupt, path: path, reason: reason)
    }

    /// The file (or its directory, or its lock) cannot be written.
    public static func unwritable(path: String, reason: String) -> OverrideStoreError {
        OverrideStoreError(.unwritable, path: path, reason: reason)
    }

    /// The URL is not usable as a store location.
    package static func invalidLocation(_ location: String, reason: String) -> OverrideStoreError {
        OverrideStoreError(.invalidLocation, path: location, reason: reason)
    }

    /// Another process held the store's lock for longer than the writer's timeout (`waited`); nothing was
    /// changed.
    package static func lockTimeout(path: String, holder: FileOverrideStore.LockHolder, waited: Duration)
        -> OverrideStoreError
    {
        OverrideStoreError(.lockTimeout(holder: holder, waited: waited), path: path, reason: "")
    }

    /// Whether the file exists but could not be read.
    public var isUnreadable: Bool { code == .unreadable }
    /// Whether the file is not a valid override file (see ``corrupt(path:reason:)``).
    public var isCorrupt: Bool { code == .corrupt }
    /// Whether the file, its directory or its lock could not be written.
    public var isUnwritable: Bool { code == .unwritable }
    /// Whether the location is not usable as a store.
    public var isInvalidLocation: Bool { code == .invalidLocation }
    /// Whether another process held the lock for longer than the writer waited.
    public var isLockTimeout: Bool { holder != nil }

    /// For a lock timeout, the process that held the lock.
    public var holder: FileOverrideStore.LockHolder? {
        if case .lockTimeout(let holder, _) = code { return holder }
        return nil
    }

    /// For a lock timeout, how long the writer waited.
    public var waited: Duration? {
        if case .lockTimeout(_, let waited) = code { return waited }
        return nil
    }

    /// A message a user can act on.
    public var description: String {
        switch code {
        case .unreadable:
            return "cannot read the override store \(path): \(reason)"
        case .corrupt:
            return problem + " (until then, flags read their defaults)"
        case .unwritable:
            return "cannot write the override store \(path): \(reason)"
        case .invalidLocation:
            return "cannot use \(path) as an override store: \(reason)"
        case .lockTimeout(let holder, let waited):
            return
                "cannot write the override store \(path): its lock is held by \(holder); gave up after \(Self.seconds(waited)) (nothing was changed)"
        }
    }

    /// What is wrong and what to do about it, without what it means for a registry's flags (a reader that keeps
    /// its last values, as `flagstaff serve` does, says that itself).
    public var problem: String {
        if code == .corrupt {
            return "the override store \(path) is corrupt: \(reason). It was not changed; fix or delete it"
        }
        return description
    }

    /// `10 s`, `0.25 s`.
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = seconds * 100 + Int64((Double(attoseconds) / 1e16).rounded())
        var text = "\(hundredths / 100)"
        let fraction = hundredths % 100
        if fraction != 0 {
            text += fraction % 10 == 0 ? ".\(fraction / 10)" : (fraction < 10 ? ".0\(fraction)" : ".\(fraction)")
        }
        return text + " s"
    }
}
