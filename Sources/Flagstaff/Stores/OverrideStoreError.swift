/// Why an override store could not be read or written. Every case names the file.
public enum OverrideStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but cannot be read (permissions, I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not a valid override file; it is left untouched until repaired.
    case corrupt(path: String, reason: String)
    /// The file (or its directory, or its lock) cannot be written.
    case unwritable(path: String, reason: String)
    /// The URL is not usable as a store location.
    case invalidLocation(String, reason: String)
    /// Another process held the store's lock for longer than the writer's timeout (`waited`); nothing was
    /// changed.
    case lockTimeout(path: String, holder: FileOverrideStore.LockHolder, waited: Duration)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the override store \(path): \(reason)"
        case .corrupt:
            return problem + " (until then, flags read their defaults)"
        case .unwritable(let path, let reason):
            return "cannot write the override store \(path): \(reason)"
        case .invalidLocation(let location, let reason):
            return "cannot use \(location) as an override store: \(reason)"
        case .lockTimeout(let path, let holder, let waited):
            return
                "cannot write the override store \(path): its lock is held by \(holder); gave up after \(Self.seconds(waited)) (nothing was changed)"
        }
    }

    /// What is wrong and what to do about it, without what it means for a registry's flags (a reader that keeps
    /// its last values, as `flagstaff serve` does, says that itself).
    package var problem: String {
        if case .corrupt(let path, let reason) = self {
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
